"""A room's match flow around the engine: ready-up before a match, the settlement pause
between hands (继续), the rematch vote after the match, and timer lapses (托管 only after
repeated ones).

:class:`Flow` holds the state that is not part of the match journal (votes, lapses, the
settlement deadline); nothing here touches the engine. The room asks it who must still
press 继续, when the next hand is due, and whether a lapse turns a seat to 托管. Ready flags
live on the seats (:class:`laizi.server.tables.seats.Seat`, stored with the room) so a restarted
server keeps them. So do the 继续 votes: pressing 继续 stamps the seat with the hand it
continues from (``Seat.continued`` = :func:`vote_key`) and stores the room before the vote
counts; a room restored in the middle of a settlement takes back the votes stamped with its
current hand (:meth:`Flow.restore`) — whoever pressed before the restart need not press
again — and waits a full ``continue_seconds`` for the others. A stamp of another hand or
match is simply stale (no clean-up needed). The rest (lapses, 再来一局 votes — a finished
room is not resumed at all) starts afresh after a restart.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

__all__ = ["Flow", "resume_settlement", "vote_key"]

R = TypeVar("R")


class _Voter(Protocol):
    @property
    def continued(self) -> str | None: ...


def vote_key(match_id: int | None, hand_no: int) -> str:
    """The stamp of a 继续 vote: which hand of which match it continues from."""
    return f"{match_id}:{hand_no}"


@dataclass
class Flow:
    continue_seconds: float
    auto_after_lapses: int
    continued: set[int] = field(default_factory=set)   # seats that pressed 继续 this settlement
    rematch: set[int] = field(default_factory=set)     # seats that accepted 再来一局
    dissolve: set[int] = field(default_factory=set)    # seats that agreed to 解散 the match
    lapses: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # timer lapses in a row
    next_hand_at: float | None = None                  # when the next hand is dealt anyway

    # ------------------------------------------------------------- settlement
    def arm(self, now: float, waiting: Iterable[int], pause: float) -> float:
        """A hand just ended: the next deal is due after ``continue_seconds`` when someone
        must press 继续 (``waiting``), else after the server's short ``pause``."""
        if self.next_hand_at is None:
            self.continued = set()
            self.next_hand_at = now + (self.continue_seconds if set(waiting) else pause)
        return self.next_hand_at

    def settled(self, now: float, waiting: Iterable[int]) -> bool:
        """May the next hand be dealt: everyone waited for pressed 继续, or time is up."""
        if self.next_hand_at is None:
            return False
        w = set(waiting)
        return (bool(w) and w <= self.continued) or now >= self.next_hand_at - 0.001

    def restore(self, seats: Sequence[_Voter], key: str, now: float, waiting: Iterable[int],
                pause: float) -> set[int]:
        """A room resumed between two hands: the settlement starts again (a full wait) with
        the 继续 votes stored on the seats for this hand (``key``); the seats taken back."""
        self.next_hand_at = None
        self.arm(now, waiting, pause)
        self.continued = {i for i, s in enumerate(seats) if s.continued == key}
        return set(self.continued)

    def dealt(self) -> None:
        self.next_hand_at = None
        self.continued = set()

    def settle_left(self, now: float) -> float | None:
        if self.next_hand_at is None:
            return None
        return max(0.0, round(self.next_hand_at - now, 2))

    # ------------------------------------------------------------- timers
    def timers(self, phase: str, hand_over: bool, over: bool, deadlines: dict[int, float],
               waiting: list[int], now: float) -> dict[str, Any]:
        """The public countdowns of a frame: ``timer`` — the turn seat's deadline, or in a
        claim window (``seat`` null) the window's end, never which seats may claim —,
        between hands ``settle`` (seconds left, who must press 继续, who did), and after
        the match ``rematch`` (the seats that accepted)."""
        out: dict[str, Any] = {}
        if deadlines and not hand_over:
            window = phase in ("claim", "rob")
            seat = None if window else min(deadlines)
            end = max(deadlines.values()) if window else deadlines[min(deadlines)]
            out["timer"] = {"seat": seat, "left": max(0.0, round(end - now, 2))}
        if hand_over and not over:
            out["settle"] = {"left": self.settle_left(now), "waiting": waiting,
                             "continued": sorted(self.continued)}
        if over:
            out["rematch"] = sorted(self.rematch)
        return out

    def lapse(self, seat: int) -> bool:
        """The seat's timer lapsed (one move is played for it); True when this lapse
        switches it to 托管 (``auto_after_lapses`` in a row)."""
        self.lapses[seat] += 1
        return self.lapses[seat] >= self.auto_after_lapses

    def acted(self, seat: int) -> None:
        """The player decided by themselves (or ended 托管): the lapse count starts over."""
        self.lapses[seat] = 0

    def dissolve_open(self, seats: list[Any]) -> tuple[list[int], list[int]] | None:
        """The open 解散 proposal as (agreed, waiting) seats, for a player who comes back
        (:meth:`laizi.server.tables.hub.Hub.join`); None when there is none."""
        if not self.dissolve:
            return None
        voters = {i for i, s in enumerate(seats) if s.human}
        return sorted(self.dissolve & voters), sorted(voters - self.dissolve)

    # ------------------------------------------------------------- match
    def new_match(self) -> None:
        self.continued = set()
        self.rematch = set()
        self.dissolve = set()
        self.lapses = [0, 0, 0, 0]
        self.next_hand_at = None


def resume_settlement(room: R) -> R:
    """A room just rebuilt from the store (:meth:`laizi.server.tables.room.Room.resume`): between two
    hands, its 継続 votes come back from its seats (:meth:`Flow.restore`). Returns the room."""
    r: Any = room
    g = r.game
    if g is not None and g.over:  # the 再来一局 votes of the match that ended
        r.flow.rematch = {i for i, s in enumerate(r.seats) if s.rematch == r.match_id}
    if g is not None and not g.over and r.match_id is not None:  # the open 解散 proposal
        r.flow.dissolve = {i for i, s in enumerate(r.seats) if s.dissolve == r.match_id}
    if g is not None and g.hand_over and not g.over:
        r.flow.restore(r.seats, vote_key(r.match_id, g.hand_no), time.monotonic(), r.waiting(),
                       r.cfg.hand_pause)
    return room
