"""The ``expert`` bot: ``strong``'s valuation, better decisions where it is blind,
and determinized Monte Carlo search where the stakes are large.

**Default policy** (what ``laizi arena`` measures; cheap — decisions of
milliseconds):

- every win on offer is taken; forced moves cost nothing;
- discards: ``strong`` values each discard by the best target it keeps (the small
  hand, or a big hand: 碰碰胡, 清一色, 将一色 …) and breaks ties between discards of
  equal value by the discarded tile's connectivity alone. Those ties are frequent —
  whenever a big-hand target sets the value, every discard that keeps it is worth
  the same whatever it does to the small hand. The expert chooses among those ties
  and near-ties (within ``acceptance_tolerance``, 5 %, of the best value) by **tile
  acceptance** instead (:func:`laizi.bots.expert_rules.acceptance_choice`): the one
  that leaves the small hand closest to ready with a 2/5/8 pair, then the most
  unseen tiles improving it — it keeps both roads to a win open;
- claims, kongs, laizi and special tiles as ``strong`` (its core's knobs are in
  :class:`ExpertConfig`).

**Options** measured and left off (each a field of :class:`ExpertConfig`): exact
pricing of ready hands by the scorer (``ready_rule``,
:mod:`laizi.bots.expert_ready`), a claim rule with its own numbers
(``unopened_discount``, ``claim_min_gain``), a block mode for hopeless hands
(``fold_shanten``), a wall-dependent ``q`` (``q_late``) and the Monte Carlo search:

**Search** (``search="open"``: claims and kong turns; ``"kong"``: kong decisions;
``"all"``: every discard too). At such a decision the bot

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
separate only large differences; in the arena the search did not pay for its time,
hence ``search="none"`` by default. The randomness of a decision is seeded from the
bot's seed and the view's public and own content, so a bot with a given seed makes
the same choice for the same view, whatever the hidden tiles are.
"""

from __future__ import annotations

import hashlib
import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from laizi.analysis import shanten
from laizi.bots import tuning as T
from laizi.bots.base import Bot, SeatView
from laizi.bots.expert_ready import ready_price
from laizi.bots.expert_rules import (
    RuleParams,
    acceptance_choice,
    block_action,
    claim_choice,
    hopeless,
)
from laizi.bots.greedy import GreedyBot
from laizi.bots.strong import StrongBot
from laizi.game.actions import Action
from laizi.game.position import PositionError, position
from laizi.game.state import HandState
from laizi.tiles import NUM_KINDS

__all__ = ["ExpertBot", "ExpertConfig"]


