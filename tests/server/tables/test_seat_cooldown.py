"""The join/leave cool-down (issue 26) over a live server: a player who gives up
SEAT_LEAVES.count seats (stands up or leaves a table before its match) within
SEAT_LEAVES.window seconds takes no new seat until the oldest of them is that old — the
next ``sit`` is refused with ``cooldown`` and words that give the numbers and the wait, and
so is a club's quick seat (429). Moving from one seat to another at the same table counts
nothing; another player is not touched; the player may still join a room and watch."""

from __future__ import annotations

from pathlib import Path

import pytest

from laizi.server.guard.limits import SEAT_LEAVES
from support.socialkit import call, register
from support.srvhelpers import Client, LiveServer

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


def _seated(c: Client, seat: int) -> None:
    c.send({"type": "sit", "seat": seat})
    c.until(lambda m: m["type"] == "error" or (m["type"] == "room" and m["room"]["seats"][seat]["player_id"] == c.pid))


def test_join_leave_cooldown(tmp_path: Path) -> None:
    srv = LiveServer(str(tmp_path / "cool.db"), tmp_path).start()
    try:
        ta, _ = register(srv, "amei")
        tb, _ = register(srv, "bobo")
        host = Client(srv.port, token=ta)
        host.send({"type": "create", "settings": {}})
        code = host.until("joined")["room"]["code"]
        hopper = Client(srv.port, token=tb)
        hopper.request({"type": "join", "room": code}, "joined")
        _seated(hopper, 1)
        for seat in (2, 3, 1):  # moving between seats of one table is no leaving
            _seated(hopper, seat)
        for i in range(SEAT_LEAVES.count):  # give up seats: stand up, or leave the table
            if i % 2:
                hopper.send({"type": "leave"})
                hopper.until("left")
                hopper.request({"type": "join", "room": code}, "joined")
            else:
                hopper.send({"type": "stand"})
                hopper.until(lambda m: m["type"] == "room" and m["room"]["seats"][1]["player_id"] is None)
            if i < SEAT_LEAVES.count - 1:
                _seated(hopper, 1)
        err = hopper.request({"type": "sit", "seat": 1}, "never")
        assert err["type"] == "error" and err["code"] == "cooldown", err
        words = err["message"]
        assert f"you left {SEAT_LEAVES.count} seats in {SEAT_LEAVES.window:g} s" in words
        wait = int(words.split("wait ")[1].split(" s")[0])
        assert 1 <= wait <= SEAT_LEAVES.window
        # the others may sit; the hopper may still be in the room (watching)
        host.send({"type": "sit", "seat": 0})
        host.until(lambda m: m["type"] == "room" and m["room"]["seats"][0]["player_id"] == host.pid)
        assert hopper.request({"type": "join", "room": code}, "joined")["type"] == "joined"
        # a club's quick seat is refused too (HTTP 429, the same words)
        club = call(srv, "POST", "/api/clubs", ta, {"name": "冷静期"})[1]
        assert call(srv, "POST", "/api/clubs/join", tb, {"code": club["code"]})[0] == 200
        tpl = call(srv, "POST", f"/api/clubs/{club['id']}/templates", ta,
                   {"name": "一圈", "settings": {"preset": "kaikoufan"}})[1]
        st, _ = call(srv, "POST", f"/api/clubs/{club['id']}/tables", ta, {"template": tpl["id"], "fill": False})
        assert st == 200
        st, out = call(srv, "POST", f"/api/clubs/{club['id']}/quick", tb)
        assert st == 429 and "wait" in out["error"] and str(SEAT_LEAVES.count) in out["error"], (st, out)
        host.close()
        hopper.close()
    finally:
        srv.stop()
