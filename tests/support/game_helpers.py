"""Helpers for the game-engine tests: hand-built hands and scripted play."""

from __future__ import annotations

from collections.abc import Sequence

from laizi.game import (
    PASS,
    Action,
    HandState,
    arrange_wall,
)
from laizi.game.events import project
from laizi.game.replay import dump_log, parse_log, replay
from laizi.rules import RuleSet
from laizi.tiles import Tile

PRESETS = ("kaikoufan", "kaikoufan_fa", "qipisilai", "koukoufan", "jiayu")


def act(text: str) -> Action:
    """``"discard 5m"``, ``"chi 3m"`` (lowest tile), ``"peng 5m"``, ``"tsumo"``, ``"pass"``."""
    return Action.parse(text)


def hand(
    rules: RuleSet,
    hands: Sequence[str],
    *,
    dealer: int = 0,
    indicator: str = "1z",
    front: str = "",
    back: str = "",
    at: dict[int, str] | None = None,
) -> HandState:
    """A hand dealt from a hand-built wall. ``hands`` are given by absolute seat."""
    wall = arrange_wall(hands, indicator, dealer=dealer, front=front, back=back, at=at)
    return HandState.new(rules, dealer, wall=wall)


def do(state: HandState, seat: int, text: str) -> None:
    """Apply a scripted action, first passing every other seat still asked in a window."""
    action = act(text)
    if action.type not in ("ron", "kong", "peng", "chi", "pass"):
        settle_windows(state)
    while seat not in state.to_act():
        waiting = state.to_act()
        assert waiting, f"seat {seat} never gets to act ({state!r})"
        assert state.phase in ("claim", "rob"), f"seat {seat} is not to act in {state!r}"
        for s in waiting:
            state.apply(s, PASS)
    state.apply(seat, action)


def settle_windows(state: HandState) -> None:
    """Pass every open claim/rob window."""
    while state.phase in ("claim", "rob"):
        for s in state.to_act():
            state.apply(s, PASS)


def tsumogiri(state: HandState, *, stop_at_haidi: bool = False) -> None:
    """Everyone passes claims and discards its drawn tile, until the hand ends."""
    while not state.over:
        if stop_at_haidi and state.phase == "haidi":
            return
        if state.phase in ("claim", "rob"):
            settle_windows(state)
            continue
        seat = state.to_act()[0]
        if state.phase == "haidi":
            state.apply(seat, PASS)
            continue
        assert state.last_draw is not None
        state.apply(seat, Action("discard", state.last_draw))


def hidden_ok(state: HandState, seat: int | None) -> None:
    """A seat's event stream holds no other seat's concealed tiles nor server secrets."""
    for e in state.log:
        p = project(e, seat)
        if p is None:
            assert e["vis"] == "server" or e["vis"] != seat
            continue
        if p["type"] in ("deal", "draw") and p.get("seat") != seat:
            assert "tiles" not in p and "tile" not in p
        assert p["type"] not in ("secret",)
        if p["type"] == "response":
            assert p["seat"] == seat


def t(text: str) -> int:
    return Tile.parse(text).index


def throw_draws(s: HandState, *, until_wall: int | None = None) -> None:
    """Pass every claim; on a turn discard the drawn tile (else the first legal discard);
    in the haidi pass. Stops when the seat on turn sees ``until_wall`` tiles left."""
    while not s.over:
        if s.phase in ("claim", "rob"):
            settle_windows(s)
            continue
        seat = s.to_act()[0]
        if until_wall is not None and s.phase == "turn" and s.wall_remaining <= until_wall:
            return
        if s.phase == "haidi":
            s.apply(seat, PASS)
            continue
        legal = s.legal_actions(seat)
        drawn = Action("discard", s.last_draw) if s.last_draw is not None else None
        s.apply(seat, drawn if drawn in legal else next(a for a in legal if a.type == "discard"))


def check_replay(s: HandState) -> None:
    again = replay(parse_log(dump_log(s.log)))
    assert isinstance(again, HandState) and again.hash() == s.hash()
    assert s.tile_total() == [4] * 34
