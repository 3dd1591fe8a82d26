"""再来一局, stored: three matches in one room (two rematches) at a coin table, the server
killed (SIGKILL) during the third and restarted on the same database. Every match's journal,
events and hands are stored, the room resumes mid-hand, the replays answer 200, every hand
settled in coins, and ``laizi check`` finds nothing. Real ``laizi serve`` subprocesses,
real WebSockets, SQLite and (when the machine has it) a private PostgreSQL.

Before the fix the recorder's counters were never reset for a rematch: the first N rows of
the next match (N = the previous match's length) were never written."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from laizi.server.ledger import coins
from laizi.server.persistence import db
from laizi.server.tables.audit import check_url
from support.socialkit import call, register
from support.srvhelpers import Client, LiveServer, eventually, step

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


def counts(url: str, mid: int) -> dict[str, Any]:
    eng = db.make_engine(url)
    try:
        with eng.connect() as conn:
            def n(row: Any) -> int:
                return int(conn.execute(select(func.count()).select_from(row)
                                        .where(row.c.match_id == mid)).scalar() or 0)
            hands = conn.execute(select(db.HandRow.number, db.HandRow.result)
                                 .where(db.HandRow.match_id == mid)).all()
            status = conn.execute(select(db.MatchRow.status).where(db.MatchRow.id == mid)).scalar()
            keys = {r[0]: int(r[1]) for r in conn.execute(
                select(coins.LEDGER.c.key, coins.LEDGER.c.delta)
                .where(coins.LEDGER.c.match_id == mid)).all()}
            return {"actions": n(db.ActionRow.__table__), "events": n(db.EventRow.__table__),
                    "hands": {h: res for h, res in hands}, "status": status, "keys": keys}
    finally:
        eng.dispose()


def finish(c: Client, timeout: float = 120.0) -> int:
    """Play (the human's legal moves, 继续) until the match is over; its match id."""
    end = time.monotonic() + timeout
    while step([c]):
        assert time.monotonic() < end, "the match did not finish"
    assert c.last is not None
    return int(c.last["match_id"])


def top_up(url: str, pid: str, n: int) -> None:
    """Enough coins for the next match (a hand can cost 3,000 at 初级场): a ledger entry
    like the daily top-up's, so balances and the ledger stay in step."""
    eng = db.make_engine(url)
    try:
        with eng.begin() as conn:
            coins.post(conn, [{"player_id": pid, "delta": 5000, "reason": "daily",
                               "key": f"test:{pid}:{n}"}])
    finally:
        eng.dispose()


def rematch(c: Client, before: int) -> int:
    c.send({"type": "rematch"})
    snap = c.until(lambda m: m["type"] == "error" or (
        m["type"] == "snapshot" and m["match_id"] != before), 30)
    assert snap["type"] == "snapshot", snap
    assert snap["view"]["hand_no"] == 1 and not snap["view"]["match_over"]
    return int(snap["match_id"])


def three_matches_and_a_kill(srv: LiveServer, tmp: Path) -> None:
    tok, pid = register(srv, "rematcher")
    assert call(srv, "GET", "/api/coins", tok)[1]["balance"] == coins.WELCOME_COINS
    c = Client(srv.port, token=tok)
    st, out = call(srv, "POST", "/api/quick", tok, {"level": "junior"})
    assert st == 200, out
    q = c.until("quick_match", 20)
    code = q["room"]
    c.request({"type": "join", "room": code}, "joined")
    first = int(c.until("snapshot")["match_id"])
    assert finish(c) == first
    # the host's force is refused at a quick-match table: every player accepts
    assert c.request({"type": "rematch", "force": True}, "never")["code"] == "not_host"
    top_up(srv.db_url, pid, 1)
    second = rematch(c, first)
    assert finish(c) == second
    top_up(srv.db_url, pid, 2)
    third = rematch(c, second)
    # a few moves of the third match, then kill -9 in the middle of a hand
    end = time.monotonic() + 60
    while (c.last or {}).get("v", 0) < 8:
        assert time.monotonic() < end
        step([c])
    assert not c.last["view"].get("match_over")  # type: ignore[index]
    before = counts(srv.db_url, third)
    assert before["actions"] > 0 and before["events"] > 0, before  # the rematch is being stored
    srv.kill()
    c.close()
    srv.start()
    c = Client(srv.port, token=tok)
    snap = c.request({"type": "join", "room": code}, "snapshot")
    assert snap["match_id"] == third
    # the server remembers the player's last seq across the restart: a client goes on from it
    # (from 1, every move was refused as stale, the seat lapsed twice into 托管 on the turn
    # timer, 2 × 20 s, and the match ended without the player)
    c.seq = int(snap["last_seq"])
    resumed = len(c.frames)
    assert snap["view"]["phase"] != "over" and not snap["view"]["match_over"]  # mid-hand
    assert counts(srv.db_url, third)["actions"] >= before["actions"]  # nothing acknowledged lost
    assert finish(c) == third
    # the player played the resumed match: no move refused, its seat never put in 托管
    after = c.frames[resumed:]
    assert not [m for m in after if m["type"] == "error"], [m for m in after if m["type"] == "error"]
    assert not any(e.get("type") == "auto" and e.get("seat") == 0 and e.get("on")
                   for m in after for e in m.get("events") or []), "seat 0 went into 托管"
    # everything stored; every hand settled; the replays answer
    for mid in (first, second, third):
        got = eventually(lambda mid=mid: (lambda x: x if x["status"] == "finished" else None)(
            counts(srv.db_url, mid)), 30, f"match {mid} finished in the database")
        assert got["actions"] > 0 and got["events"] > 0, (mid, got)
        assert got["hands"] and all(r is not None for r in got["hands"].values()), (mid, got)
        for h, res in got["hands"].items():
            if any(round(float(d) * 10) for d in res["deltas"]):
                # settled: the player's entry, or (the losers held no coins: nothing moved)
                # the house's zero entry alone
                mine, house = f"h:{mid}:{h}:{pid}", f"h:{mid}:{h}:{coins.HOUSE}"
                assert mine in got["keys"] or got["keys"].get(house) == 0, (mid, h, got["keys"])
        # (built off the event loop; a CI run on a machine loaded ten times over its cores
        # took more than the default 10 s)
        st, body = srv.get(f"/api/matches/{mid}/replay", timeout=90)
        assert st == 200 and body["match_id"] == mid and body["hands"], (mid, st)
    assert check_url(srv.db_url) == []
    res = subprocess.run([sys.executable, "-m", "laizi", "check", "--db", srv.db_url],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and "OK" in res.stdout, res.stdout + res.stderr
    # the coin seat was let go when the third match ended: quick match takes the player again
    eng = db.make_engine(srv.db_url)
    with eng.connect() as conn:
        assert coins.seat_of(conn, pid) is None
    eng.dispose()
    c.close()


def _server(url: str, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> LiveServer:
    monkeypatch.setenv("LAIZI_QUICK_WAIT", "0")
    monkeypatch.setenv("LAIZI_QUICK_HANDS", "2")
    return LiveServer(url, tmp, bot_delay=0.0, hand_pause=0.0, disconnect_grace=60.0,
                      )


def test_three_matches_in_one_room_survive_a_kill(tmp_path: Path, db_url: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    srv = _server(db_url, tmp_path, monkeypatch).start()
    try:
        three_matches_and_a_kill(srv, tmp_path)
    finally:
        srv.stop()
