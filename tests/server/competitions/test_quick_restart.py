"""A coin table survives a kill -9: a 初级场 quick-match table (one player in 托管, three bots)
is killed after its first settled hand, the server restarts on the same database, the match
resumes and finishes — and every hand is settled in coins exactly once, equal to its scores ×
stake, zero-sum with the house, each balance the sum of its ledger."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from laizi.server.ledger import coins
from laizi.server.persistence import db
from laizi.server.persistence.socialdb import CoinLedgerRow
from support.socialkit import call, register
from support.srvhelpers import Client, LiveServer, eventually

CFG: dict[str, Any] = {"bot_delay": 0.0, "hand_pause": 0.0, "disconnect_grace": 0.5}


def _rows(url: str, mid: int) -> list[Any]:
    eng = db.make_engine(url)
    try:
        with eng.connect() as conn:
            return list(conn.execute(select(CoinLedgerRow).where(CoinLedgerRow.match_id == mid)).all())
    finally:
        eng.dispose()


def _match_status(url: str, mid: int) -> str | None:
    eng = db.make_engine(url)
    try:
        with eng.connect() as conn:
            return conn.execute(select(db.MatchRow.status).where(db.MatchRow.id == mid)).scalar()
    finally:
        eng.dispose()


@pytest.mark.slow
def test_coin_table_kill_restart_settles_each_hand_once(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAIZI_QUICK_WAIT", "0.3")
    monkeypatch.setenv("LAIZI_QUICK_HANDS", "6")
    url = str(tmp_path / "live.db")
    srv = LiveServer(url, tmp_path, **CFG).start()
    try:
        tok, pid = register(srv, "restarter")
        call(srv, "GET", "/api/coins", tok)
        c = Client(srv.port, token=tok)
        assert call(srv, "POST", "/api/quick", tok, {"level": "junior"})[0] == 200
        q = c.until("quick_match", 10)
        code, seat = q["room"], q["seat"]
        c.close()  # never joins: its seat is played by 托管 after the grace
        mid = srv.get(f"/api/rooms/{code}", tok)[1]["match_id"]
        end = time.monotonic() + 60
        while not _rows(url, mid):
            assert time.monotonic() < end, "no hand settled"
            time.sleep(0.02)
        srv.kill()
        settled_before = {r.hand for r in _rows(url, mid)}
        srv = LiveServer(url, tmp_path, port=srv.port, **CFG).start()
        end = time.monotonic() + 120
        while srv.get(f"/api/rooms/{code}", tok)[1]["status"] != "finished":
            assert time.monotonic() < end, "the resumed match did not finish"
            time.sleep(0.2)
        # The room says "finished" a moment before the last hand is stored (the room's status
        # changes, then its progress is written): wait for the match row's own "finished",
        # written in one transaction with the last hand and its coins — not a 0.3 s guess,
        # after which a busy server could still be writing them (the rows, the hands and the
        # balance read below would then disagree).
        eventually(lambda: _match_status(url, mid) == "finished", 30, "the match stored finished")
        rows = _rows(url, mid)
        eng = db.make_engine(url)
        with eng.connect() as conn:
            ends = {h: r["deltas"] for h, r in conn.execute(
                select(db.HandRow.number, db.HandRow.result).where(db.HandRow.match_id == mid)).all() if r}
            keys = conn.execute(select(CoinLedgerRow.key, func.count()).group_by(CoinLedgerRow.key)
                                .having(func.count() > 1)).all()
        eng.dispose()
        assert keys == []  # unique keys: nothing applied twice
        assert len(ends) > len(settled_before)  # hands were played (and settled) after the restart
        mine = {r.hand: r for r in rows if r.player_id == pid}
        balance = coins.WELCOME_COINS  # the player's balance after each hand
        for h, deltas in sorted(ends.items()):
            hand_rows = [r for r in rows if r.hand == h]
            assert sum(r.delta for r in hand_rows) == 0
            want = round(deltas[seat] * coins.LEVELS["junior"].stake)
            got = mine[h].delta if h in mine else 0  # nothing to take once the balance is 0
            if h in mine:
                balance = mine[h].balance
            assert got == want or (want < 0 and balance == 0), (h, got, want, balance)
        st, me = call(srv, "GET", "/api/coins", tok)
        assert st == 200
        assert me["balance"] == coins.WELCOME_COINS + sum(r.delta for r in mine.values())
        assert me["ledger"][0]["balance"] == me["balance"]
    finally:
        srv.stop()
