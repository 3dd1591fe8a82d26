"""What the domain services use of the server they run in: identities, the store, the
players' nicknames, the rate limits — and, for the social part, the connections and the
rooms. :class:`laizi.server.tables.hub.Hub` is one; these services never import it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from laizi.server.accounts.auth import GuestAuth
    from laizi.server.common.connection import Conn
    from laizi.server.common.connset import ConnSet
    from laizi.server.guard.limits import Limits
    from laizi.server.persistence.store import Store

__all__ = ["Peers", "Site", "SocialSite"]


class Peers(Protocol):
    """What these services ask of the other servers (the room directory: none alone)."""

    async def find_player(self, player_id: str) -> str | None: ...

    async def announced(self) -> bool: ...


class Site(Protocol):
    players: dict[str, str]  # player id → nickname
    limits: Limits

    @property
    def auth(self) -> GuestAuth: ...

    @property
    def store(self) -> Store: ...

    @property
    def directory(self) -> Peers: ...

    async def known_player(self, pid: str) -> bool:
        """Whether ``pid`` is a player of the server (made on any node)."""
        ...

    async def identify(self, token: object) -> str | None:
        """The player a token names (on a cluster: also one made on another node a moment
        ago), else None."""
        ...


class SocialSite(Site, Protocol):
    conns: ConnSet[Conn]  # every open WebSocket
    rooms: dict[str, Any]  # the rooms in memory, by code (their ``status``, ``settings``...)
