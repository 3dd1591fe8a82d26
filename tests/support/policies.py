"""Test-only policies: random legal play (fast, covers odd corners) and a greedy
shanten-lowering variant, plus a reproducible random hand."""

from __future__ import annotations

import random

from laizi.analysis import shanten
from laizi.game.actions import PASS, Action
from laizi.game.play import Policy, play_hand
from laizi.game.state import HandState
from laizi.rules import RuleSet

_WIN = ("tsumo", "ron")


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
    """A stronger random bot: always wins, always kongs, claims with probability
    ``claim``, discards a special tile first, else a tile whose removal leaves the
    lowest shanten (laizi as wilds; ties broken at random)."""

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
