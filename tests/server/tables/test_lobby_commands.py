"""The room's lobby commands (laizi.server.tables.lobby) in an app in this process: a start
refused by the cap on tables of four bots (``BOT_ROOMS_PER_IP``) leaves a club table's
empty seats empty — the club's bots (``bots_fill``) sit down only once every check passed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from starlette.testclient import TestClient

from laizi.server.guard.limits import BOT_ROOMS_PER_IP
from support.srvhelpers import WS, close_all, connect, new_room, room_state

pytestmark = pytest.mark.timeout(120)


def _bots(ws: WS, seats: range) -> None:
    for s in seats:
        ws.send(type="bot", seat=s, level="random")
        room_state(ws, lambda r, s=s: r["seats"][s]["bot"] == "random")


def test_a_refused_start_seats_no_club_bots(make_app: Callable[..., Any]) -> None:
    # every address counted (none exempt); bots slow enough that the tables stay in play
    app = make_app(rate_exempt=(), bot_delay=30.0)
    with TestClient(app) as client:
        try:
            host, _ = connect(client, "机器人桌")
            for _ in range(BOT_ROOMS_PER_IP):
                new_room(host, max_hands=50)
                _bots(host, range(4))
                host.send(type="start")
                host.until("snapshot")
            code = new_room(host, max_hands=50)
            _bots(host, range(3))
            room = app.state.hub.rooms[code]  # a club table: the club's bots fill what is empty
            room.settings = room.settings.model_copy(update={"bots_fill": "greedy"})
            host.send(type="start")
            err = host.error()
            assert err["code"] == "too_many_bot_rooms", err
            assert room.status == "lobby" and room.seats[3].empty, room.seats[3]
            host.send(type="resync")
            seats = room_state(host, lambda r: True)["seats"]
            assert seats[3]["bot"] is None and seats[3]["player_id"] is None, seats
            # a player takes the empty seat: not four bots any more, so the start goes ahead
            # with the three bots and the player
            host.send(type="sit", seat=3)
            room_state(host, lambda r: r["seats"][3]["player_id"] is not None)
            host.send(type="start")
            host.until("snapshot")
            assert room.status == "playing" and [s.bot for s in room.seats] == ["random"] * 3 + [None]
        finally:
            close_all()
