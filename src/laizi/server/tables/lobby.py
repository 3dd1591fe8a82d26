"""The room's lobby commands (:class:`LobbyCommands`, a part of
:class:`laizi.server.tables.room.Room`): take a seat, stand up, put a bot on a seat, press
准备, start, kick, hand the host role over, leave, say something at the table.

Each command checks (raising :class:`ProtocolError` as the socket protocol answers),
changes the room, stores it and tells everyone in the room — in that order, in one place.
What needs the connection or the server around the room (a 段位 range read from the
database, the seat cool-down, the chat rate, mutes, the bot-table cap's count) is the
caller's (:mod:`laizi.server.net.handlers`), done before the command, and handed in.
Like every room command, each runs under the room's lock.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from typing import Any, Protocol

from laizi.server.common import protocol as p
from laizi.server.common.connection import Conn
from laizi.server.common.connset import ConnSet
from laizi.server.common.protocol import ProtocolError, RoomSettings, RoomStatus
from laizi.server.guard.limits import BOT_ROOMS_PER_IP
from laizi.server.guard.netcheck import network_pairs, proxy_addrs
from laizi.server.persistence.store import Store
from laizi.server.tables.engine import dumps
from laizi.server.tables.seating import Seating, bot_seat
from laizi.server.tables.seats import Seat

__all__ = ["CHAT_KEPT", "LobbyCommands", "LobbyRoom", "unready_missing"]

CHAT_KEPT = 100  # chat lines a room keeps in memory (sent to who joins)


class LobbyRoom(Protocol):
    """What the lobby commands use of the room."""

    code: str
    settings: RoomSettings
    status: RoomStatus
    owner_id: str | None
    seats: list[Seat]
    banned: set[str]
    chat_log: list[dict[str, Any]]
    conns: ConnSet[Conn]
    store: Store

    def seat_of(self, player_id: str | None) -> int | None: ...
    def is_host(self, player_id: str | None) -> bool: ...
    def present(self) -> list[str]: ...
    def broadcast(self, msg: Any) -> None: ...
    def broadcast_lobby(self) -> None: ...
    async def save_room(self) -> None: ...
    async def escape(self, *seats: int) -> bool: ...
    async def seat_and_start(self, seating: Seating) -> bool: ...


def unready_missing(room: LobbyRoom, host: str | None) -> list[int]:
    """Seated humans not ready (the host's own start counts as the host's ready)."""
    return [i for i, s in enumerate(room.seats)
            if s.human and not s.is_ready and s.player_id != host]


def _lobby_only(room: LobbyRoom) -> None:
    if room.status != RoomStatus.LOBBY:
        raise ProtocolError("match_started", "the match has already started")


def _host_only(room: LobbyRoom, by: str | None) -> None:
    if not room.is_host(by):
        raise ProtocolError("not_host", "only the room's host can do that")


class LobbyCommands:
    """The lobby commands of a room (mixed into :class:`laizi.server.tables.room.Room`)."""

    owner_id: str | None  # the room's host (set by hand_over_host)

    def may_sit(self: LobbyRoom, player_id: str | None, seat: int) -> bool:
        """The room's own checks for :meth:`sit` (False: the player already sits there)."""
        _lobby_only(self)
        s = self.seats[seat]
        if s.player_id == player_id:
            return False
        if not s.empty:
            raise ProtocolError("seat_taken", f"seat {seat} is taken")
        return True

    async def sit(self: LobbyRoom, player_id: str | None, nickname: str, seat: int) -> None:
        """``player_id`` takes ``seat`` (moving from its old one, if any)."""
        if not LobbyCommands.may_sit(self, player_id, seat):
            return
        old = self.seat_of(player_id)
        if old is not None:
            self.seats[old] = Seat()
        self.seats[seat] = Seat(player_id=player_id, nickname=nickname)
        await self.save_room()
        self.broadcast_lobby()

    async def stand(self: LobbyRoom, player_id: str | None) -> bool:
        """``player_id`` stands up (a lobby only); True if it gave up a seat."""
        _lobby_only(self)
        old = self.seat_of(player_id)
        if old is not None:
            self.seats[old] = Seat()
            await self.save_room()
        self.broadcast_lobby()
        return old is not None

    async def set_bot(self: LobbyRoom, by: str | None, seat: int, level: str | None,
                      levels: Collection[str]) -> None:
        """The host puts a bot of ``level`` (one of ``levels``) on ``seat``, or takes it off
        (``level`` None)."""
        _host_only(self, by)
        _lobby_only(self)
        s = self.seats[seat]
        if level is None:
            if s.bot is None:
                raise ProtocolError("no_bot", f"no bot on seat {seat}")
            self.seats[seat] = Seat()
        else:
            if level not in levels:
                raise ProtocolError("bad_bot", f"unknown bot level {level!r} "
                                               f"(choose from {', '.join(levels)})")
            if s.player_id is not None:
                raise ProtocolError("seat_taken", f"seat {seat} is taken by a player")
            self.seats[seat] = bot_seat(level)
        await self.save_room()
        self.broadcast_lobby()

    async def set_ready(self: LobbyRoom, player_id: str | None, on: bool) -> None:
        """准备 on or off for the player's seat before a match."""
        _lobby_only(self)
        seat = self.seat_of(player_id)
        if seat is None:
            raise ProtocolError("not_seated", "take a seat first")
        if self.seats[seat].ready != on:
            self.seats[seat].ready = on
            await self.save_room()
        self.broadcast_lobby()

    def bots_only(self: LobbyRoom) -> bool:
        """Four bots would play once the club's bots (``bots_fill``) took the empty seats."""
        fill = self.settings.bots_fill
        return all(s.bot or (fill is not None and s.empty) for s in self.seats)

    async def start(self: LobbyRoom, by: str | None, *, started_by: str, confirm: bool = False,
                    bot_tables: int | None = None) -> None:
        """The host starts the match. ``confirm``: play although seats connect from the same
        network (a club's warning); ``bot_tables``: the tables of four bots the starting
        address runs now (None: not counted), at most :data:`BOT_ROOMS_PER_IP`. Every check
        comes before the club's bots take the seats still empty: a refused start seats none."""
        _host_only(self, by)
        _lobby_only(self)
        if any(s.empty for s in self.seats) and self.settings.bots_fill is None:
            raise ProtocolError("seats_empty", "fill every seat (players or bots) before starting")
        missing = unready_missing(self, by)
        if missing:
            raise ProtocolError("not_ready", "every seated player must be ready (准备) first: seat "
                                             + ", ".join(str(s) for s in missing))
        if self.settings.ip_warning and not confirm:  # clubs: the same-network warning
            addrs = {i: [c.peer for c in self.conns if c.player_id == s.player_id and not c.closed]
                     for i, s in enumerate(self.seats) if s.human}
            pairs, unknown = network_pairs(addrs, proxy_addrs())
            if pairs:
                self.broadcast(p.same_network(pairs, unknown))
                raise ProtocolError("same_network", "seats " + "; ".join(
                    f"{x['seats'][0]} and {x['seats'][1]} ({x['same']})" for x in pairs)  # type: ignore[index]
                    + " connect from the same address or network: start again to play anyway")
        # four bots play on their own, at the server's cost: a few at a time per address
        if bot_tables is not None and bot_tables >= BOT_ROOMS_PER_IP and LobbyCommands.bots_only(self):
            raise ProtocolError("too_many_bot_rooms", f"at most {BOT_ROOMS_PER_IP} tables of four "
                                                      "bots at a time from one address")
        # clubs: the club's bots take the seats still empty
        await self.seat_and_start(Seating(fill=self.settings.bots_fill, started_by=started_by))

    async def kick(self: LobbyRoom, by: str | None, target: str) -> None:
        """The host sends ``target`` out of the room (its seat too, before a match) and bans
        it; stored before anyone is told (a kill -9 right after the ``kicked`` frame keeps
        the ban)."""
        _host_only(self, by)
        if target == by:
            raise ProtocolError("bad_kick", "you cannot kick yourself (leave instead)")
        seat = self.seat_of(target)
        conns = [c for c in self.conns if c.player_id == target]
        if seat is None and not conns:
            raise ProtocolError("not_in_room", "no such player in this room")
        if seat is not None:
            _lobby_only(self)  # a seated player cannot be pushed out of a match
            self.seats[seat] = Seat()
        self.banned.add(target)
        await self.save_room()
        for c in conns:
            self.conns.discard(c)
            c.room_code = None
            c.seat = None
            c.send(p.kicked(self.code))
        self.broadcast_lobby()

    async def hand_over_host(self: LobbyRoom, by: str | None, to: str) -> None:
        """The host passes the role to ``to``, a player in the room."""
        _host_only(self, by)
        if to not in self.present():
            raise ProtocolError("not_in_room", "the new host must be in the room")
        self.owner_id = to
        await self.save_room()
        self.broadcast_lobby()

    async def give_up_seat(self: LobbyRoom, player_id: str | None) -> bool:
        """The player leaves the table: before the match its seat is freed (stored), during
        it the seat is escaped (a penalty; a bot plays it for good). True if a seat was given
        up before or during a match (not after it: it counts toward the seat cool-down).
        The room is told by the caller once the connection is out."""
        seat = self.seat_of(player_id)
        if seat is None:
            return False
        if self.status == RoomStatus.LOBBY:
            self.seats[seat] = Seat()
            await self.save_room()
            return True
        return await self.escape(seat)

    async def say(self: LobbyRoom, player_id: str | None, nickname: str, text: str, *,
                  phrase: str | None = None, emote: str | None = None,
                  muted_by: Callable[[str | None], Collection[str]] = lambda pid: ()) -> None:
        """``text`` said at the table (a quick phrase's or an emote's, if one is named):
        kept (the last :data:`CHAT_KEPT` lines), stored, then sent to everyone here except
        those who muted the speaker (``muted_by(listener)``: whom the listener muted)."""
        entry = p.chat(nickname, player_id, self.seat_of(player_id), text, phrase, time.time(), emote)
        self.chat_log.append(dict(entry))
        del self.chat_log[:-CHAT_KEPT]
        await self.store.add_chat(self.code, player_id, nickname, text,
                                  phrase or (None if emote is None else f"emote:{emote}"))
        out = dumps(entry)
        for c in list(self.conns):  # (laizi.server.clubs.etiquette)
            if player_id not in muted_by(c.player_id):
                c.send(out)
