"""The match-flow commands (:mod:`laizi.server.tables.flow`): ``ready`` before a match, ``continue``
after a hand, ``rematch`` after the match, ``dissolve`` (解散 by vote) during it. Registered in
:data:`laizi.server.net.handlers.ROOM_HANDLERS`; each runs under its room's lock."""

from __future__ import annotations

from typing import Any

from laizi.server.common import protocol as p
from laizi.server.common.connection import Conn
from laizi.server.common.protocol import ProtocolError, RoomStatus
from laizi.server.ledger import coins
from laizi.server.tables.room import Room
from laizi.server.tables.seats import AUTO_BOT, Seat

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
    g = room.game
    if g is None or room.status != RoomStatus.FINISHED or not g.over:
        raise ProtocolError("not_finished", "a rematch is offered once the match is over")
    if m.force:
        if room.coin is not None:  # a quick-match table: nobody is put in a match unasked
            raise ProtocolError("not_host", "at a quick-match table every player accepts 再来一局")
        if not room.is_host(conn.player_id):
            raise ProtocolError("not_host", "only the room's host can do that")
    else:
        seat = _seat(conn, room)
        if room.seats[seat].rematch != room.match_id:  # stored first: the vote survives a restart
            room.seats[seat].rematch = room.match_id
            await room.save_room()
        room.flow.rematch.add(seat)
    here = set(room.present())
    humans = {i for i, s in enumerate(room.seats) if s.human and s.player_id in here}
    if not (m.force or humans <= room.flow.rematch):
        room.broadcast(p.rematch(sorted(room.flow.rematch), sorted(humans)))
        return
    seats = [Seat(bot=AUTO_BOT, nickname=f"bot·{AUTO_BOT}")  # whoever left: a bot
             if s.escaped or s.empty or (s.human and s.player_id not in here) else s
             for s in room.seats]
    try:
        await room.seat_and_start(seats)  # a coin table: each takes its coin seat with the stake check
    except coins.CoinError as exc:
        room.flow.rematch.clear()
        room.broadcast(p.rematch([], sorted(humans), exc.message))
        raise ProtocolError("rematch_refused", exc.message) from None


async def on_dissolve(hub: Any, conn: Conn, room: Room, m: p.Dissolve) -> None:
    """解散 by vote: every seated human (not escaped) agrees, then the match ends with the
    scores so far (stored); one refusal drops the proposal. Everyone is told each vote.
    Each agreement is stored on its seat first (``Seat.dissolve``: the match id), so an open
    proposal survives a restart (:func:`laizi.server.tables.flow.resume_settlement`)."""
    g = room.game
    if g is None or room.status != RoomStatus.PLAYING or g.over:
        raise ProtocolError("not_playing", "解散 is voted on during a match")
    seat = _seat(conn, room)
    humans = _voters(room)
    if not m.on:
        room.flow.dissolve.clear()
        await _store_votes(room)
        room.broadcast(p.dissolve([], sorted(humans), refused=seat))
        return
    room.flow.dissolve.add(seat)
    agreed = room.flow.dissolve & humans
    if humans <= agreed:
        room.flow.dissolve.clear()
        await room.dissolve()  # (saves the room: the votes stored are of an ended match)
        room.broadcast(p.dissolve(sorted(agreed), [], done=True))
        return
    await _store_votes(room)
    room.broadcast(p.dissolve(sorted(agreed), sorted(humans - agreed)))


def _voters(room: Room) -> set[int]:
    return {i for i, s in enumerate(room.seats) if s.human}  # (not escaped, not a bot)


async def _store_votes(room: Room) -> None:
    """The seats' 解散 agreements as they are now (``room.flow.dissolve``), stored."""
    changed = False
    for i, s in enumerate(room.seats):
        vote = room.match_id if i in room.flow.dissolve else None
        if s.dissolve != vote:
            s.dissolve, changed = vote, True
    if changed:
        await room.save_room()


FLOW_HANDLERS: dict[str, Any] = {"ready": on_ready, "continue": on_continue, "rematch": on_rematch,
                                 "dissolve": on_dissolve}
