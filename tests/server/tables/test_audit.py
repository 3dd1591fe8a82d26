"""``laizi check --db URL`` (laizi.server.tables.audit): on a database written by the server's own
store it finds nothing; each kind of damage it is meant to see gives one line and exit 1;
bad input is one line and exit 2."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from laizi.server.ledger import coins
from laizi.server.persistence import db
from laizi.server.persistence.store import RoomRecord, Store


def check(path: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "laizi", "check", "--db", path],
                          capture_output=True, text=True, timeout=120)


def test_laizi_check_finds_each_kind_of_damage(tmp_path: Path) -> None:
    path = str(tmp_path / "audit.db")

    async def make() -> int:
        store = await Store.open(path)
        try:
            rec = RoomRecord(code="ABCDE", owner_id=None, status="lobby", settings={},
                             seats=[{}] * 4)
            return await store.create_match(rec, {}, b"\1" * 32, 1)
        finally:
            await store.close()

    mid = asyncio.run(make())
    ok = check(path)
    assert ok.returncode == 0 and ok.stdout.strip() == "OK: no problem found", ok.stdout + ok.stderr
    eng = db.make_engine(path)
    now = datetime.now(UTC)
    with eng.begin() as conn:
        # a ledger row whose balance is not its running sum, then a balance below zero
        conn.execute(coins.LEDGER.insert(), [
            {"player_id": "p_a", "delta": 100, "balance": 150, "reason": "daily", "key": "k1",
             "created_at": now},
            {"player_id": "p_b", "delta": -30, "balance": -30, "reason": "hand", "match_id": mid,
             "hand": 1, "key": f"h:{mid}:1:p_b", "created_at": now},
            {"player_id": "p_c", "delta": 10, "balance": 10, "reason": "hand", "match_id": mid,
             "hand": 1, "key": f"h:{mid}:1:p_c", "created_at": now},
        ])
        # one player sitting at two coin tables in play
        for code in ("T1AAA", "T2BBB"):
            conn.execute(db.RoomRow.__table__.insert(), [{
                "code": code, "status": "playing", "settings": {}, "created_at": now,
                "updated_at": now, "seats": [{"player_id": "p_d"}, {"bot": "greedy"}, {}, {}]}])
            conn.execute(coins.TABLES.insert(), [{"room_code": code, "level": "junior",
                                                  "stake": 10, "created_at": now}])
        # an event the journal does not make
        conn.execute(db.EventRow.__table__.insert(), [{
            "match_id": mid, "n": 1, "hand": 0, "kind": "start_match",
            "data": {"type": "start_match", "forged": True}}])
    eng.dispose()
    bad = check(path)
    out = bad.stdout
    assert bad.returncode == 1, out + bad.stderr
    assert "p_a: entry 1 (k1) says balance 150, the sum of the ledger up to it is 100" in out
    assert "p_b: balance -30 below zero" in out
    assert f"settlement h:{mid}:1 is not zero-sum (-20)" in out
    assert "p_d sits at 2 coin tables in play (T1AAA, T2BBB)" in out
    assert f"match {mid}: event 1 differs from its replay" in out
    assert out.strip().splitlines()[-1] == "5 problem(s)"


def test_laizi_check_bad_input_is_one_line(tmp_path: Path) -> None:
    res = check(str(tmp_path / "none.db"))
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "no database file" in res.stderr
    other = tmp_path / "other.db"
    other.write_bytes(b"not a database at all" * 100)
    res = check(str(other))
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr


def test_laizi_check_names_an_unsupported_database_as_serve_does() -> None:
    """(was ModuleNotFoundError from SQLAlchemy's MySQL dialect: an internal error, exit 1)"""
    res = check("mysql://user:s3cret-pw@db.example/laizi")
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
    assert "unsupported database 'mysql' in db.example/laizi" in res.stderr and "s3cret" not in res.stderr


def test_laizi_check_reads_a_live_database_without_false_alarms(tmp_path: Path) -> None:
    """``laizi check`` may run beside a live server: a commit landing between two of its reads
    must not look like damage. The server commits an action with its events, and a hand's
    scores with its coins, in one transaction each; here such a commit is made exactly
    between the audit's two reads of a match (and of the coins). CI saw "match 1: 13 events
    stored, its journal replays to 12" from an audit that read the journal first."""
    import re

    from sqlalchemy import event

    from laizi.rules import RuleSet
    from laizi.server.tables.audit import audit
    from laizi.server.tables.engine import GameSession, seed_from_text
    from laizi.server.tables.seats import SeatBot

    url = str(tmp_path / "live.db")
    eng = db.make_engine(url)
    db.migrate(eng)
    rules, seed = RuleSet(), seed_from_text("audit-live")
    g = GameSession(rules, seed, max_hands=1)
    bots = [SeatBot("random", s) for s in range(4)]
    while len(g.journal) < 30 and not g.hand_over:
        seat = g.to_act()[0]
        g.act(seat, bots[seat].choose(g, seat))
    journal, log = list(g.journal), list(g.log)
    before = len(GameSession.rebuild(rules, seed, journal[:-1], max_hands=1).log)
    assert before < len(log)  # the last action made events

    def act_rows(ops: list[Any], first: int) -> list[dict[str, Any]]:
        return [{"match_id": 1, "n": first + i, "seat": op.get("seat", -1), "action": op,
                 "source": "bot", "version": first + i} for i, op in enumerate(ops)]

    def ev_rows(evs: list[Any], first: int) -> list[dict[str, Any]]:
        return [{"match_id": 1, "n": first + i, "hand": 1, "kind": ev["type"], "data": ev}
                for i, ev in enumerate(evs)]

    T = db.Base.metadata.tables
    now = datetime.now(UTC)
    with eng.begin() as c:
        c.execute(T["rooms"].insert().values(code="LIVE1", settings={}, seats=[], status="playing"))
        c.execute(coins.TABLES.insert(), [{"room_code": "LIVE1", "level": "junior", "stake": 10,
                                           "created_at": now}])
        c.execute(T["matches"].insert().values(id=1, room_code="LIVE1", status="playing",
                                               rules=rules.model_dump(mode="json"),
                                               seed=seed.hex(), seats=[], scores=[], penalties=[],
                                               max_hands=1))
        c.execute(T["hands"].insert().values(match_id=1, number=1, dealer=0))
        c.execute(T["actions"].insert(), act_rows(journal[:-1], 1))
        c.execute(T["events"].insert(), ev_rows(log[:before], 1))
    # the next commit of the "server": the last action and its events; a hand's scores and coins
    commits = [
        [(T["actions"], act_rows(journal[-1:], len(journal))),
         (T["events"], ev_rows(log[before:], before + 1))],
        [(T["scores"], [{"match_id": 1, "hand": 1, "seat": 0, "player_id": "p_live",
                         "kind": "hand", "delta": -3}]),
         (coins.LEDGER, [{"player_id": "p_live", "delta": 1000, "balance": 1000,
                          "reason": "welcome", "match_id": None, "hand": None, "key": "w:p_live",
                          "created_at": now},
                         {"player_id": "p_live", "delta": -30, "balance": 970, "reason": "hand",
                          "match_id": 1, "hand": 1, "key": "h:1:1:p_live", "created_at": now},
                         {"player_id": coins.HOUSE, "delta": 30, "balance": 30, "reason": "hand", "match_id": 1, "hand": 1,
                          "key": f"h:1:1:{coins.HOUSE}", "created_at": now}])]]
    pairs = [("events", "actions"), ("scores", "coin_ledger")]
    for k, (pair, rows) in enumerate(zip(pairs, commits, strict=True)):
        writer = db.make_engine(url)
        reader = db.make_engine(url)
        seen: list[str] = []

        def between(conn: Any, cursor: Any, statement: str, *args: Any,
                    pair: tuple[str, ...] = pair, rows: Any = rows, writer: Any = writer,
                    seen: list[str] = seen) -> None:
            hit = [t for t in pair if re.search(rf"\b{t}\b", statement)]
            if not hit:
                return
            seen.append(hit[0])
            if len(seen) == 2 and rows:  # the first of the pair read: now the commit lands
                with writer.begin() as w:
                    for table, batch in rows:
                        w.execute(table.insert(), batch)
                rows.clear()

        event.listen(reader, "before_cursor_execute", between)
        try:
            assert audit(reader) == [], k
        finally:
            reader.dispose()
            writer.dispose()
        assert set(seen) >= set(pair), (k, seen)  # both reads happened, the commit between
    assert audit(eng) == []  # and the whole database, read afterwards, is sound
    eng.dispose()
