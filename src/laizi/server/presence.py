"""Who is online and where, and a way to reach them: the small interface friends, invites
and quick match use (:class:`Presence`).

:class:`LocalPresence` answers from this server's open WebSockets (``hub.conns``): a player
is online while one of its connections is open, and "in" the room that connection joined.
A multi-node deployment backs the same two calls with a shared store (e.g. Redis: each
node publishes its connections' ``player → room`` and relays pushes) without changing the
callers.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from laizi.server.hub import Hub

__all__ = ["LocalPresence", "Presence", "Whereabouts"]

Whereabouts = dict[str, Any]  # {"online": bool, "room": code or None, "status": room status or None}


class Presence(Protocol):
    def where(self, pids: Iterable[str]) -> dict[str, Whereabouts]:
        """Each player's whereabouts."""
        ...

    def push(self, pid: str, msg: dict[str, Any]) -> int:
        """Send ``msg`` to every open connection of ``pid``; how many got it."""
        ...


class LocalPresence:
    """Presence from one hub's connections."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def where(self, pids: Iterable[str]) -> dict[str, Whereabouts]:
        want = set(pids)
        out: dict[str, Whereabouts] = {p: {"online": False, "room": None, "status": None} for p in want}
        for c in self.hub.conns:
            pid = c.player_id
            if c.closed or pid not in want:
                continue
            w = out[pid]
            w["online"] = True
            room = self.hub.rooms.get(c.room_code) if c.room_code else None
            if room is not None and w["room"] is None:
                w["room"] = room.code
                w["status"] = room.status
        return out

    def push(self, pid: str, msg: dict[str, Any]) -> int:
        n = 0
        for c in list(self.hub.conns):
            if c.player_id == pid and not c.closed:
                c.send(msg)
                n += 1
        return n
