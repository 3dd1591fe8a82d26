"""Who is online and where, and a way to reach them: the small interface friends, invites
and quick match use (:class:`Presence`).

:class:`LocalPresence` answers from this server's open WebSockets (``hub.conns``): a player
is online while one of its connections is open, and "in" the room that connection joined.
A multi-node deployment backs the same two calls with a shared store (e.g. Redis: each
node publishes its connections' ``player → room`` and relays pushes) without changing the
callers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from laizi.server.accounts.site import SocialSite

__all__ = ["LocalPresence", "Presence", "Whereabouts"]

Whereabouts = dict[str, Any]  # {"online": bool, "room": code or None, "status": room status or None}


class Presence(Protocol):
    def where(self, pids: Iterable[str], fresh: bool = False) -> dict[str, Whereabouts]:
        """Each player's whereabouts (``fresh``: as of now, not a cached map)."""
        ...

    def push(self, pid: str, msg: Mapping[str, Any]) -> int:
        """Send ``msg`` to every open connection of ``pid``; how many got it."""
        ...


class LocalPresence:
    """Presence from one hub's connections, always as of now: each player's own open
    connections, from the hub's index by player (:class:`laizi.server.common.connset.ConnSet`)
    — no pass over every connection however many friend lists are asked for."""

    def __init__(self, hub: SocialSite) -> None:
        self.hub = hub

    def _of(self, pid: str) -> Whereabouts:
        w: Whereabouts = {"online": False, "room": None, "status": None}
        for c in self.hub.conns.of(pid):
            w["online"] = True
            room = self.hub.rooms.get(c.room_code) if c.room_code else None
            if room is not None:
                w["room"] = room.code
                w["status"] = room.status
                break
        return w

    def where(self, pids: Iterable[str], fresh: bool = False) -> dict[str, Whereabouts]:
        return {p: self._of(p) for p in set(pids)}

    def push(self, pid: str, msg: Mapping[str, Any]) -> int:
        mine = self.hub.conns.of(pid)
        for c in mine:
            c.send(msg)
        return len(mine)
