"""Waiting lines of players (quick match's queues), as the room directory keeps them.

A line is a name (quick match: ``"{level}:{preset}"``) and the players waiting in it, first
come first; a player waits in one line at most. The directory gives the lines
(``RoomDirectory.lines``): one process keeps them in memory (:class:`LocalLines`), a
cluster node in Redis (:class:`laizi.server.cluster.lines.RedisLines`), so players waiting on
different nodes are in the same line. :meth:`WaitingLines.take` is atomic: whichever node
takes a group of waiters seats them, and nobody is taken twice.

An entry is a dict: ``pid``, ``nick``, ``since`` (wall-clock seconds: the same on every
node), ``node`` (the node whose WebSocket the player waits on: where :meth:`tell` reaches
it). A player's record (:meth:`find`) is its entry with its ``line`` while it waits, or
the table it was given (``{"seated": {...}}``) once taken and noted.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

__all__ = ["SEATED_KEEP", "LocalLines", "WaitingLines"]

SEATED_KEEP = 600.0  # seconds a player's last table is remembered (GET /api/quick)

Entry = dict[str, Any]


class WaitingLines(Protocol):
    async def add(self, line: str, entry: Entry) -> None:
        """Put ``entry`` at the end of ``line`` (out of any line it was in before)."""

    async def remove(self, pid: str) -> bool:
        """Take ``pid`` out of its line (and forget its seat); whether it was waiting."""

    async def take(self, line: str, full: int, due: float,
                   near: Sequence[str] = ()) -> list[Entry]:
        """Atomically: the first ``full`` entries when that many wait; else, when the first
        came at ``due`` or before, every entry, then the longest waiting of the ``near``
        lines (quick match: the neighbouring rank bands) up to ``full``; else none."""

    async def peek(self, line: str) -> tuple[int, float | None]:
        """How many wait in ``line``, and since when the first has."""

    async def find(self, pid: str) -> Entry | None:
        """``pid``'s record: its entry and ``line`` while waiting, ``{"seated": ...}``
        after :meth:`note`, else None."""

    async def note(self, pid: str, seated: Mapping[str, Any]) -> None:
        """Remember the table ``pid`` was given (its record, until it waits again)."""

    async def sizes(self) -> dict[str, int]:
        """Every non-empty line and how many wait in it."""

    def tell(self, entry: Entry, msg: Mapping[str, Any]) -> None:
        """Send ``msg`` to the player of ``entry`` on the node it waits on."""


class LocalLines:
    """One process: the lines in memory (each call runs without awaiting: atomic)."""

    def __init__(self, push: Callable[[str, Mapping[str, Any]], int]) -> None:
        self.push = push
        self.lines: dict[str, list[Entry]] = {}
        self.records: dict[str, Entry] = {}

    async def add(self, line: str, entry: Entry) -> None:
        self._out(entry["pid"])
        self.lines.setdefault(line, []).append(dict(entry))
        self.records[entry["pid"]] = {**entry, "line": line}

    def _out(self, pid: str) -> bool:
        rec = self.records.pop(pid, None)
        if rec is None or "line" not in rec:
            return False
        q = self.lines.get(rec["line"], [])
        q[:] = [e for e in q if e["pid"] != pid]
        if not q:
            self.lines.pop(rec["line"], None)
        return True

    async def remove(self, pid: str) -> bool:
        return self._out(pid)

    async def take(self, line: str, full: int, due: float,
                   near: Sequence[str] = ()) -> list[Entry]:
        q = self.lines.get(line, [])
        if len(q) >= full:
            got = q[:full]
        elif q and q[0]["since"] <= due:
            more = sorted((e for n in near for e in self.lines.get(n, [])), key=lambda e: e["since"])
            got = list(q) + more[:full - len(q)]
        else:
            return []
        for e in got:
            self._out(e["pid"])
        return got

    async def peek(self, line: str) -> tuple[int, float | None]:
        q = self.lines.get(line, [])
        return len(q), (q[0]["since"] if q else None)

    async def find(self, pid: str) -> Entry | None:
        rec = self.records.get(pid)
        if rec is not None and "seated" in rec and time.monotonic() - rec["at"] >= SEATED_KEEP:
            del self.records[pid]
            return None
        return {k: v for k, v in rec.items() if k != "at"} if rec is not None else None

    async def note(self, pid: str, seated: Mapping[str, Any]) -> None:
        self._out(pid)
        now = time.monotonic()
        for p in [p for p, r in self.records.items() if "seated" in r and now - r["at"] >= SEATED_KEEP]:
            del self.records[p]  # bounded: the tables of the last SEATED_KEEP seconds
        self.records[pid] = {"seated": dict(seated), "at": now}

    async def sizes(self) -> dict[str, int]:
        return {name: len(q) for name, q in self.lines.items() if q}

    def tell(self, entry: Entry, msg: Mapping[str, Any]) -> None:
        self.push(entry["pid"], msg)