@dataclass(frozen=True, slots=True)
class ExpertConfig:
    """The expert's settings: its default policy (measured in ``laizi arena``) and the
    options and search settings left off by default."""

    worlds: int = 12  # determinizations per decision (at most)
    max_candidates: int = 4  # actions compared at one decision
    margin: float = 0.0  # a candidate must beat strong's choice by more than this …
    z: float = 2.0  # … and by more than z standard errors of the paired difference
    playout_steps: int = 400  # safety bound on a playout's decisions
    #: Engine steps (actions applied in playouts) one decision may spend: no new world is
    #: started past it. A count, not a clock, so decisions stay deterministic; ~25 µs a
    #: step on one core (more with the strong policy) keeps a decision near ≤ 200 ms.
    step_budget: int = 1500
    #: Which decisions are searched: ``"none"`` (default: measured not to pay for its
    #: time), ``"open"`` — claims and kong turns, where the choice moves fan and payments
    #: by tens of points; ``"kong"`` — kong decisions only; ``"all"`` — discards too
    #: (their differences are small against the playouts' noise).
    search: str = "none"
    #: The policy that plays the bot's own seat after the first move in a playout
    #: (``"strong"``: the candidates are judged as strong would go on; ``"greedy"``:
    #: cheaper). The other seats are always ``greedy``.
    own_policy: str = "strong"
    #: Price the discards that leave the hand ready exactly (:mod:`laizi.bots.expert_ready`)
    #: and keep the best priced when ``strong`` goes ready.
    ready_rule: bool = False
    #: How much better (points) a ready discard must price than ``strong``'s choice.
    ready_margin: float = 0.0
    #: What a ready hand that does not win is expected to pay as a loser (points): a
    #: higher win chance also saves it.
    ready_loss: float = 0.0
    # The ``strong`` core the expert plays with (its knobs, re-tuned against ``strong``
    # itself in the arena; ``strong``'s own defaults were tuned against ``greedy``).
    q: float = T.Q  # value kept per step of distance (regular hands)
    q_big: float = T.Q  # … for big-hand targets
    keep_two_for_big: bool = True  # keep a second laizi while a big hand is close
    ready_defence: float = T.READY_DEFENCE  # weight of the "looks ready" penalty
    kong_max_distance: int = 99  # kongs only this close to a win
    #: ``q`` late in the hand (the wall at ``late_wall`` or less), moving linearly from
    #: ``q`` (a full wall) — fewer draws left, each step of distance costs more. None: ``q``.
    q_late: float | None = None
    late_wall: int = 20
    #: An unopened hand this far from ready (2/5/8-pair shanten) blocks instead of
    #: playing to win (:func:`laizi.bots.expert_rules.block_action`). None: never.
    fold_shanten: int | None = None
    #: Declare every concealed/added kong and claim every exposed kong on offer.
    kong_always: bool = False
    #: Break ``strong``'s ties between discards by tile acceptance (unseen improving
    #: tiles) instead of connectivity (:func:`laizi.bots.expert_rules.acceptance_choice`).
    acceptance: bool = True
    acceptance_tolerance: float = 0.05  # … among discards valued within this share of the best
    #: Claims: the value an unopened hand keeps (it still has to open) and the gain a
    #: claim must bring (:func:`laizi.bots.expert_rules.claim_choice`); ``strong``'s
    #: own claim rule when both are ``strong``'s numbers.
    unopened_discount: float = T.UNOPENED_DISCOUNT
    claim_min_gain: float = T.CLAIM_MIN_GAIN

    def core(self, seed: int | None) -> StrongBot:
        """The ``strong`` bot with these knobs."""
        bot = StrongBot(seed)
        bot.q = self.q
        bot.q_big = self.q_big
        bot.keep_two_for_big = self.keep_two_for_big
        bot.ready_defence = self.ready_defence
        bot.kong_max_distance = self.kong_max_distance
        return bot


_WIN_TYPES = ("tsumo", "ron")
_KONG_TYPES = ("ankong", "addkong", "special_kong", "laizi_kong", "kong")


