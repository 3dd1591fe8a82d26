"""Private rooms cannot be found by asking (issue: anonymous ``GET /api/rooms/{code}`` had no
rate limit — 284 probes/s — and gave the host and seats; ``POST /api/invites`` was a second
oracle). A real ``laizi serve`` with its per-address limits on: a private room answers its
members only (anyone else: the same 404 as an unknown code), and looking rooms up counts
against the join limit (``JOINS_PER_IP`` = 120 a minute, as joining does)."""

from __future__ import annotations

from pathlib import Path

import pytest
from srvhelpers import Client, LiveServer

from laizi.server.limits import JOINS_PER_IP

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
