"""Per-seat projections: the only way game state leaves the engine.

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

from laizi.game.actions import TILE_STR
from laizi.game.events import Event, project
from laizi.game.match import Match
from laizi.game.state import HandState
from laizi.game.wall import wall_to_str
from laizi.scoring import Meld
from laizi.tiles import counts_to_str

__all__ = ["events_for", "hand_log", "view"]

Game = HandState | Match


def _meld(m: Meld) -> dict[str, Any]:
    d: dict[str, Any] = {"type": m.type, "tile": TILE_STR[m.tile],
                         "tiles": "".join(TILE_STR[k] for k in m.tiles())}
    if m.from_seat is not None:
        d["from"] = m.from_seat
    return d


def _tiles(ks: list[int]) -> list[str]:
    return [TILE_STR[k] for k in ks]


def hand_view(state: HandState, seat: int | None) -> dict[str, Any]:
    """The view of one hand (see the module docstring)."""
    over = state.phase == "over"
    phase = state.phase
    v: dict[str, Any] = {
        "hand": state.hand_no,
        "dealer": state.dealer,
        "phase": phase,
        "turn": state.turn,
        "wall_remaining": state.wall_remaining,
        "indicator": TILE_STR[state.indicator],
        "laizi": TILE_STR[state.setup.laizi],
        "special": [TILE_STR[k] for k in sorted(state.setup.special)],
        "pizi": [TILE_STR[k] for k in sorted(state.setup.pizi)],
        "commitment": state.commitment,
    }
    if phase in ("claim", "rob") and state.pending is not None:
        v["pending"] = {"seat": state.turn, "tile": TILE_STR[state.pending],
                        "kind": "discard" if phase == "claim" else "addkong"}
    seats = []
    for s in range(4):
        seats.append({
            "seat": s,
            "melds": [_meld(m) for m in state.melds[s]],
            "river": _tiles(state.rivers[s]),
            "special_kongs": _tiles(state.special_kongs[s]),
            "special_discards": _tiles(state.special_discards[s]),
            "concealed": state.concealed_count(s),
            "opened": state.opened(s),
        })
    v["seats"] = seats
    if seat is not None:
        hand = state.hands[seat]
        me: dict[str, Any] = {
            "seat": seat,
            "hand": counts_to_str(hand),
            "tiles": [TILE_STR[k] for k in range(34) for _ in range(hand[k])],
            "legal_actions": [a.to_json() for a in state.legal_actions(seat)],
        }
        if phase in ("turn", "haidi") and state.turn == seat and state.last_draw is not None:
            me["drawn"] = TILE_STR[state.last_draw]
        if seat in state.responses:
            me["answered"] = state.responses[seat].to_json()
        v["me"] = me
        v["to_act"] = bool(me["legal_actions"])
    else:
        # Spectators see whose own turn it is, never who may claim.
        v["to_act"] = None
    if over:
        v["result"] = state.result
        v["payments"] = state.payments
        v["hands"] = [counts_to_str(h) for h in state.hands]
        v["seed"] = None if state.seed is None else state.seed.hex()
        v["wall"] = wall_to_str(state.wall)
    return v


def view(game: Game, seat: int | None) -> dict[str, Any]:
    """A seat's (or, with ``None``, a spectator's) view of a hand or a match."""
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < 4):
        raise ValueError(f"seat must be 0-3 or None, got {seat!r}")
    if isinstance(game, HandState):
        return hand_view(game, seat)
    v: dict[str, Any] = {
        "match": {
            "hand_no": game.hand_no,
            "round": game.round,
            "rounds": game.rules.rounds,
            "dealer": game.dealer,
            "scores": game.score_values(),
            "auto": list(game.auto),
            "escaped": list(game.escaped),
            "over": game.over,
            "preset": game.rules.preset_name,
        },
    }
    v["hand_view"] = None if game.hand is None else hand_view(game.hand, seat)
    return v


def _log(game: Game) -> list[Event]:
    return game.log


def events_for(game: Game, seat: int | None, since: int = 0) -> list[Event]:
    """The seat's event stream after its ``since``-th event (``v`` renumbered per seat)."""
    out: list[Event] = []
    n = 0
    for e in _log(game):
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
    log = _log(game)
    if isinstance(game, HandState):
        if not game.over:
            raise ValueError("the hand is not over: its full log is not public yet")
        return list(game.events)
    target = game.hand_no if hand_no is None else hand_no
    out: list[Event] = []
    inside = False
    for e in log:
        if e["type"] == "start_hand":
            inside = e.get("hand") == target
        if inside:
            out.append(e)
            if e["type"] == "end_hand":
                return out
    raise ValueError(f"hand {target} is not over (or does not exist): its full log is not public")
