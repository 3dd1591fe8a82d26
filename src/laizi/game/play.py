"""Driving games without players: a random legal-play policy, a minimal auto-play
policy for escaped or disconnected seats, and fast hand/match generators."""

from __future__ import annotations

import random
from collections.abc import Callable

from laizi.analysis import shanten
from laizi.game.actions import PASS, Action
from laizi.game.match import Match
from laizi.game.state import HandState
from laizi.rules import RuleSet

__all__ = ["Policy", "auto_action", "greedy_policy", "play_hand", "play_match", "random_policy",
           "random_hand"]

# (state, seat, legal actions) -> chosen action
Policy = Callable[[HandState, int, list[Action]], Action]
_WIN = ("tsumo", "ron")


def auto_action(state: HandState, seat: int) -> Action:
    """A minimal, deterministic bot: win when possible, never claim, discard the drawn
    tile (else the highest legal discard)."""
    legal = state.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to decide")
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


def random_policy(rng: random.Random, *, win: float = 1.0, claim: float = 0.5,
                  kong: float = 0.8) -> Policy:
    """Random legal play: takes a win with probability ``win``, a chi/peng/kong claim
    with ``claim``, an own-turn kong with ``kong``; otherwise a random discard or pass."""

    def choose(state: HandState, seat: int, legal: list[Action]) -> Action:
        wins = [a for a in legal if a.type in _WIN]
        if wins and rng.random() < win:
            return wins[0]
        claims = [a for a in legal if a.type in ("chi", "peng", "kong")]
        if claims and rng.random() < claim:
            return rng.choice(claims)
        kongs = [a for a in legal if a.type in ("ankong", "addkong", "special_kong", "laizi_kong")]
        if kongs and rng.random() < kong:
            return rng.choice(kongs)
        rest = [a for a in legal if a.type in ("discard", "pass")]
        if not rest:
            rest = legal
        return rng.choice(rest)

    return choose


def greedy_policy(rng: random.Random, *, claim: float = 0.7) -> Policy:
    """A stronger random bot (more wins in simulations): always wins, always kongs,
    claims with probability ``claim``, discards a special tile first, else a tile whose
    removal leaves the lowest shanten (laizi as wilds; ties broken at random)."""

    def choose(state: HandState, seat: int, legal: list[Action]) -> Action:
        for a in legal:
            if a.type in _WIN:
                return a
        kongs = [a for a in legal if a.type in ("ankong", "addkong", "special_kong", "laizi_kong", "kong")]
        if kongs:
            return rng.choice(kongs)
        claims = [a for a in legal if a.type in ("chi", "peng")]
        if claims and rng.random() < claim:
            return rng.choice(claims)
        discards = [a for a in legal if a.type == "discard"]
        if not discards:
            return PASS if PASS in legal else legal[0]
        special = state.setup.special
        for a in discards:
            if a.tile in special:
                return a
        lz = state.setup.laizi
        h = list(state.hands[seat])
        wild = h[lz]
        h[lz] = 0
        best: list[Action] = []
        best_v = 99
        for a in discards:
            k = a.tile
            assert k is not None
            if k == lz:
                v = shanten(h, wild - 1) + 1  # keep laizi unless nothing else
            else:
                h[k] -= 1
                v = shanten(h, wild)
                h[k] += 1
            if v < best_v:
                best, best_v = [a], v
            elif v == best_v:
                best.append(a)
        return rng.choice(best)

    return choose


def play_hand(state: HandState, policy: Policy, *, max_steps: int = 10_000) -> HandState:
    """Play a hand to its end with one policy for every seat."""
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


def random_hand(rules: RuleSet, seed: int, *, dealer: int | None = None,
                greedy: bool = False) -> HandState:
    """One hand played by :func:`random_policy` (or :func:`greedy_policy`), fully
    reproducible from ``seed``."""
    rng = random.Random(seed)
    wall_seed = rng.randbytes(32)
    d = rng.randrange(4) if dealer is None else dealer
    state = HandState.new(rules, d, seed=wall_seed, hand_no=1)
    policy = greedy_policy(rng) if greedy else random_policy(rng)
    return play_hand(state, policy)
