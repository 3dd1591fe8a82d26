"""Events: the hand/match log and what each seat may see of it.

Every state change is one event, a JSON object with

- ``v``: its sequence number in the log (1, 2, 3, … across a whole match);
- ``type``: ``start_match``, ``start_hand``, ``secret``, ``deal``, ``draw``, ``discard``,
  ``tsumo``, ``ankong``, ``addkong``, ``special_kong``, ``laizi_kong``, ``response``,
  ``chi``, ``peng``, ``kong``, ``win``, ``ryukyoku``, ``end_hand``, ``scores``,
  ``escape``, ``auto``, ``end_match``;
- ``vis``: ``"public"``, a seat number (only that seat may see it) or ``"server"``
  (nobody during the hand: the seed and wall of the hand being played).

Seat-only ``deal`` and ``draw`` events have a public redacted twin for the other
seats (tiles removed, the count kept); a ``response`` (a seat's answer to a claim,
robbing or haidi window) is shown only to that seat, the public learns the outcome
(``chi``/``peng``/``kong``/``win`` or simply the next draw). A seat's stream (see
:func:`project` and :func:`laizi.views.events_for`) is numbered by its own ``v``
(1, 2, 3, … with no gaps, so the numbering reveals nothing about hidden events).
When a hand ends its ``end_hand`` event reveals the seed, the wall and every hand,
and its full log is public (:func:`laizi.views.hand_log`).
"""

from __future__ import annotations

from typing import Any

__all__ = ["ACTION_EVENTS", "MATCH_ACTION_EVENTS", "Event", "project", "visible_to"]

Event = dict[str, Any]

# Events that record a player's decision (replay re-applies them).
ACTION_EVENTS = frozenset({
    "discard", "tsumo", "ankong", "addkong", "special_kong", "laizi_kong", "response",
})
MATCH_ACTION_EVENTS = frozenset({"escape", "auto"})
_TWIN_DROP = {"deal": ("tiles",), "draw": ("tile",)}


def visible_to(event: Event, seat: int | None) -> bool:
    vis = event.get("vis", "public")
    return vis == "public" or (seat is not None and vis == seat)


def project(event: Event, seat: int | None) -> Event | None:
    """What ``seat`` (``None``: a spectator) sees of one event: itself, its redacted twin, or nothing."""
    vis = event.get("vis", "public")
    if vis == "public" or (seat is not None and vis == seat):
        return event
    drop = _TWIN_DROP.get(event["type"])
    if drop is None or vis == "server":
        return None
    twin = {k: val for k, val in event.items() if k not in drop}
    twin["vis"] = "public"
    return twin
