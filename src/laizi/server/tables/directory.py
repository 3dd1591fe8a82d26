"""Where rooms live: the room directory the hub asks (:class:`RoomDirectory`).

One process owns every room of its database (:class:`LocalDirectory`); a node of a cluster
owns the rooms whose lease it holds, takes rooms over and relays connections to the others
(:class:`laizi.server.cluster.node.Node`). The wiring picks one at start-up (the app
factory, ``laizi serve``); nothing else asks which it is.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from laizi.server.common.connset import ConnSet
from laizi.server.common.protocol import RoomStatus
from laizi.server.tables.lines import LocalLines, WaitingLines

if TYPE_CHECKING:
    from laizi.server.common.connection import Conn
    from laizi.server.tables.room import Room

__all__ = ["LocalDirectory", "RoomDirectory"]


class RoomDirectory(Protocol):
    """What the hub needs to know of where rooms run."""

    @property
    def name(self) -> str:
        """This server's name among several ("" alone)."""
        ...

    @property
    def lines(self) -> WaitingLines:
        """The waiting lines of quick match (one process: in memory; a cluster: shared)."""
        ...

    async def start(self) -> None:
        """The store is open: bring this server's rooms (and players) into the hub."""

    async def stop(self) -> None:
        """Before the store closes (a cluster node hands its rooms over)."""

    async def drain(self, before: Callable[[], None]) -> None:
        """SIGTERM: hand the rooms over (``before``: stop taking connections first)."""

    async def claim(self, code: str) -> bool:
        """Own a new room ``code`` (False: the code is in use somewhere)."""

    async def hold(self, code: str) -> bool:
        """Make sure this server owns room ``code`` (taking it if free); False if another does."""

    async def locate(self, code: str) -> Room | str | None:
        """Room ``code`` is not in memory: the room (taken over here), the name of the
        server that runs it, or None when it runs nowhere."""

    def relay(self, conn: Conn, code: str, owner: str, spectate: bool) -> None:
        """Send ``conn`` into room ``code`` on server ``owner``."""

    def unbind(self, conn: Conn, *, closing: bool = False) -> None:
        """A relayed connection leaves its room (or its socket closes)."""

    def room_gone(self, code: str) -> None:
        """Room ``code`` left memory for good (finished, or a closed lobby)."""

    async def lead(self, job: str) -> bool:
        """Whether this server does the server-wide ``job`` now (one at a time)."""

    def list_rooms(self, limit: int) -> list[dict[str, Any]]:
        """The public rooms, lobbies first (every server's), at most ``limit``."""

    async def sync_identities(self, after: float) -> bool:
        """Catch up with logins and token changes made elsewhere since ``after``
        (a ``time.monotonic()``); True when there was something to catch up with."""

    async def find_player(self, player_id: str) -> str | None:
        """The nickname of a player made elsewhere (None: unknown there too)."""

    async def announced(self) -> bool:
        """Wait (briefly) until every other server applied the identity changes announced so
        far — a session ended, a guest become an account; True when all did."""

    def status(self) -> dict[str, Any] | None:
        """This server's cluster figures (``GET /cluster``); None alone."""


class LocalDirectory:
    """One process: every room of the database is this process's, loaded at start."""

    name = ""

    def __init__(self, rooms: dict[str, Room], load_all: Callable[[], None],
                 conns: ConnSet[Conn] | None = None) -> None:
        self.rooms = rooms  # the hub's
        self.load_all = load_all  # every unfinished room of the database into ``rooms``
        self.conns: ConnSet[Conn] = conns if conns is not None else ConnSet()  # the hub's
        self.lines: WaitingLines = LocalLines(self.push)

    def push(self, pid: str, msg: Any) -> int:
        """Send ``msg`` to every open connection of ``pid`` here."""
        mine = self.conns.of(pid)
        for c in mine:
            c.send(msg)
        return len(mine)

    async def start(self) -> None:
        await asyncio.to_thread(self.load_all)

    async def stop(self) -> None:
        return None

    async def drain(self, before: Callable[[], None]) -> None:
        return None

    async def claim(self, code: str) -> bool:
        return True

    async def hold(self, code: str) -> bool:
        return True

    async def locate(self, code: str) -> Room | str | None:
        return self.rooms.get(code)

    def relay(self, conn: Conn, code: str, owner: str, spectate: bool) -> None:
        raise RuntimeError("one process relays nothing")

    def unbind(self, conn: Conn, *, closing: bool = False) -> None:
        return None

    def room_gone(self, code: str) -> None:
        return None

    async def lead(self, job: str) -> bool:
        return True

    def list_rooms(self, limit: int) -> list[dict[str, Any]]:
        # (ordered first, then only the rooms shown are summed up: a list the lobby page asks
        # for every 5 s, from every page open on it)
        rooms = sorted((r for r in self.rooms.values() if r.listed()),
                       key=lambda r: (r.status != RoomStatus.LOBBY, r.code))
        return [r.summary() for r in rooms[:limit]]

    async def sync_identities(self, after: float) -> bool:
        return False

    async def find_player(self, player_id: str) -> str | None:
        return None

    async def announced(self) -> bool:
        return True  # no other server

    def status(self) -> dict[str, Any] | None:
        return None


#: what a room is given of the directory: its lease check
Hold = Callable[[str], Awaitable[bool]]