class ExpertBot(Bot):
    """Determinized Monte Carlo search (see the module docstring)."""

    name = "expert"

    def __init__(self, seed: int | None = None, config: ExpertConfig | None = None) -> None:
        self.seed = 0 if seed is None else seed
        self.config = config or ExpertConfig()
        self.strong = self.config.core(seed)
        c = self.config
        self._claim_params: RuleParams | None = None
        if (c.unopened_discount, c.claim_min_gain) != (T.UNOPENED_DISCOUNT, T.CLAIM_MIN_GAIN):
            self._claim_params = RuleParams(unopened_discount=c.unopened_discount,
                                            min_gain=c.claim_min_gain)
        self.searches = 0  # decisions that ran a search (for statistics)
        self._steps = 0

    def __repr__(self) -> str:
        return f"ExpertBot(seed={self.seed})"

    # ----------------------------------------------------------------- act
    def act(self, view: SeatView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        for a in legal:
            if a.type in _WIN_TYPES:
                return a
        if self.config.fold_shanten is not None and hopeless(view, self.config.fold_shanten):
            return block_action(self.strong, view)
        if self.config.kong_always:
            for a in legal:
                if a.type in ("ankong", "addkong", "kong"):
                    return a
        if self.config.q_late is not None:
            self.strong.q = self._q_now(view.wall_remaining)
        if view.phase == "claim" and self._claim_params is not None:
            default = claim_choice(self.strong, view, self._claim_params)
        else:
            default = self.strong.act(view)
        if view.phase not in ("turn", "claim"):
            return default
        if view.phase == "turn" and default.type == "discard" and self.config.acceptance:
            default = acceptance_choice(self.strong, view, default,
                                        self.config.acceptance_tolerance)
        if view.phase == "turn" and default.type == "discard" and self.config.ready_rule:
            default = self._ready_choice(view, default)
        if self.config.search == "none":
            return default
        if self.config.search == "open" and view.phase == "turn" and not any(
                a.type in _KONG_TYPES for a in legal):
            return default
        if self.config.search == "kong" and not any(a.type in _KONG_TYPES for a in legal):
            return default
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

    def _q_now(self, wall: int) -> float:
        c = self.config
        assert c.q_late is not None
        full = 82.0  # the wall after a deal (136 − 53 dealt − the indicator)
        f = max(0.0, min(1.0, (wall - c.late_wall) / (full - c.late_wall)))
        return c.q_late + f * (c.q - c.q_late)

    # ---------------------------------------------------------- ready hands
    def _ready_choice(self, view: SeatView, default: Action) -> Action:
        """Among the discards that leave the hand ready, the best priced, when
        ``strong``'s own choice leaves it ready too (else ``strong``'s choice)."""
        lz = view.laizi
        special = view.special
        hand = list(view.hand)
        priced: list[tuple[float, Action]] = []
        default_value: float | None = None
        seen: set[int] = set()
        for a in view.legal:
            k = a.tile
            if a.type != "discard" or k is None or k == lz or k in special or k in seen:
                continue
            seen.add(k)
            hand[k] -= 1
            price = ready_price(view, hand, k)
            hand[k] += 1
            if price is None:
                continue
            value = price.win_prob * (price.payment + self.config.ready_loss) - price.danger
            priced.append((value, a))
            if a == default:
                default_value = value
        if default_value is None or len(priced) < 2:
            return default
        best_value, best = max(priced, key=lambda x: (x[0], x[1] == default))
        if best_value > default_value + self.config.ready_margin:
            return best
        return default

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
            if a.type in _KONG_TYPES and a not in out:
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
            world = self._sample(view, rng)
            if world is None:
                continue
            policy_seed = rng.getrandbits(32)
            out.append([self._playout(world.clone(), view, a, policy_seed) for a in cands])
        self.searches += 1
        return out

    def _sample(self, view: SeatView, rng: random.Random) -> HandState | None:
        """One world consistent with the view, positioned just before the decision."""
        me = view.seat
        pool: list[int] = []
        for k, c in enumerate(view.unseen()):
            pool.extend([k] * c)
        rng.shuffle(pool)
        hands: list[list[int]] = [[0] * NUM_KINDS for _ in range(4)]
        hands[me] = list(view.hand)
        rivers = [list(r) for r in view.rivers]
        claim = view.phase == "claim"
        d = view.turn
        if claim:
            assert view.pending is not None
            rivers[d].pop()  # the discard under claim goes back into the discarder's hand
        pos = 0
        for s in range(4):
            if s == me:
                continue
            n = view.hand_sizes[s]
            for k in pool[pos:pos + n]:
                hands[s][k] += 1
            pos += n
        if claim:
            assert view.pending is not None
            hands[d][view.pending] += 1
        live = pool[pos:]
        if len(live) != view.wall_remaining:
            return None  # the view does not add up (a hand-made view): no search
        assert view.indicator is not None
        try:
            st = position(view.rules, dealer=view.dealer, indicator=view.indicator,
                          hands=hands, melds=view.melds, rivers=rivers,
                          special_kongs=view.special_kongs,
                          special_discards=view.special_discards, live_wall=live,
                          turn=d if claim else me,
                          last_draw=None if claim else view.last_draw,
                          after_claim=False if claim else view.after_claim)
        except PositionError:
            return None
        if claim:
            assert view.pending is not None
            st.apply(d, Action("discard", view.pending))
            if st.phase != "claim" or me not in st.options:
                return None
        return st

    def _playout(self, st: HandState, view: SeatView, first: Action, seed: int) -> float:
        me = view.seat
        bots: list[Bot] = [GreedyBot(seed + s) for s in range(4)]
        if self.config.own_policy == "strong":
            bots[me] = self.config.core(seed + me)
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
