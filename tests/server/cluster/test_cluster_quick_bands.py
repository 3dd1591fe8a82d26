"""Quick match by rank band across two nodes (the Redis lines): ``GET /api/levels`` on either node
counts every 场次 × rule set queue of the cluster; a 新手 waiting on one node and a 雀士 (the
next band) on the other are seated together once the wait is up, while a 雀豪 (two bands
away) waiting meanwhile gets a table of its own. Two real nodes on a private PostgreSQL and
Redis."""

from __future__ import annotations

import time
from typing import Any

import pytest

from laizi.server.persistence import db
from support.clusterplay import ARGS
from support.socialkit import call as scall
from support.srvhelpers import Client

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

WAIT = 3.0


def _guest(node: Any, name: str) -> tuple[str, str]:
    st, out = scall(node, "POST", "/api/guest", None, {"nickname": name})
    assert st == 200, out
    return out["token"], out["player_id"]


def _rate(pg_url: str, pid: str, ordinal: float) -> None:
    eng = db.make_engine(pg_url)
    try:
        with eng.begin() as conn:
            conn.execute(db.RatingRow.__table__.insert().values(
                player_id=pid, mu=ordinal + 3.0, sigma=1.0, ordinal=ordinal, matches=10))
    finally:
        eng.dispose()


def _until_tier(node: Any, pid: str, index: int, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    st, out = 0, None
    while time.monotonic() < end:
        st, out = scall(node, "GET", f"/api/players/{pid}", None)
        if st == 200 and out["tier"]["index"] == index:
            return
        time.sleep(0.1)
    raise AssertionError(f"{node.name} never showed {pid} at rank {index}: {st} {out}")


def test_bands_and_counts_across_nodes(make_nodes: Any, pg_url: str, redis_url: str,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAIZI_QUICK_WAIT", str(WAIT))
    monkeypatch.setenv("LAIZI_QUICK_HANDS", "1")
    na, nb = make_nodes(["na", "nb"], ARGS)
    (ta, _), (tb, pb), (tc, pc), (td, _) = (_guest(na, "新手"), _guest(nb, "雀士"),
                                            _guest(nb, "雀豪"), _guest(na, "另一"))
    _rate(pg_url, pb, 6.0)
    _rate(pg_url, pc, 25.0)
    for pid, tier in ((pb, 1), (pc, 7)):  # the node reads the rank the test wrote (雀士一, 雀豪一)
        _until_tier(nb, pid, tier)
    ca, cb, cc, cd = (Client(n.port, token=t) for n, t in ((na, ta), (nb, tb), (nb, tc), (na, td)))
    try:
        t0 = time.monotonic()
        st, out = scall(na, "POST", "/api/quick", td, {"level": "novice", "preset": "jiayu"})
        assert st == 200 and out["status"] == "waiting", out
        for node, tok, band in ((na, ta, 0), (nb, tb, 1), (nb, tc, 3)):
            st, out = scall(node, "POST", "/api/quick", tok, {"level": "novice"})
            assert st == 200 and out["status"] == "waiting" and out["band"] == band, \
                (out, scall(node, "GET", "/api/levels", None)[1], node.log_text()[-3000:])
        counts = [scall(node, "GET", "/api/levels", None)[1]["levels"][0] for node in (na, nb)]
        if time.monotonic() - t0 < WAIT - 0.5:  # nobody seated yet: the cluster's queues, on either node
            for novice in counts:
                assert {k: v for k, v in novice["queues"].items() if v} == {"jiayu": 1, "kaikoufan": 3}
                assert novice["waiting"] == 4
        qa, qb, qc = ca.until("quick_match", 30), cb.until("quick_match", 30), cc.until("quick_match", 30)
        assert qa["room"] == qb["room"] != qc["room"], (qa, qb, qc)
        qd = cd.until("quick_match", 30)
        assert qd["preset"] == "jiayu" and qd["room"] not in (qa["room"], qc["room"])
        for node in (na, nb):
            novice = scall(node, "GET", "/api/levels", None)[1]["levels"][0]
            assert novice["waiting"] == 0 and not any(novice["queues"].values()), novice
    finally:
        for c in (ca, cb, cc, cd):
            c.close()
    for n in (na, nb):
        assert "Traceback" not in n.log_text()
