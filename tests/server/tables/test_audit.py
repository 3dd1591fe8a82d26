"""``laizi check --db URL`` (laizi.server.tables.audit): on a database written by the server's own
store it finds nothing; each kind of damage it is meant to see gives one line and exit 1;
bad input is one line and exit 2."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

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
