"""Events: the hand/match log and what each seat may see of it.

Every state change is one event, a JSON object with

- ``v``: its sequence number in the log (1, 2, 3, … across a whole match);
- ``type``: one of the 23 kinds of :data:`EVENT_TYPES`; each kind's fields are its
  TypedDict in :data:`EVENT_SCHEMAS` (:func:`event_problems` checks an event's keys);
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

# (no "from __future__ import annotations": TypedDict must see NotRequired at runtime)
from typing import Any, Literal, NotRequired, TypedDict, get_args

__all__ = [
    "ACTION_EVENTS", "EVENT_SCHEMAS", "EVENT_TYPES", "MATCH_ACTION_EVENTS", "AnyEvent",
    "Event", "EventType", "event_problems", "project", "visible_to",
    "StartMatchEvent", "StartHandEvent", "SecretEvent", "DealEvent", "DrawEvent",
    "DiscardEvent", "TsumoEvent", "KongEvent", "ResponseEvent", "ChiEvent", "ClaimEvent",
    "ReplaceEvent", "WinEvent", "RyukyokuEvent", "EndHandEvent", "ScoresEvent", "EscapeEvent", "AutoEvent",
    "EndMatchEvent",
]

#: An event as it travels (JSON object); :data:`AnyEvent` gives each kind's fields.
Event = dict[str, Any]

#: The 23 event kinds, in the order a game produces them.
EventType = Literal[
    "start_match", "start_hand", "secret", "deal", "draw", "discard", "tsumo", "ankong",
    "addkong", "special_kong", "laizi_kong", "response", "chi", "peng", "kong", "replace",
    "win", "ryukyoku", "end_hand", "scores", "escape", "auto", "end_match",
]
EVENT_TYPES: tuple[str, ...] = get_args(EventType)

Vis = int | Literal["public", "server"]


# Every event has ``type``, ``v`` (its number) and ``vis`` (who may see it).
class StartMatchEvent(TypedDict):
    type: Literal["start_match"]
    v: int
    vis: Vis
    rules: dict[str, Any]  # RuleSet.model_dump(mode="json")
    first_dealer: int
    max_hands: int | None
    auto_next: bool
    fixed_dealers: NotRequired[bool]  # only when True (Match: no 连庄, duplicate rounds)
    seating: NotRequired[dict[str, Any]]  # only under seating_ceremony (laizi.game.seating)


class StartHandEvent(TypedDict):
    type: Literal["start_hand"]
    v: int
    vis: Vis
    hand: int
    dealer: int
    rules: NotRequired[dict[str, Any]]  # a stand-alone hand
    round: NotRequired[int]  # a hand of a match
    scores: NotRequired[list[int | float]]  # a hand of a match: scores before it
    commitment: str  # SHA-256 commitment to the seed and wall
    indicator: str
    laizi: str
    special: list[str]
    pizi: list[str]
    wall_size: int


class SecretEvent(TypedDict):
    type: Literal["secret"]
    v: int
    vis: Literal["server"]
    hand: int
    seed: str | None  # hex
    wall: str


class DealEvent(TypedDict):
    type: Literal["deal"]
    v: int
    vis: Vis
    seat: int
    tiles: NotRequired[str]  # absent in the public twin
    count: int


class DrawEvent(TypedDict):
    type: Literal["draw"]
    v: int
    vis: Vis
    seat: int
    tile: NotRequired[str]  # absent in the public twin
    src: Literal["front", "back", "haidi"]


DiscardEvent = TypedDict("DiscardEvent", {
    "type": Literal["discard"], "v": int, "vis": Vis, "seat": int, "tile": str,
    "as": NotRequired[Literal["laizi", "special"]],  # a laizi or special tile: no claims
})


class TsumoEvent(TypedDict):
    type: Literal["tsumo"]
    v: int
    vis: Vis
    seat: int


class KongEvent(TypedDict):
    """``ankong``, ``addkong``, ``special_kong``, ``laizi_kong``: a kong on one's own turn."""

    type: Literal["ankong", "addkong", "special_kong", "laizi_kong"]
    v: int
    vis: Vis
    seat: int
    tile: str


class ResponseEvent(TypedDict):
    type: Literal["response"]
    v: int
    vis: int  # only the answering seat sees it
    seat: int
    action: dict[str, Any]  # Action.to_json()


ClaimEvent = TypedDict("ClaimEvent", {  # peng, kong (直杠)
    "type": Literal["peng", "kong"], "v": int, "vis": Vis, "seat": int, "tile": str,
    "from": int,
})

