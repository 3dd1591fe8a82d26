"""One balance per player, cluster-wide (issue: quick-match queues are per node, so one
player sat at a coin table on each node; two escapes at once left balances at -3,000 and
the ledger's balance column disagreed with its sum). Two real nodes on a private PostgreSQL
and Redis: a player asking both nodes for a coin table at the same moment gets one; the
other node refuses (409) while it is held. On PostgreSQL itself: settlements for one player
from many connections at once never take the balance below zero and keep every ledger
row's balance equal to the running sum. ``laizi check`` is clean after both."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from sqlalchemy import select

from laizi.server.ledger import coins
from laizi.server.persistence import db
from laizi.server.tables.audit import check_url
from support.socialkit import call as scall
from support.srvhelpers import Client, eventually

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


def test_one_coin_seat_across_two_nodes(make_nodes: Any, pg_url: str,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAIZI_QUICK_WAIT", "0")
    monkeypatch.setenv("LAIZI_QUICK_HANDS", "1")
    na, nb = make_nodes(["na", "nb"])
    for attempt in range(3):
        st, reg = scall(na, "POST", "/api/account/register", None,
                        {"username": f"twoseats{attempt}", "password": "tile-wall-42"})
        assert st == 200, reg
        tok, pid = reg["token"], reg["player_id"]
        assert scall(na, "GET", "/api/coins", tok)[1]["balance"] == coins.WELCOME_COINS
        ca, cb = Client(na.port, token=tok), Client(nb.port, token=tok)  # online on both
        out: dict[str, Any] = {}
        go = threading.Barrier(2)

        def ask(node: Any, key: str, tok: str, out: dict[str, Any], go: threading.Barrier) -> None:
            go.wait()
            out[key] = scall(node, "POST", "/api/quick", tok, {"level": "junior"})

        ts = [threading.Thread(target=ask, args=(n, k, tok, out, go))
              for n, k in ((na, "a"), (nb, "b"))]
        for t in ts:
            t.start()
        for t in ts:
            t.join(30)
        eng = db.make_engine(pg_url)
        try:
            held = eventually(lambda eng=eng, pid=pid: _seats(eng, pid), 20, "the coin seat")
            time.sleep(0.5)  # the loser's node has answered by now; nothing more may appear
            assert len(_seats(eng, pid)) == 1, _seats(eng, pid)
            code = held[0]
            # while it is held, neither node seats the player anywhere else
            for node in (na, nb):
                st, res = scall(node, "POST", "/api/quick", tok, {"level": "junior"})
                assert st == 409 and code in res["error"], (st, res)
            statuses = sorted(v[0] for v in out.values())
            assert statuses[0] == 200, out
        finally:
            eng.dispose()
        ca.close()
        cb.close()
    assert check_url(pg_url) == []


def _seats(eng: Any, pid: str) -> list[str]:
    with eng.connect() as conn:
        return [r[0] for r in conn.execute(select(coins.SEATS.c.room_code)
                                           .where(coins.SEATS.c.player_id == pid)).all()]


def test_concurrent_settlements_never_go_below_zero(pg_url: str) -> None:
    eng = db.make_engine(pg_url)
    db.migrate(eng)
    pid = "p_racer"
    with eng.begin() as conn:
        coins.post(conn, [{"player_id": pid, "delta": 5000, "reason": "welcome",
                           "key": f"welcome:{pid}"}])
    errors: list[BaseException] = []
    go = threading.Barrier(8)

    def escape(i: int) -> None:
        try:
            go.wait()
            with eng.begin() as conn:  # its own connection and transaction, like another node
                coins.settle(conn, [-300, 100, 100, 100], [pid, None, None, None], 10,
                             reason="escape", match_id=1000 + i, hand=1, key=f"e:{1000 + i}:0")
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    ts = [threading.Thread(target=escape, args=(i,)) for i in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(60)
    assert not errors, errors
    with eng.connect() as conn:
        rows = conn.execute(select(coins.LEDGER.c.delta, coins.LEDGER.c.balance)
                            .where(coins.LEDGER.c.player_id == pid)
                            .order_by(coins.LEDGER.c.id)).all()
        assert coins.balances(conn, [pid])[pid] == 0  # 5,000 paid out, 扣尽, never below
    running = 0
    for delta, balance in rows:
        running += delta
        assert balance == running and balance >= 0, rows
    eng.dispose()
    assert check_url(pg_url) == []
