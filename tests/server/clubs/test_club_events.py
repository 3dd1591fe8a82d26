"""Club events (issue 26): the tournament director restricted to a club's members, over a
live server. Only the club's owner or an admin creates one (a member, a stranger: 403; an
unknown club: 404); it is listed on the club (``/api/clubs/{id}/events``: members; a
private club's refused to strangers), never in the public list; its page is refused to a
stranger of a private club; only members register (a stranger, a guest: 403). Then the
event runs like any tournament: two members and bots, one round to the end."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from support.socialkit import call, guest, register
from support.srvhelpers import LiveServer

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]


def _ok(st_out: tuple[int, Any]) -> Any:
    st, out = st_out
    assert st == 200, out
    return out


def _refused(st_out: tuple[int, Any], status: int, words: str) -> None:
    st, out = st_out
    assert st == status and words in out["error"], (st, out)


def test_club_event(tmp_path: Path) -> None:
    srv = LiveServer(str(tmp_path / "events.db"), tmp_path, bot_delay=0.0, hand_pause=0.0).start()
    try:
        ta, _ = register(srv, "amei")
        tb, pb = register(srv, "bobo")
        tc, _ = register(srv, "cici")
        td, _ = register(srv, "dada")
        tg, _ = guest(srv)
        club = _ok(call(srv, "POST", "/api/clubs", ta, {"name": "圈内赛"}))
        cid = club["id"]
        for tok in (tb, td):
            _ok(call(srv, "POST", "/api/clubs/join", tok, {"code": club["code"]}))
        _ok(call(srv, "POST", f"/api/clubs/{cid}/members", ta, {"action": "role", "player": "dada",
                                                                "role": "admin"}))
        body = {"name": "周末圈赛", "club": cid, "seats": 4, "bots_fill": True, "rounds": 1,
                "hands_per_round": 1, "no_show_seconds": 0, "turn_seconds": 5}
        _refused(call(srv, "POST", "/api/tournaments", tb, body), 403, "owner or an admin")
        _refused(call(srv, "POST", "/api/tournaments", tc, body), 403, "owner or an admin")
        _refused(call(srv, "POST", "/api/tournaments", ta, {**body, "club": 9999}), 404, "no club")
        _refused(call(srv, "POST", "/api/tournaments", ta, {**body, "club": 0}), 400, "club")
        assert _ok(call(srv, "POST", "/api/tournaments", td, {**body, "name": "管理员办的"}))["id"]
        tid = _ok(call(srv, "POST", "/api/tournaments", ta, body))["id"]
        # listed on the club, not in public
        assert all(t["id"] != tid for t in _ok(call(srv, "GET", "/api/tournaments", tc))["tournaments"])
        events = _ok(call(srv, "GET", f"/api/clubs/{cid}/events", tb))["events"]
        assert [e["name"] for e in events] == ["周末圈赛", "管理员办的"] and events[0]["club"] == cid
        _refused(call(srv, "GET", f"/api/clubs/{cid}/events", tc), 403, "private")
        _refused(call(srv, "GET", f"/api/clubs/{cid}/events", tg), 403, "private")
        _refused(call(srv, "GET", f"/api/tournaments/{tid}", tc), 403, "private")
        assert _ok(call(srv, "GET", f"/api/tournaments/{tid}", tb))["club"] == cid
        # its verification too (rounds, seeds, match ids: who played): it answered anyone
        _refused(call(srv, "GET", f"/api/tournaments/{tid}/verify", tc), 403, "private")
        _refused(call(srv, "GET", f"/api/tournaments/{tid}/verify"), 403, "private")
        assert _ok(call(srv, "GET", f"/api/tournaments/{tid}/verify", tb))["club"] == cid
        # only members register
        _refused(call(srv, "POST", f"/api/tournaments/{tid}/register", tc), 403, "members only")
        _refused(call(srv, "POST", f"/api/tournaments/{tid}/register", tg), 403, "")
        _ok(call(srv, "POST", f"/api/tournaments/{tid}/register", tb))
        _ok(call(srv, "POST", f"/api/tournaments/{tid}/register", ta))
        # a public club's events: anyone sees them, still only members register
        _ok(call(srv, "POST", f"/api/clubs/{cid}", ta, {"private": False}))
        assert [e["id"] for e in _ok(call(srv, "GET", f"/api/clubs/{cid}/events", tc))["events"]][0] == tid
        _ok(call(srv, "GET", f"/api/tournaments/{tid}", tc))
        _refused(call(srv, "POST", f"/api/tournaments/{tid}/register", tc), 403, "members only")
        # it runs like any tournament (bots fill, the humans auto-played once absent)
        for tok in (ta, tb):
            _ok(call(srv, "POST", f"/api/tournaments/{tid}/check-in", tok))
        _ok(call(srv, "POST", f"/api/tournaments/{tid}/start", ta))
        end = time.monotonic() + 150
        while True:
            t = _ok(call(srv, "GET", f"/api/tournaments/{tid}", tb))
            if t["status"] == "finished" or time.monotonic() > end:
                break
            time.sleep(0.5)
        assert t["status"] == "finished", t["status"]
        assert {e["player_id"] for e in t["entrant_list"] if e["player_id"]} >= {pb}
    finally:
        srv.stop()


def test_club_event_tables_members_only(tmp_path: Path) -> None:
    """A club event's tables (the director's private rooms, reached by their code): a
    stranger or a guest neither joins nor watches while the club is private; a member who
    is no entrant watches; an entrant takes its seat; once the club is public anyone
    watches, still nobody but members joins."""
    from support.srvhelpers import Client

    # the absent entrant holds its table (no 托管 before the grace): the room stays open
    srv = LiveServer(str(tmp_path / "doors.db"), tmp_path, bot_delay=0.0, hand_pause=0.0,
                     disconnect_grace=600.0).start()
    clients: list[Client] = []
    try:
        ta, _ = register(srv, "amei")
        tb, pb = register(srv, "bobo")
        tc, _ = register(srv, "cici")
        td, _ = register(srv, "dada")
        tg, _ = guest(srv)
        club = _ok(call(srv, "POST", "/api/clubs", ta, {"name": "门禁圈"}))
        cid, code = club["id"], club["code"]
        for tok in (tb, td):
            _ok(call(srv, "POST", "/api/clubs/join", tok, {"code": code}))
        tid = _ok(call(srv, "POST", "/api/tournaments", ta, {
            "name": "门禁赛", "club": cid, "seats": 4, "bots_fill": True, "rounds": 1,
            "hands_per_round": 8, "no_show_seconds": 600, "turn_seconds": 600}))["id"]
        for tok in (ta, tb):
            _ok(call(srv, "POST", f"/api/tournaments/{tid}/register", tok))
            _ok(call(srv, "POST", f"/api/tournaments/{tid}/check-in", tok))
        _ok(call(srv, "POST", f"/api/tournaments/{tid}/start", ta))
        room = ""
        end = time.monotonic() + 60
        while not room and time.monotonic() < end:
            t = _ok(call(srv, "GET", f"/api/tournaments/{tid}", ta))
            tabs = [tab for r in t.get("rounds", []) for tab in r["tables"]
                    if tab["room"] and tab["status"] == "playing"]
            room = tabs[0]["room"] if tabs else ""
            time.sleep(0.2)
        assert room, t

        def enter(tok: str, spectate: bool) -> dict[str, Any]:
            c = Client(srv.port, token=tok)
            clients.append(c)
            return c.request({"type": "join", "room": room, "spectate": spectate}, "joined", 20)

        for tok in (tc, tg):  # a private club: the door is shut, to players and watchers
            for spectate in (False, True):
                out = enter(tok, spectate)
                assert out["type"] == "error" and out["code"] == "club_only", out
                assert "club event" in out["message"] and "members only" in out["message"]
        assert enter(td, True)["type"] == "joined"      # a member watches
        got = enter(tb, False)                          # an entrant plays its seat
        assert got["type"] == "joined" and got["seat"] is not None, got
        _ok(call(srv, "POST", f"/api/clubs/{cid}", ta, {"private": False}))
        assert enter(tc, True)["type"] == "joined"      # a public club's event: anyone watches
        out = enter(tc, False)
        assert out["type"] == "error" and out["code"] == "club_only", out
        _ok(call(srv, "GET", f"/api/tournaments/{tid}", tc))
    finally:
        for c in clients:
            c.close()
        srv.stop()
