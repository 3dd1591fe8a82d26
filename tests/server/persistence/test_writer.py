"""The batching writer (laizi.server.persistence.writer): rows of a batch's writes inserted together in
order, fences of a batch checked in one statement, a refused or failing write failing only
its own caller — on SQLite and on a private PostgreSQL."""

from __future__ import annotations

import asyncio
import threading
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import event, func, select, text
from sqlalchemy.orm import Session

from laizi.server.persistence import db, store
from laizi.server.persistence.fencing import FENCES, Fenced, check_fences, raise_fence
from laizi.server.persistence.writer import Writer, _gather_ms


def _engine(url: str) -> Any:
    eng = db.make_engine(url)
    db.migrate(eng)
    return eng


@pytest.fixture
def url(db_url: str) -> str:
    """:func:`db_url` (SQLite, PostgreSQL), the SQLite file as a URL."""
    return db_url if db_url.startswith("postgresql") else f"sqlite:///{db_url}"


def _match(s: Session, code: str) -> int:
    s.add(db.RoomRow(code=code, owner_id=None, settings={}, seats=[]))
    s.flush()
    m = db.MatchRow(room_code=code, status="playing", rules={}, seed="00", max_hands=None,
                    seats=[], scores=[0, 0, 0, 0], penalties=[0, 0, 0, 0])
    s.add(m)
    s.flush()
    return int(m.id)


def _event(mid: int, n: int) -> dict[str, Any]:
    return {"match_id": mid, "n": n, "hand": 0, "kind": "draw", "data": {"n": n}}


async def _held(w: Writer, writes: list[Any]) -> list[Any]:
    """Queue ``writes`` (thunks returning futures) while the writer is held by a first
    write, so that they form one batch; their outcomes (result or exception)."""
    gate = threading.Event()
    first = w.write(lambda s: gate.wait(10))
    await asyncio.sleep(0.05)  # the writer is inside the first batch now
    futs = [make() for make in writes]
    gate.set()
    await first
    return list(await asyncio.gather(*futs, return_exceptions=True))


def test_rows_of_a_batch_go_in_together_and_in_order(url: str) -> None:
    eng = _engine(url)
    w = Writer(eng)

    async def run() -> list[Any]:
        mid = await w.write(lambda s: _match(s, "ROWS1"))
        seen: list[int] = []

        def count(s: Session) -> int:  # runs after the rows of the writes before it
            n = s.connection().execute(select(func.count()).select_from(store.EVENTS)).scalar()
            seen.append(int(n or 0))
            return int(n or 0)

        out = await _held(w, [
            lambda: w.write(None, rows=((store.EVENTS, [_event(mid, 1), _event(mid, 2)]),)),
            lambda: w.write(None, rows=((store.EVENTS, [_event(mid, 3)]),)),
            lambda: w.write(count, rows=((store.EVENTS, [_event(mid, 4)]),)),
            lambda: w.write(None, rows=((store.EVENTS, [_event(mid, 5)]),)),
        ])
        return [out, seen]

    try:
        out, seen = asyncio.run(run())
        w.close()  # the counters are final once the thread is gone
        assert out == [None, None, 4, None]
        assert seen == [4]          # rows 1-4 were in when the function ran, 5 not yet
        assert w.batches == 3       # the match, the held write, then the four together
        with eng.connect() as c:
            ns = [r[0] for r in c.execute(text("select n from events order by id"))]
        assert ns == [1, 2, 3, 4, 5]
    finally:
        w.close()
        eng.dispose()


def test_a_failing_write_fails_alone(url: str) -> None:
    eng = _engine(url)
    w = Writer(eng)

    async def run() -> list[Any]:
        mid = await w.write(lambda s: _match(s, "FAIL1"))
        return await _held(w, [
            lambda: w.write(None, rows=((store.EVENTS, [_event(mid, 1)]),)),
            lambda: w.write(None, rows=((store.EVENTS, [_event(mid, 1)]),)),  # duplicate (match, n)
            lambda: w.write(None, rows=((store.EVENTS, [_event(mid, 2)]),)),
        ])

    try:
        out = asyncio.run(run())
        assert out[0] is None and out[2] is None
        assert isinstance(out[1], Exception)
        with eng.connect() as c:
            assert [r[0] for r in c.execute(text("select n from events order by n"))] == [1, 2]
    finally:
        w.close()
        eng.dispose()


