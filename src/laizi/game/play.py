"""Driving games without players: the auto-play policy for escaped or disconnected
seats, and the loops that play a hand or a match with a policy.

A *policy* is a function ``(state, seat, legal actions) -> action``; the bots in
:mod:`laizi.bots` are the real players (``laizi.sim`` wraps them into a policy).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from laizi.game.actions import PASS, Action
from laizi.game.errors import GameError
from laizi.game.match import Match
from laizi.game.state import HandState

__all__ = ["Policy", "auto_action", "play_hand", "play_match"]

# (state, seat, legal actions) -> chosen action
Policy = Callable[[HandState, int, list[Action]], Action]
_WIN: Final = ("tsumo", "ron")


def auto_action(state: HandState, seat: int) -> Action:
    """A minimal, deterministic bot: win when possible, never claim, discard the drawn
    tile (else the highest legal discard)."""
    legal = state.legal_actions(seat)
    if not legal:
        raise GameError(f"seat {seat} has nothing to decide")
    for a in legal:
        if a.type in _WIN:
            return a
    if PASS in legal:
        return PASS
    if state.last_draw is not None:
        drawn = Action("discard", state.last_draw)
        if drawn in legal:
            return drawn
    discards = [a for a in legal if a.type == "discard"]
    return discards[-1] if discards else legal[0]


def play_hand(state: HandState, policy: Policy, *, max_steps: int = 10_000) -> HandState:
    """Play a hand to its end, asking ``policy`` for every decision of every seat."""
    steps = 0
    while not state.over:
        for seat in state.to_act():
            if state.over:
                break
            legal = state.legal_actions(seat)
            if legal:
                state.apply(seat, policy(state, seat, legal))
        steps += 1
        if steps > max_steps:
            raise RuntimeError("hand did not terminate")
    return state


def play_match(match: Match, policy: Policy, *, max_steps: int = 1_000_000) -> Match:
    """Play a match to its end (dealing each next hand) with ``policy`` for every seat."""
    steps = 0
    while not match.over:
        hand = match.hand
        assert hand is not None
        if hand.over:
            match.start_next_hand()
            continue
        for seat in hand.to_act():
            if hand.over:
                break
            legal = hand.legal_actions(seat)
            if legal:
                match.apply(seat, policy(hand, seat, legal))
        steps += 1
        if steps > max_steps:
            raise RuntimeError("match did not terminate")
    return match
