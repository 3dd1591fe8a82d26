"""Per-seat projections: the only way game state leaves the engine.

- :class:`SeatView` (built by :func:`seat_view`; :class:`MatchView` by :func:`match_view`)
  is the one typed per-seat snapshot: what one seat may know now. Bots, hints, the RL
  env and the server's frames all read it (:mod:`laizi.views.snapshot`).
- :func:`to_json` / :func:`from_json` are its one JSON writer and reader; :func:`view` is
  the JSON view of a hand or match for a seat.
- :func:`events_for` is a seat's event stream (:func:`project_event` one event of it),
  :func:`hand_log` a finished hand's full log (:mod:`laizi.views.project`).

A snapshot never holds another seat's concealed tiles, the wall order or the seed
before the hand ends; once the hand is over its result, every hand, the seed and the
wall are public (:class:`Reveal`).
"""

from laizi.views.project import Game, events_for, hand_log, project_event, view
from laizi.views.snapshot import (
    MARK_KEYS,
    MatchView,
    Reveal,
    SeatView,
    from_json,
    history_rows,
    match_to_json,
    match_view,
    meld_from_json,
    meld_to_json,
    own_key,
    public_key,
    public_marks,
    public_moves,
    seat_view,
    to_json,
)

__all__ = [
    "MARK_KEYS", "Game", "MatchView", "Reveal", "SeatView", "events_for", "from_json", "hand_log",
    "history_rows", "match_to_json", "match_view", "meld_from_json", "meld_to_json",
    "own_key", "project_event", "public_key", "public_marks", "public_moves", "seat_view", "to_json", "view",
]
