"""Experiment (switched off): determinized Monte Carlo search (registry name
``expert-search``: claims and kong turns).

At a searched decision the bot

1. picks a few **candidates**: the default policy's choice, the discards that keep the
   hand closest to ready (fewest shanten, most unseen improving tiles), every kong on
   offer, and for a claim both taking and passing;
2. samples ``worlds`` **determinizations**: the tiles it cannot see (other seats'
   concealed hands, the wall) dealt at random from exactly the copies it has not seen,
   each seat getting as many as it holds — the deck is built from the
   :class:`~laizi.bots.base.SeatView` alone, so nothing outside the view can leak in;
3. plays every candidate out in every world with the engine itself
   (:func:`laizi.game.position.position`: real claims, kongs, scoring, caps and
   liability), its own seat then played by ``strong`` and the others by the fast
   ``greedy``, with the same world and the same policy seeds for each candidate
   (common random numbers);
4. keeps the default choice unless another candidate has the highest mean
   settlement points for its seat *and* beats it by more than ``z`` standard errors
   of their paired per-world difference (and by ``margin``): the search overrides
   the policy only where the evidence is clear.

A hand's points vary by hundreds from one playout to the next, so a dozen worlds
separate only large differences; in the arena the search did not pay for its time.
The randomness of a decision is seeded from the bot's seed and the view's public and
own content, so a bot with a given seed makes the same choice for the same view,
whatever the hidden tiles are.
"""

from __future__ import annotations

import hashlib
import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from laizi.analysis import shanten
from laizi.bots.base import Bot, SeatView
from laizi.bots.greedy import GreedyBot
from laizi.bots.strong import StrongBot
from laizi.bots.worlds import sample_world
from laizi.game.actions import Action
from laizi.game.state import HandState
from laizi.tiles import NUM_KINDS

__all__ = ["KONG_TYPES", "Search", "SearchConfig"]

KONG_TYPES = ("ankong", "addkong", "special_kong", "laizi_kong", "kong")


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """The search's settings."""

    worlds: int = 12  # determinizations per decision (at most)
    max_candidates: int = 4  # actions compared at one decision
    margin: float = 0.0  # a candidate must beat the default choice by more than this …
    z: float = 2.0  # … and by more than z standard errors of the paired difference
    playout_steps: int = 400  # safety bound on a playout's decisions
    #: Engine steps (actions applied in playouts) one decision may spend: no new world is
    #: started past it. A count, not a clock, so decisions stay deterministic; ~25 µs a
    #: step on one core (more with the strong policy) keeps a decision near ≤ 200 ms.
    step_budget: int = 1500
    #: Which decisions are searched: ``"open"`` — claims and kong turns, where the choice
    #: moves fan and payments by tens of points; ``"kong"`` — kong decisions only;
    #: ``"all"`` — discards too (their differences are small against the playouts' noise).
    search: str = "open"
    #: The policy that plays the bot's own seat after the first move in a playout
    #: (``"strong"``: the candidates are judged as strong would go on; ``"greedy"``:
    #: cheaper). The other seats are always ``greedy``.
    own_policy: str = "strong"


