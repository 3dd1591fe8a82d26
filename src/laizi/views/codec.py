"""The JSON form of a snapshot: one writer (:func:`to_json`), one reader (:func:`from_json`).

The schema (what :func:`laizi.views.view` returns)::

    {"hand": 1, "dealer": 0, "phase": "turn", "turn": 0, "wall_remaining": 70,
     "indicator": "5m", "laizi": "6m", "special": [...], "pizi": [...],
     "commitment": "...", "pending": {"seat", "tile", "kind"}?,
     "seats": [{"seat", "melds": [MELD], "river", "special_kongs",
                "special_discards", "concealed", "opened"} × 4],
     "me": {"seat", "hand", "tiles", "legal_actions", "drawn"?, "after_claim"?,
            "answered"?}?,                               # absent for a spectator
     "to_act": true | false | null,
     "result", "payments", "hands", "seed", "wall"}      # the last five once revealed

with ``MELD = {"type", "tile", "tiles", "from"?}`` (:func:`meld_to_json`). A match view
wraps it: ``{"match": {...}, "hand_view": HAND | null}``. Tiles are written as text
(``"5m"``); concealed hands as compact text (``"123m55z"``) and, for the seat itself,
also as a list of tiles.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from laizi.game.actions import TILE_STR, Action, tile_from_str
from laizi.rules import RuleSet
from laizi.scoring.model import Meld
from laizi.tiles import counts_to_str, parse_tiles
from laizi.views.snapshot import MatchView, Reveal, SeatView

__all__ = ["from_json", "match_to_json", "meld_from_json", "meld_to_json", "to_json"]

_MELD_TYPES = frozenset({"chi", "peng", "kong", "addkong", "ankong"})


def meld_to_json(m: Meld, *, tiles_as_list: bool = False) -> dict[str, Any]:
    """A meld as JSON: ``type``, ``tile`` (the lowest for a chi), ``tiles``, ``from`` (if any).

    ``tiles`` is compact text (``"123m"``), or a list of tiles with ``tiles_as_list``.
    """
    ts = [TILE_STR[k] for k in m.tiles()]
    d: dict[str, Any] = {"type": m.type, "tile": TILE_STR[m.tile],
                         "tiles": ts if tiles_as_list else "".join(ts)}
    if m.from_seat is not None:
        d["from"] = m.from_seat
    return d


def meld_from_json(d: Any) -> Meld:
    """The inverse of :func:`meld_to_json`."""
    if not isinstance(d, Mapping) or d.get("type") not in _MELD_TYPES:
        raise ValueError(f"bad meld {d!r}")
    frm = d.get("from")
    if frm is not None and not (isinstance(frm, int) and 0 <= frm < 4):
        raise ValueError(f"bad meld {d!r}: 'from' must be a seat 0-3")
    return Meld(d["type"], tile_from_str(str(d.get("tile"))), frm)


def _tiles(ks: list[int]) -> list[str]:
    return [TILE_STR[k] for k in ks]


def _hand_json(v: SeatView) -> dict[str, Any]:
    phase = v.phase
    out: dict[str, Any] = {
        "hand": v.hand_no,
        "dealer": v.dealer,
        "phase": phase,
        "turn": v.turn,
        "wall_remaining": v.wall_remaining,
        "indicator": None if v.indicator is None else TILE_STR[v.indicator],
        "laizi": TILE_STR[v.setup.laizi],
        "special": [TILE_STR[k] for k in sorted(v.setup.special)],
        "pizi": [TILE_STR[k] for k in sorted(v.setup.pizi)],
        "commitment": v.commitment,
    }
    if v.pending is not None:
        out["pending"] = {"seat": v.turn, "tile": TILE_STR[v.pending],
                          "kind": "discard" if phase == "claim" else "addkong"}
    out["seats"] = [{
        "seat": s,
        "melds": [meld_to_json(m) for m in v.melds[s]],
        "river": _tiles(v.rivers[s]),
        "special_kongs": _tiles(v.special_kongs[s]),
        "special_discards": _tiles(v.special_discards[s]),
        "concealed": v.hand_sizes[s],
        "opened": v.opened(s),
    } for s in range(4)]
    return out


def _me_json(v: SeatView) -> dict[str, Any]:
    hand = v.hand
    me: dict[str, Any] = {
        "seat": v.seat,
        "hand": counts_to_str(hand),
        "tiles": [TILE_STR[k] for k in range(34) for _ in range(hand[k])],
        "legal_actions": [a.to_json() for a in v.legal],
    }
    if v.last_draw is not None:
        me["drawn"] = TILE_STR[v.last_draw]
    if v.after_claim:
        me["after_claim"] = True
    if v.answered is not None:
        me["answered"] = v.answered.to_json()
    return me


def to_json(v: SeatView) -> dict[str, Any]:
    """The JSON view of a hand snapshot (the schema in the module docstring)."""
    out = _hand_json(v)
    if v.spectator:
        out["to_act"] = None  # spectators see whose own turn it is, never who may claim
    else:
        me = _me_json(v)
        out["me"] = me
        out["to_act"] = bool(me["legal_actions"])
    r = v.revealed
    if r is not None:
        out["result"] = r.result
        out["payments"] = r.payments
        out["hands"] = [counts_to_str(h) for h in r.hands]
        out["seed"] = None if r.seed is None else r.seed.hex()
        out["wall"] = None if r.wall is None else "".join(TILE_STR[k] for k in r.wall)
    return out


def match_to_json(mv: MatchView) -> dict[str, Any]:
    """The JSON view of a match snapshot: ``{"match": {...}, "hand_view": ...}``."""
    return {
        "match": {
            "hand_no": mv.hand_no, "round": mv.round, "rounds": mv.rounds,
            "dealer": mv.dealer, "scores": mv.scores, "auto": mv.auto,
            "escaped": mv.escaped, "over": mv.over, "preset": mv.preset,
        },
        "hand_view": None if mv.hand is None else to_json(mv.hand),
    }


# ---------------------------------------------------------------------- reading
def _tile(value: Any) -> int | None:
    return None if value is None else tile_from_str(str(value))


def _tile_list(value: Any) -> list[int]:
    if not isinstance(value, list):
        raise ValueError(f"expected a list of tiles, got {value!r}")
    return [tile_from_str(str(x)) for x in value]


def _counts(text: Any) -> list[int]:
    c = [0] * 34
    for t in parse_tiles(str(text)) if text else []:
        c[t.index] += 1
    return c


def _reveal_from(hv: Mapping[str, Any]) -> Reveal | None:
    if "hands" not in hv:
        return None
    seed = hv.get("seed")
    wall = hv.get("wall")
    return Reveal(
        hands=[_counts(h) for h in hv["hands"]], result=hv.get("result"),
        payments=hv.get("payments"), seed=None if seed is None else bytes.fromhex(seed),
        wall=None if wall is None else tuple(t.index for t in parse_tiles(wall)),
    )


def _rules_for(view: Mapping[str, Any], rules: RuleSet | None) -> RuleSet:
    if rules is not None:
        return rules
    match = view.get("match")
    preset = match.get("preset") if isinstance(match, Mapping) else None
    return RuleSet.preset(str(preset or "kaikoufan"))


def from_json(view: Any, rules: RuleSet | None = None) -> SeatView:
    """Read a hand or match view written by :func:`to_json` / :func:`match_to_json`.

    The JSON carries no rule set: pass ``rules`` (else the match view's ``preset``,
    else ``kaikoufan``). Raises ``ValueError`` on anything else.
    """
    if not isinstance(view, Mapping):
        raise ValueError("a view is a JSON object")
    try:
        r = _rules_for(view, rules)
        hv = view.get("hand_view", view) if "match" in view else view
        if not isinstance(hv, Mapping):
            raise ValueError("the view has no hand in play")
        return _read_hand(hv, r)
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"bad view: {exc!r}") from None


def _read_hand(hv: Mapping[str, Any], rules: RuleSet) -> SeatView:
    indicator = _tile(hv.get("indicator"))
    setup = (rules.setup(indicator=indicator) if indicator is not None
             else rules.setup(laizi=_tile(hv["laizi"])))
    seats = hv["seats"]
    if not isinstance(seats, list) or len(seats) != 4:
        raise ValueError("a view has four seats")
    me = hv.get("me")
    pending = hv.get("pending")
    return SeatView(
        seat=0 if me is None else int(me["seat"]), rules=rules, setup=setup,
        dealer=int(hv["dealer"]), phase=str(hv["phase"]), turn=int(hv["turn"]),
        hand=[0] * 34 if me is None else _counts(me["hand"]),
        melds=[[meld_from_json(m) for m in p["melds"]] for p in seats],
        rivers=[_tile_list(p["river"]) for p in seats],
        special_kongs=[_tile_list(p["special_kongs"]) for p in seats],
        special_discards=[_tile_list(p["special_discards"]) for p in seats],
        hand_sizes=[int(p["concealed"]) for p in seats],
        wall_remaining=int(hv["wall_remaining"]),
        legal=[] if me is None else [Action.from_json(a) for a in me["legal_actions"]],
        pending=None if pending is None else _tile(pending["tile"]),
        last_draw=None if me is None else _tile(me.get("drawn")),
        after_claim=me is not None and bool(me.get("after_claim", False)), indicator=indicator,
        hand_no=int(hv["hand"]), commitment=str(hv.get("commitment", "")),
        spectator=me is None,
        answered=None if me is None or "answered" not in me else Action.from_json(me["answered"]),
        revealed=_reveal_from(hv),
    )
