"""Private rooms cannot be found by asking (issue: anonymous ``GET /api/rooms/{code}`` had no
rate limit — 284 probes/s — and gave the host and seats; ``POST /api/invites`` was a second
oracle). A real ``laizi serve`` with its per-address limits on: a private room answers its
members only (anyone else: the same 404 as an unknown code), and looking rooms up counts
against the join limit (``JOINS_PER_IP`` = 120 a minute, as joining does)."""

from __future__ import annotations

from pathlib import Path

import pytest

from laizi.server.guard.limits import JOINS_PER_IP
from support.srvhelpers import Client, LiveServer

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]


def test_private_room_info_is_for_members_and_lookups_are_limited(tmp_path: Path) -> None:
    srv = LiveServer(str(tmp_path / "p.db"), tmp_path, rate_limited=True, bot_delay=0.0).start()
    try:
        host = Client(srv.port, "房主")
        host.send({"type": "create", "settings": {"private": True}})
        code = host.until("joined")["room"]["code"]
        public = Client(srv.port, "公开")
        public.send({"type": "create", "settings": {}})
        open_code = public.until("joined")["room"]["code"]
        stranger = Client(srv.port, "路人")
        st, body = srv.get(f"/api/rooms/{code}")
        st2, unknown = srv.get("/api/rooms/ZZZZZ")
        assert st == st2 == 404 and body["error"] == unknown["error"] == "unknown room"
        assert "seats" not in body
        assert srv.get(f"/api/rooms/{code}", stranger.token)[0] == 404
        st, info = srv.get(f"/api/rooms/{code}", host.token)
        assert st == 200 and info["private"] and info["seats"]
        assert srv.get(f"/api/rooms/{open_code}")[0] == 200  # a public room: anyone
        # one who joins with the code becomes a member and may look
        stranger.request({"type": "join", "room": code}, "joined")
        assert srv.get(f"/api/rooms/{code}", stranger.token)[0] == 200
        # probing codes: 120 a minute from one address, then 429
        statuses = [srv.get(f"/api/rooms/Q{i:04d}")[0] for i in range(JOINS_PER_IP.count + 5)]
        assert 429 in statuses
        assert statuses.index(429) <= JOINS_PER_IP.count, statuses.index(429)
        assert set(statuses[:statuses.index(429)]) == {404}
        for c in (host, public, stranger):
            c.close()
    finally:
        srv.stop()


def test_score_requests_and_bot_tables_have_a_number(tmp_path: Path) -> None:
    """``POST /api/score`` is limited per address (``SCORES_PER_IP``: 600 a minute; 245 a
    second had pushed the WebSocket ping p99 from 33 to 282 ms), and one address runs at most
    ``BOT_ROOMS_PER_IP`` (3) tables of four bots at a time (19 in a minute took half the CPU)."""
    from laizi.server.guard.limits import BOT_ROOMS_PER_IP, SCORES_PER_IP

    srv = LiveServer(str(tmp_path / "s.db"), tmp_path, rate_limited=True, bot_delay=0.5).start()
    try:
        hand = {"hand": "123m456m789m123p55s", "laizi": "9s", "win": {"by": "self_draw"}}
        statuses = [srv.post("/api/score", hand)[0] for _ in range(SCORES_PER_IP.count + 3)]
        assert statuses[0] in (200, 400) and 429 in statuses
        assert statuses.index(429) == SCORES_PER_IP.count, statuses.index(429)
        host = Client(srv.port, "机器人桌")
        codes = []
        for i in range(BOT_ROOMS_PER_IP + 1):
            host.send({"type": "create", "settings": {"max_hands": 50}})
            code = host.until("joined")["room"]["code"]
            codes.append(code)
            for s in range(4):
                host.send({"type": "bot", "seat": s, "level": "random"})
                host.until(lambda m, s=s: m["type"] == "room" and m["room"]["seats"][s]["bot"])
            host.send({"type": "start"})
            got = host.until(lambda m: m["type"] in ("snapshot", "error"))
            if i < BOT_ROOMS_PER_IP:
                assert got["type"] == "snapshot", got
            else:
                assert got["type"] == "error" and got["code"] == "too_many_bot_rooms", got
        host.close()
    finally:
        srv.stop()
