"""The room's vote commands around a match (:class:`VoteCommands`, a part of
:class:`laizi.server.tables.room.Room`): 再来一局 after it (:meth:`VoteCommands.vote_rematch`)
and 解散 during it (:meth:`VoteCommands.vote_dissolve`). Each checks, stores the vote on its
seat first (it survives a restart), tells the room, and acts once everyone agreed; under the
room's lock like every room command. (继续 between hands is :meth:`Room.press_continue`.)
"""

from __future__ import annotations

from typing import Any, Protocol

from laizi.server.common import protocol as p
from laizi.server.common.protocol import ProtocolError, RoomStatus
from laizi.server.ledger import coins
from laizi.server.tables.engine import GameSession
from laizi.server.tables.flow import Flow
from laizi.server.tables.seating import Seating, bot_seat
from laizi.server.tables.seats import AUTO_BOT, Seat

__all__ = ["VoteCommands", "VoteRoom"]


class VoteRoom(Protocol):
    """What the vote commands use of the room."""

    status: RoomStatus
    seats: list[Seat]
    match_id: int | None
    game: GameSession | None
    coin: dict[str, Any] | None
    flow: Flow

    def seat_of(self, player_id: str | None) -> int | None: ...
    def is_host(self, player_id: str | None) -> bool: ...
    def present(self) -> list[str]: ...
    def broadcast(self, msg: Any) -> None: ...
    async def save_room(self) -> None: ...
    async def dissolve(self) -> bool: ...
    async def seat_and_start(self, seating: Seating) -> bool: ...


def _seat(room: VoteRoom, player_id: str | None) -> int:
    seat = room.seat_of(player_id)
    if seat is None:
        raise ProtocolError("not_seated", "take a seat first")
    return seat


def _voters(room: VoteRoom) -> set[int]:
    return {i for i, s in enumerate(room.seats) if s.human}  # (not escaped, not a bot)


async def _store_votes(room: VoteRoom) -> None:
    """The seats' 解散 agreements as they are now (``room.flow.dissolve``), stored."""
    changed = False
    for i, s in enumerate(room.seats):
        vote = room.match_id if i in room.flow.dissolve else None
        if s.dissolve != vote:
            s.dissolve, changed = vote, True
    if changed:
        await room.save_room()


class VoteCommands:
    """The vote commands of a room (mixed into :class:`laizi.server.tables.room.Room`)."""

    async def vote_rematch(self: VoteRoom, player_id: str | None, force: bool = False) -> None:
        """``player_id`` accepts 再来一局 (``force``: the host starts it for everyone, not at
        a quick-match table). Once every human still here accepted, the same seats play
        again, a bot taking each seat whose player left; at a coin table each takes its coin
        seat with the stake check, and a refusal drops the votes (``rematch_refused``)."""
        g = self.game
        if g is None or self.status != RoomStatus.FINISHED or not g.over:
            raise ProtocolError("not_finished", "a rematch is offered once the match is over")
        if force:
            if self.coin is not None:  # a quick-match table: nobody is put in a match unasked
                raise ProtocolError("not_host", "at a quick-match table every player accepts 再来一局")
            if not self.is_host(player_id):
                raise ProtocolError("not_host", "only the room's host can do that")
        else:
            seat = _seat(self, player_id)
            if self.seats[seat].rematch != self.match_id:  # stored first: the vote survives a restart
                self.seats[seat].rematch = self.match_id
                await self.save_room()
            self.flow.rematch.add(seat)
        here = set(self.present())
        humans = {i for i, s in enumerate(self.seats) if s.human and s.player_id in here}
        if not (force or humans <= self.flow.rematch):
            self.broadcast(p.rematch(sorted(self.flow.rematch), sorted(humans)))
            return
        seats = tuple(bot_seat(AUTO_BOT)  # whoever left: a bot
                      if s.escaped or s.empty or (s.human and s.player_id not in here) else s
                      for s in self.seats)
        try:  # a coin table: each takes its coin seat with the stake check
            await self.seat_and_start(Seating(seats))
        except coins.CoinError as exc:
            self.flow.rematch.clear()
            self.broadcast(p.rematch([], sorted(humans), exc.message))
            raise ProtocolError("rematch_refused", exc.message) from None

    async def vote_dissolve(self: VoteRoom, player_id: str | None, on: bool) -> None:
        """解散 by vote: every seated human (not escaped) agrees, then the match ends with the
        scores so far (stored); one refusal drops the proposal. Everyone is told each vote.
        Each agreement is stored on its seat first (``Seat.dissolve``: the match id), so an
        open proposal survives a restart (:func:`laizi.server.tables.flow.resume_settlement`)."""
        g = self.game
        if g is None or self.status != RoomStatus.PLAYING or g.over:
            raise ProtocolError("not_playing", "解散 is voted on during a match")
        seat = _seat(self, player_id)
        humans = _voters(self)
        if not on:
            self.flow.dissolve.clear()
            await _store_votes(self)
            self.broadcast(p.dissolve([], sorted(humans), refused=seat))
            return
        self.flow.dissolve.add(seat)
        agreed = self.flow.dissolve & humans
        if humans <= agreed:
            self.flow.dissolve.clear()
            await self.dissolve()  # (saves the room: the votes stored are of an ended match)
            self.broadcast(p.dissolve(sorted(agreed), [], done=True))
            return
        await _store_votes(self)
        self.broadcast(p.dissolve(sorted(agreed), sorted(humans - agreed)))
