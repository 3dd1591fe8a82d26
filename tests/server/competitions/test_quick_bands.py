"""Quick match by rank band (段位) and its per-queue waiting counts: a line per 场次 × rule set ×
band; a due line takes the longest waiting of the neighbouring bands (never two bands away);
``GET /api/levels`` counts every 场次 × rule set queue. The lines' ``take`` on the real
in-memory lines and on a private Redis (the lines a cluster shares), and a live server."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from laizi.server.accounts.ranks import RANKS, band_of, rank_of
from laizi.server.cluster.lines import RedisLines
from laizi.server.competitions.quickmatch import line_of, near_lines, parse_line
from laizi.server.persistence import db
from laizi.server.tables.lines import LocalLines
from support.socialkit import call, guest
from support.srvhelpers import Client, LiveServer

WAIT = 3.0


def test_bands_and_line_names() -> None:
    assert [band_of(r) for r in RANKS] == [0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3]
    assert band_of(rank_of(None)) == 0 and band_of(rank_of(30.0)) == 3
    assert parse_line(line_of("junior", "jiayu", 2)) == ("junior", "jiayu", 2)
    assert near_lines("novice:kaikoufan:0") == ["novice:kaikoufan:1"]
    assert near_lines("novice:kaikoufan:2") == ["novice:kaikoufan:1", "novice:kaikoufan:3"]
    assert near_lines("novice:kaikoufan:3") == ["novice:kaikoufan:2"]


def entry(pid: str, since: float) -> dict[str, Any]:
    return {"pid": pid, "nick": pid, "since": since, "node": "n1"}


async def take_rules(lines: Any) -> None:
    a, b, c = "novice:kaikoufan:1", "novice:kaikoufan:0", "novice:kaikoufan:2"
    await lines.add(a, entry("a1", 100.0))
    for pid, since in (("b1", 60.0), ("b2", 150.0)):
        await lines.add(b, entry(pid, since))
    for pid, since in (("c1", 50.0), ("c2", 70.0), ("c3", 80.0)):
        await lines.add(c, entry(pid, since))
    # not due: nothing, though the near lines hold enough for a table
    assert await lines.take(a, 4, 99.0, [b, c]) == []
    assert (await lines.peek(a))[0] == 1
    # due: its own entry first, then the longest waiting of the near lines
    got = await lines.take(a, 4, 100.0, [b, c])
    assert [e["pid"] for e in got] == ["a1", "c1", "b1", "c2"]
    assert await lines.sizes() == {b: 1, c: 1}
    for pid in ("a1", "c1", "b1", "c2"):
        assert await lines.find(pid) is None
    assert (await lines.find("c3"))["line"] == c and (await lines.find("b2"))["line"] == b
    # four in a line: a table of them alone, the near lines untouched (even when due)
    for i in range(5):
        await lines.add(a, entry(f"a{i + 2}", 200.0 + i))
    got = await lines.take(a, 4, 1e12, [b, c])
    assert [e["pid"] for e in got] == ["a2", "a3", "a4", "a5"]
    assert await lines.sizes() == {a: 1, b: 1, c: 1}
    # due and alone in the band, nobody near: only itself
    assert [e["pid"] for e in await lines.take(a, 4, 1e12, ["novice:kaikoufan:9"])] == ["a6"]


def test_take_with_the_near_bands_in_memory() -> None:
    asyncio.run(take_rules(LocalLines(lambda pid, msg: 0)))


def test_take_with_the_near_bands_in_redis(redis_url: str) -> None:
    from redis.asyncio import Redis

    async def run() -> None:
        r = Redis.from_url(redis_url)
        try:
            await take_rules(RedisLines(r, "n1", lambda pid, msg: 0, lambda node, msg: None))
        finally:
            await r.aclose()

    asyncio.run(run())


@pytest.fixture
def srv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("LAIZI_QUICK_WAIT", str(WAIT))
    monkeypatch.setenv("LAIZI_QUICK_HANDS", "1")
    s = LiveServer(str(tmp_path / "live.db"), tmp_path, bot_delay=0.0, hand_pause=0.0,
                   disconnect_grace=60.0).start()
    yield s
    s.stop()


def rate(url: str, pid: str, ordinal: float) -> None:
    """Give ``pid`` a rating of ``ordinal`` (as rated matches would)."""
    eng = db.make_engine(url)
    try:
        with eng.begin() as conn:
            conn.execute(db.RatingRow.__table__.insert().values(
                player_id=pid, mu=ordinal + 3.0, sigma=1.0, ordinal=ordinal, matches=10))
    finally:
        eng.dispose()


@pytest.mark.slow
def test_bands_wait_apart_and_neighbours_join_when_due(srv: LiveServer) -> None:
    """新手 (band 0), 雀士一 (band 1) and 雀豪 (band 3) wait at 新手场: each in its band's line
    (the queue counts add them up); when the 新手's wait is up it takes the 雀士 (the next
    band) to its table; the 雀豪, two bands from both, gets a table of its own."""
    (ta, _), (tb, pb), (tc, pc) = guest(srv, "新手"), guest(srv, "雀士"), guest(srv, "雀豪")
    rate(srv.db_url, pb, 6.0)
    rate(srv.db_url, pc, 25.0)
    ca, cb, cc = (Client(srv.port, token=t) for t in (ta, tb, tc))
    try:
        t0 = time.monotonic()
        for tok, band in ((ta, 0), (tb, 1), (tc, 3)):
            st, out = call(srv, "POST", "/api/quick", tok, {"level": "novice"})
            assert st == 200 and out["status"] == "waiting" and out["band"] == band, out
            assert out["waiting"] == 1, out  # its own band's line
        levels = {lv["name"]: lv for lv in srv.get("/api/levels")[1]["levels"]}
        if time.monotonic() - t0 < WAIT - 0.5:  # nobody seated yet: all three counted
            assert levels["novice"]["waiting"] == 3
            assert levels["novice"]["queues"]["kaikoufan"] == 3
            assert levels["novice"]["queues"]["jiayu"] == 0 and levels["junior"]["waiting"] == 0
        qa, qb, qc = ca.until("quick_match", 30), cb.until("quick_match", 30), cc.until("quick_match", 30)
        assert qa["room"] == qb["room"] != qc["room"], (qa, qb, qc)
        assert qa["seat"] != qb["seat"]
        assert time.monotonic() - t0 >= WAIT - 0.5  # not before the wait
        info = srv.get(f"/api/rooms/{qc['room']}", tc)[1]
        assert sum(1 for s in info["seats"] if s["bot"]) == 3
        levels = {lv["name"]: lv for lv in srv.get("/api/levels")[1]["levels"]}
        assert levels["novice"]["waiting"] == 0 and levels["novice"]["queues"]["kaikoufan"] == 0
    finally:
        for c in (ca, cb, cc):
            c.close()


@pytest.mark.slow
def test_queue_counts_per_rule_set(srv: LiveServer) -> None:
    """Two guests waiting at 新手场 in two rule sets: each queue counts its own."""
    (ta, _), (tb, _) = guest(srv, "甲"), guest(srv, "乙")
    ca, cb = Client(srv.port, token=ta), Client(srv.port, token=tb)
    try:
        t0 = time.monotonic()
        assert call(srv, "POST", "/api/quick", ta, {"level": "novice", "preset": "jiayu"})[0] == 200
        assert call(srv, "POST", "/api/quick", tb, {"level": "novice", "preset": "koukoufan"})[0] == 200
        novice = srv.get("/api/levels")[1]["levels"][0]
        if time.monotonic() - t0 < WAIT - 0.5:
            assert novice["queues"]["jiayu"] == novice["queues"]["koukoufan"] == 1, novice
            assert novice["queues"]["kaikoufan"] == 0 and novice["waiting"] == 2
        ca.until("quick_match", 30)
        cb.until("quick_match", 30)
    finally:
        ca.close()
        cb.close()