def test_fences_of_a_batch_one_refused_room_only(url: str) -> None:
    """Three rooms written in one batch; one of them was taken by a newer token: its writes
    are refused (Fenced, nothing stored), the other rooms' are committed."""
    eng = _engine(url)
    w = Writer(eng)
    w.fence_check = FENCES

    def setup(s: Session) -> list[int]:
        mids = [_match(s, code) for code in ("FENA", "FENB", "FENC")]
        for code in ("FENA", "FENB", "FENC"):
            raise_fence(s, code, 5, "me")
        raise_fence(s, "FENB", 6, "other")  # FENB moved on
        return mids

    async def run() -> list[Any]:
        a, b, c = await w.write(setup)
        return await _held(w, [
            lambda: w.write(None, fence=("FENA", 5), rows=((store.EVENTS, [_event(a, 1)]),)),
            lambda: w.write(None, fence=("FENB", 5), rows=((store.EVENTS, [_event(b, 1)]),)),
            lambda: w.write(lambda s: "c", fence=("FENC", 5), rows=((store.EVENTS, [_event(c, 1)]),)),
            lambda: w.write(lambda s: "b", fence=("FENB", 5)),
        ])

    try:
        out = asyncio.run(run())
        assert out[0] is None and out[2] == "c"
        assert isinstance(out[1], Fenced) and isinstance(out[3], Fenced)
        with eng.connect() as c:
            rooms = [r[0] for r in c.execute(text(
                "select m.room_code from events e join matches m on m.id = e.match_id "
                "order by m.room_code"))]
            fences = dict(c.execute(text("select code, token from room_fences")).all())
        assert rooms == ["FENA", "FENC"]
        assert fences == {"FENA": 5, "FENB": 6, "FENC": 5}
    finally:
        w.close()
        eng.dispose()


def test_a_room_taken_again_within_a_batch(url: str) -> None:
    """Writes of one room with two tokens in one batch (the node took the room again
    between them): each is checked on its own, in order — the older one is refused once
    the newer token is raised."""
    eng = _engine(url)
    w = Writer(eng)
    w.fence_check = FENCES

    def setup(s: Session) -> int:
        mid = _match(s, "AGAIN")
        raise_fence(s, "AGAIN", 1, "me")
        return mid

    async def run() -> list[Any]:
        mid = await w.write(setup)
        return await _held(w, [
            lambda: w.write(None, fence=("AGAIN", 1), rows=((store.EVENTS, [_event(mid, 1)]),)),
            lambda: w.write(lambda s: raise_fence(s, "AGAIN", 2, "me")),
            lambda: w.write(None, fence=("AGAIN", 2), rows=((store.EVENTS, [_event(mid, 2)]),)),
            lambda: w.write(None, fence=("AGAIN", 1), rows=((store.EVENTS, [_event(mid, 3)]),)),
        ])

    try:
        out = asyncio.run(run())
        assert out[:3] == [None, None, None]
        assert isinstance(out[3], Fenced)
        with eng.connect() as c:
            assert [r[0] for r in c.execute(text("select n from events order by n"))] == [1, 2]
    finally:
        w.close()
        eng.dispose()


def test_a_batch_holds_its_fences_until_it_commits(pg_url: str) -> None:
    """PostgreSQL: the batch's one-statement check locks the fence rows — a takeover
    waits for the batch's commit, and a check after the takeover refuses the old token."""
    eng = _engine(pg_url)
    with Session(eng) as s:
        for code in ("LOCKA", "LOCKB"):
            raise_fence(s, code, 1, "old")
        s.commit()
    order: list[str] = []
    s_old = Session(eng)
    assert check_fences(s_old, {"LOCKA": 1, "LOCKB": 1}) == {"LOCKA", "LOCKB"}

    def take() -> None:
        with Session(eng) as s:
            raise_fence(s, "LOCKB", 2, "new")
            s.commit()
        order.append("taken")

    t = threading.Thread(target=take)
    t.start()
    time.sleep(0.3)
    order.append("old commits")
    s_old.commit()
    s_old.close()
    t.join(10)
    assert order == ["old commits", "taken"]
    with Session(eng) as s:
        assert check_fences(s, {"LOCKA": 1, "LOCKB": 1, "NOSUCH": 1}) == {"LOCKA"}
    eng.dispose()


def test_gather_setting() -> None:
    assert _gather_ms(None) == 5.0
    assert _gather_ms("0") == 0.0
    assert _gather_ms("5.5") == 5.5
    assert _gather_ms("1e9") == 50.0       # bounded
    assert _gather_ms("-3") == 0.0
    assert _gather_ms("nan") == 5.0
    assert _gather_ms("fast") == 5.0       # not a number: the default