ChiEvent = TypedDict("ChiEvent", {
    "type": Literal["chi"], "v": int, "vis": Vis, "seat": int, "tile": str, "from": int,
    "run": str,  # the lowest tile of the run
})

class ReplaceEvent(TypedDict):
    """After a kong under ``kong_draw_choice``: the seat draws its replacement (a ``draw``
    from the back follows) or not (不补: the next seat draws)."""

    type: Literal["replace"]
    v: int
    vis: Vis
    seat: int
    draw: bool


WinEvent = TypedDict("WinEvent", {
    "type": Literal["win"], "v": int, "vis": Vis, "seat": int,
    "by": Literal["discard", "self_draw", "rob_kong"], "from": int | None, "tile": str,
    "after_kong": bool, "haidi": bool,
    "hand": str,  # the winner's concealed tiles, winning tile included
    "melds": list[dict[str, Any]],  # {"type", "tile", "from"?}
    "score": dict[str, Any],  # ScoreResult.to_dict()
})


class RyukyokuEvent(TypedDict):
    type: Literal["ryukyoku"]
    v: int
    vis: Vis
    reason: Literal["exhausted", "dissolved"]


class EndHandEvent(TypedDict):
    type: Literal["end_hand"]
    v: int
    vis: Vis
    hand: int
    seed: str | None
    wall: str
    hands: list[str]
    deltas: list[float]
    winner: int | None


class ScoresEvent(TypedDict):
    type: Literal["scores"]
    v: int
    vis: Vis
    hand: int
    deltas: list[float]
    scores: list[int | float]
    next_dealer: int
    deal_passes: int


class EscapeEvent(TypedDict):
    type: Literal["escape"]
    v: int
    vis: Vis
    seat: int
    penalty: int
    deltas: list[int | float]
    scores: list[int | float]


class AutoEvent(TypedDict):
    type: Literal["auto"]
    v: int
    vis: Vis
    seat: int
    on: bool


class EndMatchEvent(TypedDict):
    type: Literal["end_match"]
    v: int
    vis: Vis
    reason: Literal["rounds", "max_hands", "dissolved"]
    scores: list[int | float]
    hands: int


AnyEvent = (
    StartMatchEvent | StartHandEvent | SecretEvent | DealEvent | DrawEvent | DiscardEvent
    | TsumoEvent | KongEvent | ResponseEvent | ClaimEvent | ChiEvent | ReplaceEvent | WinEvent
    | RyukyokuEvent | EndHandEvent | ScoresEvent | EscapeEvent | AutoEvent | EndMatchEvent
)

#: Event kind -> its TypedDict (the fields every such event has, and may have).
EVENT_SCHEMAS: dict[str, Any] = {
    "start_match": StartMatchEvent, "start_hand": StartHandEvent, "secret": SecretEvent,
    "deal": DealEvent, "draw": DrawEvent, "discard": DiscardEvent, "tsumo": TsumoEvent,
    "ankong": KongEvent, "addkong": KongEvent, "special_kong": KongEvent,
    "laizi_kong": KongEvent, "response": ResponseEvent, "chi": ChiEvent, "peng": ClaimEvent,
    "kong": ClaimEvent, "replace": ReplaceEvent, "win": WinEvent, "ryukyoku": RyukyokuEvent, "end_hand": EndHandEvent,
    "scores": ScoresEvent, "escape": EscapeEvent, "auto": AutoEvent, "end_match": EndMatchEvent,
}
assert tuple(EVENT_SCHEMAS) == EVENT_TYPES


def event_problems(event: Event) -> list[str]:
    """What is wrong with an event's keys (unknown kind, missing or unexpected fields);
    empty for a well-formed event. Values are not checked."""
    schema = EVENT_SCHEMAS.get(event.get("type"))  # type: ignore[arg-type]
    if schema is None:
        return [f"unknown event type {event.get('type')!r}"]
    required: frozenset[str] = schema.__required_keys__
    allowed = required | schema.__optional_keys__
    out = [f"missing {k!r}" for k in sorted(required - event.keys())]
    out += [f"unexpected {k!r}" for k in sorted(event.keys() - allowed)]
    return out

# Events that record a player's decision (replay re-applies them).
ACTION_EVENTS = frozenset({
    "discard", "tsumo", "ankong", "addkong", "special_kong", "laizi_kong", "response", "replace",
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
