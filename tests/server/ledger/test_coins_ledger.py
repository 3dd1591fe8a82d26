"""Coins (游戏币): the split of a hand among players who may not hold enough, the ledger
(idempotent, a balance is the sum of its entries), the welcome grant and the daily top-up —
on a real SQLite database — and over a live server: welcome, daily once, guests refused."""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from laizi.server.ledger import coins
from laizi.server.persistence import db
from laizi.server.persistence.socialdb import CoinLedgerRow
from support.socialkit import call, guest, register
from support.srvhelpers import LiveServer


def test_split_zero_sum_caps_and_shares() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        winner = rng.randrange(4)
        owed = [0] * 4
        for s in range(4):
            if s != winner:
                owed[s] = -rng.randrange(0, 5000)
        owed[winner] = -sum(owed)
        caps = [None if rng.random() < 0.3 else rng.randrange(0, 6000) for _ in range(4)]
        got = coins.split(owed, caps)
        assert sum(got) == 0
        for s in range(4):
            if owed[s] < 0:
                assert got[s] <= 0 and -got[s] <= -owed[s]
                if caps[s] is not None:
                    assert -got[s] <= caps[s]  # never below zero (扣尽 at most)
                else:
                    assert got[s] == owed[s]
            elif owed[s] > 0:
                assert 0 <= got[s] <= owed[s]
    # a loser who holds 300 of the 1000 it owes: the winner gets what was paid
    assert coins.split([-1000, 1000, 0, 0], [300, 0, 0, 0]) == [-300, 300, 0, 0]
    # two winners share in proportion (escape: the others split the penalty)
    assert coins.split([-900, 300, 300, 300], [600, None, None, None]) == [-600, 200, 200, 200]
    with pytest.raises(ValueError):
        coins.split([-1, 0, 0, 0], [None] * 4)


@pytest.fixture
def engine(db_url: str):  # type: ignore[no-untyped-def]
    """A migrated database: a SQLite file, or the private PostgreSQL cluster (:func:`db_url`)."""
    eng = db.make_engine(db_url)
    db.migrate(eng)
    yield eng
    eng.dispose()


def test_ledger_idempotent_daily_once_per_day(engine) -> None:  # type: ignore[no-untyped-def]
    eng = engine
    day = date(2026, 11, 30)
    with eng.begin() as conn:
        assert coins.grant_welcome(conn, "p_a")
        assert not coins.grant_welcome(conn, "p_a")           # once per account
        assert coins.claim_daily(conn, "p_a", day)
        assert not coins.claim_daily(conn, "p_a", day)        # once per day
        assert coins.claim_daily(conn, "p_a", day + timedelta(days=1))  # the next day again
        assert coins.balances(conn, ["p_a"])["p_a"] == coins.WELCOME_COINS + 2 * coins.DAILY_COINS
        # a hand settled twice (a retried write) is applied once
        coins.grant_welcome(conn, "p_b")
        first = coins.settle(conn, [-8, 8, 0, 0], ["p_a", "p_b", None, None], 10,
                             reason="hand", match_id=1, hand=1, key="h:1:1")
        assert first == [-80, 80, 0, 0]
        coins.settle(conn, [-8, 8, 0, 0], ["p_a", "p_b", None, None], 10,
                     reason="hand", match_id=1, hand=1, key="h:1:1")
        bal = coins.balances(conn, ["p_a", "p_b"])
        assert bal["p_b"] == coins.WELCOME_COINS + 80
        # bots settle with the house; rounding goes to the house too
        got = coins.settle(conn, [-400, 400 / 3, 400 / 3, 400 / 3], ["p_b", "p_a", None, None], 10,
                           reason="escape", match_id=1, hand=1, key="e:1:0")
        assert got[0] == -4000 and got[1] == 1333
        rows = conn.execute(select(CoinLedgerRow.player_id, CoinLedgerRow.delta)
                            .where(CoinLedgerRow.key.like("e:1:0:%"))).all()
        assert sum(d for _, d in rows) == 0
        assert {p for p, _ in rows} == {"p_b", "p_a", coins.HOUSE}
        # a balance is the sum of its ledger, and each entry holds the balance after it
        for pid in ("p_a", "p_b", coins.HOUSE):
            entries = coins.ledger(conn, pid, 100)
            total = conn.execute(select(func.sum(CoinLedgerRow.delta))
                                 .where(CoinLedgerRow.player_id == pid)).scalar()
            assert entries[0]["balance"] == total == coins.balances(conn, [pid])[pid]
            running = 0
            for e in reversed(entries):
                running += e["delta"]
                assert e["balance"] == running


