"""The match-flow commands (:mod:`laizi.server.tables.flow`): ``ready`` before a match, ``continue``
after a hand, ``rematch`` after the match, ``dissolve`` (解散 by vote) during it. Registered in
:data:`laizi.server.net.handlers.ROOM_HANDLERS`; each runs under its room's lock and calls the
room's command (``set_ready``, ``press_continue``, ``vote_rematch``, ``vote_dissolve``)."""

from __future__ import annotations

from typing import Any

from laizi.server.common import protocol as p
from laizi.server.common.connection import Conn
from laizi.server.common.protocol import ProtocolError, RoomStatus
from laizi.server.tables.room import Room

__all__ = ["FLOW_HANDLERS", "on_continue", "on_dissolve", "on_ready", "on_rematch"]


def _seat(conn: Conn, room: Room) -> int:
    seat = room.seat_of(conn.player_id)
    if seat is None:
        raise ProtocolError("not_seated", "take a seat first")
    return seat


async def on_ready(hub: Any, conn: Conn, room: Room, m: p.Ready) -> None:
    await room.set_ready(conn.player_id, m.on)


async def on_continue(hub: Any, conn: Conn, room: Room, m: p.Continue) -> None:
    g = room.game
    if g is None or room.status != RoomStatus.PLAYING or not g.hand_over or g.over:
        raise ProtocolError("not_between_hands", "there is no settlement to continue from")
    await room.press_continue(_seat(conn, room))


async def on_rematch(hub: Any, conn: Conn, room: Room, m: p.Rematch) -> None:
    await room.vote_rematch(conn.player_id, m.force)


async def on_dissolve(hub: Any, conn: Conn, room: Room, m: p.Dissolve) -> None:
    await room.vote_dissolve(conn.player_id, m.on)


FLOW_HANDLERS: dict[str, Any] = {"ready": on_ready, "continue": on_continue, "rematch": on_rematch,
                                 "dissolve": on_dissolve}