def test_rows_read_back_as_written(url: str) -> None:
    """What a batch's rows store is what an INSERT through SQLAlchemy stores: JSON values
    (non-ASCII, nesting, null), NULL columns, BIGINT values, the Python-side default."""
    eng = _engine(url)
    w = Writer(eng)
    data = {"name": "红中赖子", "tiles": [1, 2, [3, None]], "x": 0.5, "ok": True, "none": None}
    action = {"type": "discard", "tile": "5m", "note": "杠\u2028\"q\""}

    async def run() -> None:
        mid = await w.write(lambda s: _match(s, "BACK1"))
        await w.write(None, rows=(
            (store.ACTIONS, [
                {"match_id": mid, "n": 1, "seat": 2, "action": action, "source": "player",
                 "player_id": "p" * 32, "client_seq": 2**31, "version": 7},
                {"match_id": mid, "n": 2, "seat": 3, "action": action, "source": "bot",
                 "player_id": None, "client_seq": None, "version": 8}]),
            (store.EVENTS, [_event(mid, 1) | {"data": data}])))

    try:
        asyncio.run(run())
        with Session(eng) as s:
            acts = s.scalars(select(db.ActionRow).order_by(db.ActionRow.n)).all()
            ev = s.scalars(select(db.EventRow)).one()
            assert [(a.seat, a.action, a.source, a.player_id, a.client_seq, a.version)
                    for a in acts] == [(2, action, "player", "p" * 32, 2**31, 7),
                                       (3, action, "bot", None, None, 8)]
            assert all(a.created_at is not None for a in acts)
            assert ev.data == data and ev.kind == "draw" and ev.hand == 0
    finally:
        w.close()
        eng.dispose()


def test_rows_the_fast_encoder_refuses_and_rows_of_other_shapes(url: str) -> None:
    """Rows go to PostgreSQL as orjson's JSON; what orjson refuses (a key that is not a
    string, an integer past 64 bits) goes through the standard encoder and is stored as an
    INSERT through SQLAlchemy stores it. A given ``created_at`` is stored as given, and
    batches of the same shape again reuse their statement."""
    eng = _engine(url)
    w = Writer(eng)
    odd = {"1": "a", "big": 2**70}  # as read back: JSON's keys are strings
    when = "2026-01-02T03:04:05+00:00"

    async def run() -> int:
        mid = await w.write(lambda s: _match(s, "ODD1"))
        await w.write(None, rows=((store.EVENTS, [_event(mid, 1) | {"data": {1: "a", "big": 2**70}}]),))
        for n in (2, 3):  # twice: the kept statement
            futs = [w.write(None, rows=((store.EVENTS, [_event(mid, 2 * n - 1), _event(mid, 2 * n)]),)),
                    w.write(None, rows=((store.ACTIONS, [
                        {"match_id": mid, "n": n, "seat": 0, "action": {"type": "pass"}, "source": "bot",
                         "player_id": None, "client_seq": None, "version": n,
                         "created_at": datetime.fromisoformat(when)}]),))]
            await asyncio.gather(*futs)
        return mid

    try:
        asyncio.run(run())
        with Session(eng) as s:
            evs = s.scalars(select(db.EventRow).order_by(db.EventRow.n)).all()
            assert evs[0].data == odd
            assert [(e.n, e.data) for e in evs[1:]] == [(n, {"n": n}) for n in (3, 4, 5, 6)]
            acts = s.scalars(select(db.ActionRow).order_by(db.ActionRow.n)).all()
            assert [a.n for a in acts] == [2, 3]
            assert all(a.created_at.replace(tzinfo=UTC) == datetime.fromisoformat(when) for a in acts)
    finally:
        w.close()
        eng.dispose()


def test_batches_keep_one_connection_until_one_fails(url: str) -> None:
    """Batch after batch runs on the connection the writer holds (a checkout per batch cost
    PostgreSQL a ping); a failing batch lets it go, its writes are retried one by one on
    fresh checkouts, and the next batch connects again — and works."""
    eng = _engine(url)
    checkouts: list[int] = []
    event.listen(eng, "checkout", lambda *a: checkouts.append(1))
    w = Writer(eng)

    async def run() -> list[Any]:
        mid = await w.write(lambda s: _match(s, "HOLD1"))
        for n in range(1, 11):  # ten batches, one after the other
            await w.write(None, rows=((store.EVENTS, [_event(mid, n)]),))
        held = len(checkouts)
        failed = await _held(w, [
            lambda: w.write(None, rows=((store.EVENTS, [_event(mid, 10)]),)),  # duplicate (match, n)
            lambda: w.write(None, rows=((store.EVENTS, [_event(mid, 11)]),)),
        ])
        after_failure = len(checkouts)
        await w.write(None, rows=((store.EVENTS, [_event(mid, 12)]),))
        return [held, failed, after_failure, len(checkouts)]

    try:
        held, failed, after_failure, last = asyncio.run(run())
        # eleven batches, one connection — two on PostgreSQL, where a batch of rows alone
        # is one statement on a connection in autocommit
        assert held == (2 if url.startswith("postgresql") else 1)
        assert isinstance(failed[0], Exception) and failed[1] is None
        assert after_failure == held + 2  # the two retries, each on its own checkout
        assert last == after_failure + 1  # the next batch connected again
        with eng.connect() as c:
            ns = [r[0] for r in c.execute(text("select n from events order by id"))]
        assert ns == [*range(1, 12), 12]
    finally:
        w.close()
        eng.dispose()
