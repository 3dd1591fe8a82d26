"""Per-seat projections of a hand or match: JSON views, event streams, finished logs.

``view(game, seat)`` gives a seat its own concealed tiles and legal actions plus
everyone's public information; ``view(game, None)`` is the spectator's view. A view
never holds another seat's concealed tiles, the wall order or the seed before the
hand ends; once the hand is over its result, every hand, the seed and the wall are
public. ``events_for(game, seat)`` is the seat's filtered event stream (redacted
twins for other seats' deals and draws; other seats' claim answers and the server's
secret left out), numbered 1, 2, 3, … in the seat's own sequence. ``hand_log``
gives the full log of a finished hand.
"""

from __future__ import annotations

from typing import Any

from laizi.game import Event, HandState, Match, project
from laizi.views.snapshot import match_to_json, match_view, seat_view, to_json

__all__ = ["Game", "events_for", "hand_log", "project_event", "view"]

Game = HandState | Match


def project_event(event: Event, seat: int | None) -> Event | None:
    """What ``seat`` (``None``: a spectator) sees of one log event: the event itself, its
    redacted twin (another seat's deal or draw) or nothing (:func:`laizi.game.project`)."""
    return project(event, seat)


def _check_seat(seat: object) -> None:
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < 4):
        raise ValueError(f"seat must be 0-3 or None, got {seat!r}")


def view(game: Game, seat: int | None) -> dict[str, Any]:
    """A seat's (or, with ``None``, a spectator's) JSON view of a hand or a match
    (the snapshot of :func:`laizi.views.seat_view` written by :func:`laizi.views.to_json`)."""
    _check_seat(seat)
    if isinstance(game, HandState):
        return to_json(seat_view(game, seat, copy=False))
    return match_to_json(match_view(game, seat, copy=False, history=[]))


def events_for(game: Game, seat: int | None, since: int = 0) -> list[Event]:
    """The seat's event stream after its ``since``-th event (``v`` renumbered per seat)."""
    _check_seat(seat)
    out: list[Event] = []
    n = 0
    for e in game.log:
        p = project(e, seat)
        if p is None:
            continue
        n += 1
        if n <= since:
            continue
        q = dict(p)
        q["v"] = n
        out.append(q)
    return out


def hand_log(game: Game, hand_no: int | None = None) -> list[Event]:
    """The full (unredacted) log of a finished hand; raises if it is still being played."""
    if isinstance(game, HandState):
        if not game.over:
            raise ValueError("the hand is not over: its full log is not public yet")
        return list(game.events)
    target = game.hand_no if hand_no is None else hand_no
    out: list[Event] = []
    inside = False
    for e in game.log:
        if e["type"] == "start_hand":
            inside = e.get("hand") == target
        if inside:
            out.append(e)
            if e["type"] == "end_hand":
                return out
    raise ValueError(f"hand {target} is not over (or does not exist): its full log is not public")
