"""Leases in a real Redis and fencing tokens in a real PostgreSQL: one owner per room, and a
node whose lease lapsed can no longer write the room."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

pytest.importorskip("redis")

from laizi.server.cluster.lease import Leases, rendezvous
from laizi.server.persistence.fencing import FENCES, Fenced
from laizi.server.persistence.store import RoomRecord, Store


async def _leases(url: str, ttl: float) -> tuple[Any, Leases, Leases]:
    import redis.asyncio as aioredis

    r = aioredis.from_url(url)
    return r, Leases(r, "a", ttl), Leases(r, "b", ttl)


def test_one_owner_and_growing_tokens(redis_url: str) -> None:
    async def run() -> None:
        # leases of 1 s: each step below is a few Redis calls that must fit in one lease (0.3 s
        # was little for a busy machine: b took a's room before a's first renewal)
        r, a, b = await _leases(redis_url, 1.0)
        try:
            ta = await a.acquire("ROOM1")
            assert ta == 1
            assert await b.acquire("ROOM1") is None          # held: nobody else gets it
            assert await a.owner("ROOM1") == ("a", 1)
            assert await a.renew() == []
            await asyncio.sleep(1.3)                        # a stops renewing: it lapses
            tb = await b.acquire("ROOM1")
            assert tb == 2                                  # a new, larger token
            assert await a.renew() == ["ROOM1"]             # a finds out it lost the room
            assert "ROOM1" not in a.held
            await a.release("ROOM1")                        # a no-op: not a's lease any more
            assert await b.owner("ROOM1") == ("b", 2)
            await b.release("ROOM1")
            assert await b.owner("ROOM1") is None
            assert await a.acquire("ROOM1") == 3
            live = await a.beat()
            assert live == ["a"]
            assert sorted(await b.beat()) == ["a", "b"]
        finally:
            await r.aclose()

    asyncio.run(run())


def test_rendezvous_spreads_and_moves_only_the_lost_nodes_rooms() -> None:
    codes = [f"R{i:04d}" for i in range(900)]
    three = {c: rendezvous(c, ["n1", "n2", "n3"]) for c in codes}
    counts = {n: sum(1 for v in three.values() if v == n) for n in ("n1", "n2", "n3")}
    assert all(200 < k < 400 for k in counts.values()), counts
    two = {c: rendezvous(c, ["n1", "n3"]) for c in codes}
    assert all(two[c] == three[c] for c in codes if three[c] != "n2")


def _room(code: str) -> RoomRecord:
    return RoomRecord(code=code, owner_id=None, status="lobby", settings={}, seats=[{}] * 4)


def test_a_stale_token_cannot_write(pg_url: str) -> None:
    async def run() -> None:
        old = await Store.open(pg_url)
        new = await Store.open(pg_url)
        try:
            for st, name in ((old, "old"), (new, "new")):
                st.use_fences(FENCES, name, lambda code: None)  # as a cluster node does
            old.fences["ABCDE"] = 1                         # type: ignore[index]
            await old.raise_fence("ABCDE", 1)
            await old.save_room(_room("ABCDE"))             # the owner writes
            new.fences["ABCDE"] = 2                         # type: ignore[index]
            await new.raise_fence("ABCDE", 2)               # a takeover
            refused: list[str] = []
            old.on_fenced = refused.append
            with pytest.raises(Fenced):
                await old.save_room(_room("ABCDE"))
            with pytest.raises(Fenced):
                await old.add_chat("ABCDE", None, "x", "hi", None)
            assert refused == ["ABCDE", "ABCDE"] and old.fenced_writes == 2
            with pytest.raises(Fenced):                     # nor can it raise the fence back
                await old.raise_fence("ABCDE", 1)
            await new.save_room(_room("ABCDE"))             # the new owner can
            await new.add_chat("ABCDE", None, "x", "hi", None)
            del new.fences["ABCDE"]                         # type: ignore[attr-defined]
            with pytest.raises(Fenced):                     # without a token: refused locally
                await new.save_room(_room("ABCDE"))
        finally:
            await old.close()
            await new.close()
        from sqlalchemy import text

        from laizi.server.persistence import db

        eng = db.make_engine(pg_url)
        with eng.connect() as c:
            assert c.execute(text("select count(*) from chat")).scalar() == 1
            assert c.execute(text("select token, node from room_fences")).one() == (2, "new")
        eng.dispose()

    asyncio.run(run())


def test_a_write_in_flight_and_a_takeover_are_serialised(pg_url: str) -> None:
    """The old owner's transaction holds the fence row: the takeover waits for its commit,
    and reads the room only after it (nothing committed after the new owner loaded)."""
    from sqlalchemy.orm import Session

    from laizi.server.persistence import db
    from laizi.server.persistence.fencing import check_fence, raise_fence

    eng = db.make_engine(pg_url)
    db.migrate(eng)
    with Session(eng) as s:
        raise_fence(s, "QWERT", 1, "old")
        s.commit()
    order: list[str] = []
    s_old = Session(eng)
    check_fence(s_old, "QWERT", 1)                          # the old owner's write is in flight

    def take() -> None:
        with Session(eng) as s:
            raise_fence(s, "QWERT", 2, "new")
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
    with Session(eng) as s, pytest.raises(Fenced):
        check_fence(s, "QWERT", 1)
    eng.dispose()


def test_redis_losing_its_counters_does_not_lock_a_room_out(pg_url: str, redis_url: str) -> None:
    """Redis restarted empty: its token counter starts again at 1, below the database's
    fence; the refused takeover moves the counter past it and the next one succeeds."""
    import redis.asyncio as aioredis

    async def run() -> None:
        r = aioredis.from_url(redis_url)
        st = await Store.open(pg_url)
        st.fences, st.node = {}, "a"
        leases = Leases(r, "a", 3.0)
        try:
            await st.raise_fence("ZZZZZ", 41)              # written before Redis lost its data
            t = await leases.acquire("ZZZZZ")
            assert t == 1
            with pytest.raises(Fenced) as info:
                await st.raise_fence("ZZZZZ", t)
            assert info.value.newer == 41
            await leases.release("ZZZZZ")
            await leases.catch_up("ZZZZZ", 41)
            t2 = await leases.acquire("ZZZZZ")
            assert t2 == 42
            await st.raise_fence("ZZZZZ", t2)
        finally:
            await st.close()
            await r.aclose()

    asyncio.run(run())