def test_broke_loser_pays_down_to_zero(engine) -> None:  # type: ignore[no-untyped-def]
    eng = engine
    with eng.begin() as conn:
        coins.post(conn, [{"player_id": "p_poor", "delta": 250, "reason": "daily", "key": "t:1"}])
        coins.grant_welcome(conn, "p_rich")
        got = coins.settle(conn, [-100, 100, 0, 0], ["p_poor", "p_rich", None, None], 10,
                           reason="hand", match_id=2, hand=1, key="h:2:1")
        assert got == [-250, 250, 0, 0]
        assert coins.balances(conn, ["p_poor"])["p_poor"] == 0


def test_a_settlement_where_nothing_moves_is_still_recorded(engine) -> None:  # type: ignore[no-untyped-def]
    """A loser at 0 coins against bots: points were owed, no coin moves — the house's zero
    entry says the hand was settled (so `laizi check` does not report a missed settlement)."""
    with engine.begin() as conn:
        coins.post(conn, [{"player_id": "p_zero", "delta": 0, "reason": "daily", "key": "t:0"}])
        got = coins.settle(conn, [-60, 20, 20, 20], ["p_zero", None, None, None], 10,
                           reason="hand", match_id=3, hand=2, key="h:3:2")
        assert got == [0, 0, 0, 0]
        rows = conn.execute(select(CoinLedgerRow.player_id, CoinLedgerRow.delta, CoinLedgerRow.key)
                            .where(CoinLedgerRow.match_id == 3)).all()
        assert [tuple(r) for r in rows] == [(coins.HOUSE, 0, f"h:3:2:{coins.HOUSE}")]
        # a drawn hand owes nothing: nothing is written
        coins.settle(conn, [0, 0, 0, 0], ["p_zero", None, None, None], 10,
                     reason="hand", match_id=3, hand=3, key="h:3:3")
        assert conn.execute(select(func.count()).select_from(CoinLedgerRow)
                            .where(CoinLedgerRow.hand == 3)).scalar() == 0


def test_coins_api_welcome_daily_guest(tmp_path: Path) -> None:
    srv = LiveServer(str(tmp_path / "live.db"), tmp_path, bot_delay=0.0).start()
    try:
        tok, pid = register(srv, "coinfan")
        st, me = call(srv, "GET", "/api/coins", tok)
        assert st == 200, me
        assert me["balance"] == coins.WELCOME_COINS and me["registered"]
        assert [e["reason"] for e in me["ledger"]] == ["welcome"]
        assert not me["daily"]["claimed"]
        st, out = call(srv, "POST", "/api/coins/daily", tok)
        assert st == 200 and out["balance"] == coins.WELCOME_COINS + coins.DAILY_COINS
        st, out = call(srv, "POST", "/api/coins/daily", tok)
        assert st == 409 and "claimed already" in out["error"]
        st, me = call(srv, "GET", "/api/coins", tok)
        assert me["daily"]["claimed"] and me["balance"] == coins.WELCOME_COINS + coins.DAILY_COINS
        assert me["ledger"][0]["balance"] == me["balance"]
        opened = {lv["name"]: lv["open"] for lv in me["levels"]}
        assert opened == {"novice": True, "junior": True, "senior": False}
        # the profile shows the balance
        st, prof = srv.get(f"/api/players/{pid}")
        assert st == 200 and prof["coins"]["balance"] == me["balance"]
        # guests: no coins, no top-up; no token: 401
        gtok, _ = guest(srv)
        st, g = call(srv, "GET", "/api/coins", gtok)
        assert st == 200 and g["balance"] == 0 and not g["registered"] and g["ledger"] == []
        st, out = call(srv, "POST", "/api/coins/daily", gtok)
        assert st == 403
        st, out = call(srv, "GET", "/api/coins")
        assert st == 401 and out["error"]
        st, out = call(srv, "GET", "/api/coins?limit=abc", tok)
        assert st == 400 and "limit" in out["error"]
        st, lv = srv.get("/api/levels")
        assert st == 200 and [x["name"] for x in lv["levels"]] == ["novice", "junior", "senior"]
    finally:
        srv.stop()
