"""Tournaments that start by themselves: once a tournament's ``start_at`` has passed and at
least :data:`AUTO_START_MIN` players have checked in, the director starts it by its
organiser's authority (the director's ``start_tournament``, the same rules as the start
button: without bots, a multiple of four players). A refused start is not tried again until
the number of checked-in players changes; the organiser may still start it by hand."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from laizi.server.persistence.tournamentdb import EntrantRow, TournamentRow

Starter = Callable[[int, str], Awaitable["dict[str, Any] | str"]]  # the start's answer, or why it was refused

__all__ = ["AUTO_START_MIN", "AutoStarter", "due", "utc"]

log = logging.getLogger("laizi.server")

AUTO_START_MIN = 4  # checked-in players a tournament needs to start by itself at start_at


def utc(d: datetime) -> datetime:
    """A time in UTC (a naive one — SQLite gives those back, and an input without an offset —
    is taken as UTC)."""
    return d.replace(tzinfo=UTC) if d.tzinfo is None else d.astimezone(UTC)


def due(s: Session, now: datetime) -> list[tuple[int, str, int]]:
    """(id, organiser, checked-in players) of each open tournament whose start time has come
    and which has at least :data:`AUTO_START_MIN` checked-in players."""
    rows = s.execute(select(TournamentRow.id, TournamentRow.organiser_id, TournamentRow.start_at)
                     .where(TournamentRow.status == "registration",
                            TournamentRow.start_at.is_not(None))).all()
    out: list[tuple[int, str, int]] = []
    for tid, organiser, start_at in rows:
        if start_at is None or utc(start_at) > now:
            continue
        n = s.scalar(select(func.count()).select_from(EntrantRow).where(
            EntrantRow.tournament_id == tid, EntrantRow.checked_in == 1)) or 0
        if n >= AUTO_START_MIN:
            out.append((int(tid), str(organiser), int(n)))
    return out


class AutoStarter:
    """Run on every director tick."""

    def __init__(self) -> None:
        self.refused: dict[int, int] = {}  # tournament -> checked-in count its start was refused at

    async def start_due(self, rows: list[tuple[int, str, int]], start: Starter) -> int:
        """Start the tournaments :func:`due` found (read by the caller, the director, with its
        other reads of the tick): ``start(tid, organiser)`` starts one as its organiser (the
        director's start) and answers its result or why it refused. How many started."""
        started = 0
        for tid, organiser, n in rows:
            if self.refused.get(tid) == n:
                continue  # refused with these entrants already: wait for a change
            out = await start(tid, organiser)
            if isinstance(out, str):
                self.refused[tid] = n
                log.warning("tournament %s: not started at its start time: %s", tid, out)
                continue
            self.refused.pop(tid, None)
            started += 1
            log.info("tournament %s started at its start time: %s entrants, %s bots",
                     tid, out["entrants"], out["bots"])
        return started
