"""A set of connections indexed by player: the hub's open WebSockets, a room's connections.

"Does this player have another open connection?" is asked when a socket says who it is
(the per-player cap), when one closes (the chat mutes it kept), and when something is
pushed to a player (a quick-match line, a friend's invitation). Answered by a pass over
every connection, a storm of N sockets (a node restarted, a network blip: every client
reconnects at once) cost N² steps on the event loop: some 8 million for 4,000 clients
leaving, 16 million more for their coming back (``benchmarks/bench_conn_storm.py``).
:class:`ConnSet` answers from an index, in steps of the player's own connections (a few:
``max_conns_per_player``).

A room's set may have a ``parent`` — the hub's index of every connection in any room —
which it keeps in step: "is the player in some room here" is one lookup there, and
whatever adds or removes a room's connection (a join, a leave, a kick, the room closing)
keeps both without knowing of the parent. (A connection is in one room at a time; the
parent counts its rooms all the same, so one that joins a second room before the first
lets it go stays until both have.)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Generic, Protocol, TypeVar

__all__ = ["ConnSet"]


class _Conn(Protocol):
    player_id: str | None
    closed: bool


C = TypeVar("C", bound=_Conn)


class ConnSet(Generic[C]):
    """Connections, each once, with an index by ``player_id`` (the one it had when it came
    in, or was given by :meth:`identify`). Iterates like a set, in the order they came in."""

    __slots__ = ("_all", "_by", "_parent", "_refs")

    def __init__(self, parent: ConnSet[C] | None = None) -> None:
        self._all: dict[C, str | None] = {}  # each connection -> the player it is indexed under
        self._by: dict[str, dict[C, None]] = {}
        self._parent = parent
        # as a parent: in how many of its children each connection is
        self._refs: dict[C, int] = {}

    def add(self, conn: C) -> None:
        if conn in self._all:
            return
        self._put(conn)
        parent = self._parent
        if parent is not None:
            n = parent._refs.get(conn, 0)
            parent._refs[conn] = n + 1
            if not n:
                parent._put(conn)

    def update(self, conns: Iterable[C]) -> None:
        for conn in conns:
            self.add(conn)

    def discard(self, conn: C) -> None:
        if conn not in self._all:
            return
        self._take(conn)
        parent = self._parent
        if parent is not None:
            n = parent._refs.pop(conn, 1) - 1
            if n:
                parent._refs[conn] = n
            else:
                parent._take(conn)

    def _put(self, conn: C) -> None:
        pid = conn.player_id
        self._all[conn] = pid
        if pid is not None:
            self._by.setdefault(pid, {})[conn] = None

    def _take(self, conn: C) -> None:
        pid = self._all.pop(conn)
        if pid is not None:
            mine = self._by[pid]
            del mine[conn]
            if not mine:
                del self._by[pid]

    def clear(self) -> None:
        for conn in list(self._all):
            self.discard(conn)

    def identify(self, conn: C, player_id: str) -> None:
        """Give ``conn`` its player (once: a connection's identity is fixed after its hello)
        and index it under it, here and in the parent. (Before it joins a room: a room's
        set would not learn it from the hub's.)"""
        sets = [s for s in (self, self._parent) if s is not None and conn in s._all]
        for s in sets:
            s._take(conn)
        conn.player_id = player_id
        for s in sets:
            s._put(conn)

    def of(self, player_id: str | None) -> list[C]:
        """The open connections of ``player_id`` here (none for None)."""
        if player_id is None:
            return []
        mine = self._by.get(player_id)
        return [] if mine is None else [c for c in mine if not c.closed and c.player_id == player_id]

    def __contains__(self, conn: object) -> bool:
        return conn in self._all

    def __iter__(self) -> Iterator[C]:
        return iter(self._all)

    def __len__(self) -> int:
        return len(self._all)

    def __bool__(self) -> bool:
        return bool(self._all)

    def __repr__(self) -> str:
        return f"<ConnSet of {len(self._all)} connections, {len(self._by)} players>"