class Search:
    """The search of one bot: its seed, settings and ``strong`` core (for playouts)."""

    def __init__(self, seed: int, config: SearchConfig, core: StrongBot) -> None:
        self.seed = seed
        self.config = config
        self._core_params = core.p
        self.searches = 0  # decisions that ran a search (statistics)
        self._steps = 0

    def core(self, seed: int) -> StrongBot:
        return StrongBot(seed, self._core_params)

    def wants(self, view: SeatView) -> bool:
        """Whether this decision is searched."""
        c = self.config.search
        if c == "none" or view.phase not in ("turn", "claim"):
            return False
        kongs = any(a.type in KONG_TYPES for a in view.legal)
        if c == "open":
            return view.phase == "claim" or kongs
        if c == "kong":
            return kongs
        return True

    def choose(self, view: SeatView, default: Action) -> Action:
        """The default choice, or a candidate that beats it clearly in the playouts."""
        cands = self._candidates(view, default)
        if len(cands) < 2:
            return default
        per_world = self.playouts(view, cands)
        if len(per_world) < 2:
            return default
        n = len(per_world)
        means = [sum(w[i] for w in per_world) / n for i in range(len(cands))]
        best = max(range(len(cands)), key=lambda i: (means[i], cands[i] == default))
        if cands[best] == default:
            return default
        d = cands.index(default)
        diffs = [w[best] - w[d] for w in per_world]
        gain = sum(diffs) / n
        sd = statistics.stdev(diffs)
        if gain <= max(self.config.margin, self.config.z * sd / math.sqrt(n)):
            return default
        return cands[best]

    # ---------------------------------------------------------- candidates
    def _candidates(self, view: SeatView, default: Action) -> list[Action]:
        out = [default]
        legal = view.legal
        if view.phase == "claim":
            pas = next((a for a in legal if a.type == "pass"), None)
            if pas is not None and pas not in out:
                out.append(pas)
            for a in legal:
                if a.type != "pass" and a not in out:
                    out.append(a)
            return out[: self.config.max_candidates]
        for a in legal:
            if a.type in KONG_TYPES and a not in out:
                out.append(a)
        discards = [a for a in legal if a.type == "discard"]
        ranked = self._rank_discards(view, discards)
        for a in ranked:
            if len(out) >= self.config.max_candidates:
                break
            if a not in out:
                out.append(a)
        return out

    def _rank_discards(self, view: SeatView, discards: Sequence[Action]) -> list[Action]:
        """Discards by (shanten after, −unseen improving copies), natural tiles only."""
        lz = view.laizi
        special = view.special
        hand = list(view.hand)
        wilds = hand[lz]
        nat = list(hand)
        nat[lz] = 0
        for sp in special:
            nat[sp] = 0
        unseen = view.unseen()
        scored: list[tuple[int, int, int, Action]] = []
        for a in discards:
            if a.tile is None or a.tile == lz or a.tile in special:
                continue
            k = a.tile
            nat[k] -= 1
            sh = shanten(nat, wilds)
            imp = 0
            for t in range(NUM_KINDS):
                if unseen[t] and t != lz and t not in special:
                    nat[t] += 1
                    if shanten(nat, wilds) < sh:
                        imp += unseen[t]
                    nat[t] -= 1
            nat[k] += 1
            scored.append((sh, -imp, k, a))
        scored.sort(key=lambda x: (x[0], x[1], x[2]))
        return [a for *_, a in scored]

    # ---------------------------------------------------------- evaluation
    def _rng(self, view: SeatView) -> random.Random:
        h = hashlib.sha256()
        h.update(f"{self.seed}|{view.seat}|{view.dealer}|{view.phase}|{view.turn}|".encode())
        h.update(bytes(view.hand))
        for s in range(4):
            h.update(repr((view.melds[s], view.rivers[s], view.special_kongs[s],
                           view.special_discards[s], view.hand_sizes[s])).encode())
        h.update(f"{view.wall_remaining}|{view.pending}|{view.last_draw}|"
                 f"{view.indicator}".encode())
        return random.Random(int.from_bytes(h.digest()[:8], "big"))

    def evaluate(self, view: SeatView, cands: Sequence[Action]) -> list[float]:
        """Mean settlement points of each candidate over the sampled worlds."""
        per_world = self.playouts(view, cands)
        n = max(1, len(per_world))
        return [sum(w[i] for w in per_world) / n for i in range(len(cands))]

    def playouts(self, view: SeatView, cands: Sequence[Action]) -> list[list[float]]:
        """Settlement points of each candidate (inner index) in each sampled world."""
        rng = self._rng(view)
        out: list[list[float]] = []
        self._steps = 0
        for _ in range(self.config.worlds):
            if self._steps >= self.config.step_budget:
                break
            world = sample_world(view, rng)
            if world is None:
                continue
            policy_seed = rng.getrandbits(32)
            out.append([self._playout(world.clone(), view, a, policy_seed) for a in cands])
        self.searches += 1  # statistics, not a knob
        return out

    def _playout(self, st: HandState, view: SeatView, first: Action, seed: int) -> float:
        me = view.seat
        bots: list[Bot] = [GreedyBot(seed + s) for s in range(4)]
        if self.config.own_policy == "strong":
            bots[me] = self.core(seed + me)
        applied = False
        steps = 0
        applies = 0
        while not st.over and steps < self.config.playout_steps:
            steps += 1
            for seat in st.to_act():
                if st.over:
                    break
                legal = st.legal_actions(seat)
                if not legal:
                    continue
                if not applied and seat == me:
                    action = next((a for a in legal if a == first), None)
                    if action is None:
                        return 0.0
                    applied = True
                elif len(legal) == 1:
                    action = legal[0]
                else:
                    action = bots[seat].act(SeatView.from_state(st, seat, legal, copy=False))
                st.apply(seat, action)
                applies += 1
        self._steps += applies
        if not st.over:
            return 0.0
        return float((st.payments or [0.0] * 4)[me])
