"""Who is online and where, and a way to reach them: the small interface friends, invites
and quick match use (:class:`Presence`).

:class:`LocalPresence` answers from this server's open WebSockets (``hub.conns``): a player
is online while one of its connections is open, and "in" the room that connection joined.
A multi-node deployment backs the same two calls with a shared store (e.g. Redis: each
node publishes its connections' ``player → room`` and relays pushes) without changing the
callers.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from laizi.server.accounts.site import SocialSite

__all__ = ["SNAPSHOT_FROM", "SNAPSHOT_TTL", "LocalPresence", "Presence", "Whereabouts"]

SNAPSHOT_TTL = 1.0   # seconds a presence map is reused ...
SNAPSHOT_FROM = 200  # ... once this many connections are open (below, every answer is fresh)

Whereabouts = dict[str, Any]  # {"online": bool, "room": code or None, "status": room status or None}


class Presence(Protocol):
    def where(self, pids: Iterable[str], fresh: bool = False) -> dict[str, Whereabouts]:
        """Each player's whereabouts (``fresh``: as of now, not a cached map)."""
        ...

    def push(self, pid: str, msg: Mapping[str, Any]) -> int:
        """Send ``msg`` to every open connection of ``pid``; how many got it."""
        ...


class LocalPresence:
    """Presence from one hub's connections. With :data:`SNAPSHOT_FROM` connections or more,
    ``where`` reads a map of every online player built at most once per :data:`SNAPSHOT_TTL`
    seconds (one pass over the connections, however many friend lists are asked for meanwhile)
    unless asked for a ``fresh`` answer."""

    def __init__(self, hub: SocialSite) -> None:
        self.hub = hub
        self._snap: dict[str, Whereabouts] = {}
        self._snap_at = -1.0

    def _snapshot(self, fresh: bool) -> dict[str, Whereabouts]:
        now = time.monotonic()
        if not fresh and len(self.hub.conns) >= SNAPSHOT_FROM and now - self._snap_at < SNAPSHOT_TTL:
            return self._snap
        snap: dict[str, Whereabouts] = {}
        for c in self.hub.conns:
            pid = c.player_id
            if c.closed or pid is None:
                continue
            w = snap.setdefault(pid, {"online": True, "room": None, "status": None})
            room = self.hub.rooms.get(c.room_code) if c.room_code else None
            if room is not None and w["room"] is None:
                w["room"] = room.code
                w["status"] = room.status
        self._snap, self._snap_at = snap, now
        return snap

    def where(self, pids: Iterable[str], fresh: bool = False) -> dict[str, Whereabouts]:
        snap = self._snapshot(fresh)
        return {p: dict(snap.get(p) or {"online": False, "room": None, "status": None}) for p in set(pids)}

    def push(self, pid: str, msg: Mapping[str, Any]) -> int:
        mine = self.hub.conns.of(pid)
        for c in mine:
            c.send(msg)
        return len(mine)
