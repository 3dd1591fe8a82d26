"""``strong``: plays for what pays in Wuhan Mahjong.

On top of :class:`~laizi.bots.greedy.GreedyBot`'s table-driven evaluation:

- **Targets.** Each decision scores the reachable targets as
  *value × q^(distance+1)*: the small hand (distance with a 2/5/8 pair, as small
  hands require; its value from the fan both sides would count, reduced when it
  cannot reach the minimum 起胡 by a discard win, or even by self-draw), 碰碰胡,
  清一色 of the leading suit, 将一色 and 风一色 (big hands: base 10, any pair).
  Ready hands are rated by their live waits, one step from ready by the unseen
  tiles that advance them.
- **Fan is double-edged.** Every fan of a seat's own table also doubles what it pays
  when someone else wins. Special tiles (红中 …) are laid aside at once (a hand
  holding one cannot win); one laizi is kept as a wildcard and further ones are laid
  aside (two laizi allow only big hands); concealed and added kongs are declared when
  they do not set the hand back (an added kong not when it is likely to be robbed).
- **Claims** (peng/chi/kong) are taken when they raise the hand's value; the first
  opening is valued since an unopened hand cannot win.
- **Liability.** A discard's score subtracts the expected cost of being liable: the
  single wait of a four-meld 全求人 player while this seat is not ready (下小雨 —
  only 2/5/8 tiles can be that wait when no other big hand waives the pair), and
  the third opening of a player collecting 清一色. While its own hand is two or more
  steps from ready, it also avoids feeding players who look ready (three openings,
  or two late in the hand): tiles in their river and honours seen often are safer.
  Broader defence and late folding exist as options (``general_defence``,
  ``fold_distance``); in bot-vs-bot tests they cost more than they saved.
- Every legal win the engine offers is taken (the engine offers only wins that
  reach the minimum).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from laizi.analysis.fast import waits
from laizi.analysis.profiles import HandEval, shanten258
from laizi.bots import tuning as T
from laizi.bots.base import SeatView
from laizi.bots.bighands import JIANG, reachable_targets, target_distance
from laizi.bots.greedy import GreedyBot
from laizi.bots.outlook import improving_258
from laizi.bots.toolkit import claimed_hand, natural, tile_order_key, usefulness
from laizi.game.actions import Action
from laizi.scoring.model import Meld
from laizi.scoring.tablefan import table_fan
from laizi.tiles import is_honor, is_jiang

# claimed_hand lives in laizi.bots.toolkit; it stays importable from here.
__all__ = ["StrongBot", "StrongParams", "claimed_hand"]


@dataclass(frozen=True, slots=True)
class StrongParams:
    """``strong``'s knobs, fixed for the bot's life (a variant is another instance:
    ``StrongBot(seed, StrongParams(q=0.4))``); the numbers behind them are in
    :mod:`laizi.bots.tuning`."""

    q: float = T.Q  # value kept per step of distance (the small hand)
    q_big: float = T.Q  # … for big-hand targets
    #: "kong" (always), "keep_one", "smart" (keep one when its fan suffices)
    laizi_policy: str = "keep_one"
    min_penalty: bool = True  # a small hand below the minimum is worth less
    pair258: bool = True  # the regular (small) hand needs a 2/5/8 pair
    special_policy: str = "always"  # or "when_close": keep a special tile while far from ready
    special_shanten: int = 2
    keep_two_for_big: bool = True  # keep a second laizi while a big hand is close
    fold_distance: int | None = None  # hopeless hands (this far) discard safely late in the hand
    fold_wall: int = T.FOLD_WALL
    kong_max_distance: int = 99  # kongs (+fan both ways) only this close to a win
    defence_scale: float = T.DEFENCE_SCALE
    general_defence: bool = False
    ready_defence: float = T.READY_DEFENCE  # weight of the "looks ready" penalty
    ready_defence_distance: int = T.READY_DEFENCE_DISTANCE
    big_weight: float = 1.0  # realism factor on big-hand values (they are harder than distance says)
    rob_risk_scale: float = 1.0  # × the rob risk of an added kong (0: add whatever the risk)
    kong_eager: bool = False  # declare a concealed or added kong on offer rather than discard
    #: Rate the small hand at 2 to ``advance_far_max`` steps from ready by the unseen tiles
    #: that advance it, as one step from ready is: × ``advance_far_floor`` … 1 with
    #: ``advance_far_full`` such tiles or more (0: off). Raced in docs/learned.md, round 9;
    #: left off.
    advance_far_full: float = 0.0
    advance_far_floor: float = 0.6
    advance_far_max: int = 2
    #: A discard's value is its best target's plus this share of its other targets' (0:
    #: the best alone). Raced in docs/learned.md, round 9; left off.
    other_targets: float = 0.0

    def changed(self) -> dict[str, object]:
        """The knobs that differ from the defaults."""
        ref = StrongParams()
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != getattr(ref, f.name)}


_DEFAULT = StrongParams()


class StrongBot(GreedyBot):
    """Value-driven bot: fan management, big-hand targets, liability-aware defence.

    Its knobs are a frozen :class:`StrongParams` (``self.p``): nothing is changed per
    decision."""

    name = "strong"

    def __init__(self, seed: int | None = None, params: StrongParams | None = None) -> None:
        super().__init__(seed)
        self.p: StrongParams = _DEFAULT if params is None else params

    def __repr__(self) -> str:
        if self.p == _DEFAULT:
            return f"{type(self).__name__}(seed={self.seed!r})"
        return f"{type(self).__name__}(seed={self.seed!r}, params={self.p!r})"

    # ------------------------------------------------------------------ own turn
    def turn_action(self, view: SeatView) -> Action:
        a = self._turn_action(view)
        if self.p.kong_eager and a.type == "discard":
            for b in view.legal:
                if b.type in ("ankong", "addkong"):
                    return b
        return a

    def _turn_action(self, view: SeatView) -> Action:
        by_type: dict[str, list[Action]] = {}
        for a in view.legal:
            by_type.setdefault(a.type, []).append(a)
        nat, wilds = natural(view)
        melds = view.melds[view.seat]
        if by_type.get("special_kong") and self.want_special_kong(view, nat, wilds, melds):
            return by_type["special_kong"][0]
        if by_type.get("laizi_kong") and self.want_laizi_kong_strong(view, wilds, melds):
            return by_type["laizi_kong"][0]
        if by_type.get("ankong") or by_type.get("addkong"):
            base_val, _tg, base_d = self.hand_value(view, nat, wilds, melds)
            if base_d > self.p.kong_max_distance:
                by_type.pop("ankong", None)
                by_type.pop("addkong", None)
            for a in by_type.get("ankong", ()):
                k = a.tile or 0
                c = list(nat)
                c[k] -= 4
                new_melds = [*melds, Meld("ankong", k)]
                if self.hand_value(view, c, wilds, new_melds)[0] >= base_val * T.ANKONG_MIN_VALUE:
                    return a
            for a in by_type.get("addkong", ()):
                if self.rob_risk(view, a.tile or 0) < T.ADDKONG_MAX_ROB_RISK:
                    return a
        discards = by_type.get("discard", [])
        if not discards:
            return view.legal[0]
        for a in discards:
            if a.tile in view.setup.special:
                return a
        return self.best_discard(view, discards, nat, wilds)

    def want_special_kong(self, view: SeatView, nat: Sequence[int], wilds: int,
                          melds: Sequence[Meld]) -> bool:
        """Lay a special tile aside now? (+1 fan both ways: it also doubles what this seat
        pays as a loser, so a hopeless hand may keep it as a dead tile for a while.)"""
        if self.p.special_policy == "always":
            return True
        n = 4 - len(melds)
        d = HandEval(nat, wilds, n).shanten
        return d <= self.p.special_shanten or view.wall_remaining < T.SPECIAL_KEEP_WALL

    def want_laizi_kong_strong(self, view: SeatView, wilds: int, melds: Sequence[Meld]) -> bool:
        if self.p.laizi_policy == "kong":
            return True
        if wilds >= 2 and self.p.keep_two_for_big:
            nat, _w = natural(view)
            for t in self.targets(view, nat, wilds, melds):
                if self.distance(t, nat, wilds, 4 - len(melds)) <= T.BIG_KEEP_LAIZI_DISTANCE:
                    return False
        if wilds >= 2:
            return True
        if self.p.laizi_policy == "keep_one":
            return False
        # keep the single laizi as a wildcard when a soft small win still reaches the minimum
        fan, others = self.fan_estimate(view, melds, wilds)
        return self.small_value(view, fan, others, factor_only=True) < 1.0

    # ------------------------------------------------------------------ values
    def fan_estimate(self, view: SeatView, melds: Sequence[Meld], wilds: int) -> tuple[int, list[int]]:
        """(own fan at a win, each other seat's loser fan) from the public table: each
        seat's table fan (:func:`laizi.scoring.table_fan`), the own counted as opened
        (a hand must open to win) and hard when it holds no laizi."""
        rules = view.rules
        me = view.seat
        lz = view.setup.laizi
        own_melds: Sequence[Meld] = melds
        if not any(m.opens for m in melds) and rules.opening_fan != "none":
            own_melds = [*melds, Meld("peng", 0, 0)]  # the opening still to come
        own = table_fan(rules, lz, own_melds, view.special_kongs[me], view.special_discards[me])
        if wilds == 0:
            own += 1  # hard
        others = [0, 0, 0, 0]
        for s in range(4):
            if s != me:
                others[s] = table_fan(rules, lz, view.melds[s], view.special_kongs[s],
                                      view.special_discards[s])
        return own, others

    def small_value(self, view: SeatView, fan: int, others: list[int], *,
                    factor_only: bool = False) -> float:
        """Expected worth of a small hand (relative units), reduced when below the minimum."""
        rules = view.rules
        me = view.seat
        fan += rules.small_hand_fan
        raws: list[int] = []
        for s in range(4):
            if s == me:
                continue
            lf = others[s]
            if me == view.dealer or s == view.dealer:
                lf += 1
            raws.append(2 ** (fan + lf))
        need = rules.min_points

        def ok(rs: list[int]) -> bool:
            if rules.min_rule == "each":
                return min(rs) >= need
            if rules.min_rule == "any":
                return max(rs) >= need
            top = sorted(rs, reverse=True)
            return top[0] + top[1] >= need

        value = 1.0 if factor_only else sum(min(r, rules.cap) for r in raws) * T.SMALL_PAY
        if ok(raws) or not self.p.min_penalty:
            return value
        if ok([r * 2 for r in raws]):  # by self-draw (or a discarder's +1) only
            return value * T.BELOW_MIN_SELF_DRAW
        if ok([r * 4 for r in raws]):
            return value * T.BELOW_MIN_DOUBLE_SELF_DRAW
        return value * T.BELOW_MIN_HOPELESS

    def big_value(self, view: SeatView, fan: int, others: list[int]) -> float:
        rules = view.rules
        raws = [T.BIG_MULT * 2 ** (fan + others[s]) * T.BIG_BONUS
                for s in range(4) if s != view.seat]
        return float(sum(min(r, rules.cap) for r in raws)) * T.SMALL_PAY * self.p.big_weight

    def targets(self, view: SeatView, nat: Sequence[int], wilds: int,
                melds: Sequence[Meld]) -> list[str]:
        """Big-hand targets still reachable with these melds (besides ``regular``)."""
        return reachable_targets(nat, wilds, melds, luan_feng_jiang=view.rules.luan_feng_jiang)

    @staticmethod
    def distance(target: str, nat: Sequence[int], wilds: int, n: int) -> int:
        """Distance to a big-hand target (see :mod:`laizi.bots.bighands`)."""
        return target_distance(target, nat, wilds, n)

    def hand_value(self, view: SeatView, nat: Sequence[int], wilds: int,
                   melds: Sequence[Meld]) -> tuple[float, str, int]:
        """(value, target, distance) of the best target of a hand (3n+1 or 3n+2 tiles)."""
        n = 4 - len(melds)
        fan, others = self.fan_estimate(view, melds, wilds)
        small = self.small_value(view, fan, others)
        big = self.big_value(view, fan, others)
        d = shanten258(nat, wilds, n) if self.p.pair258 else HandEval(nat, wilds, n).shanten
        best = (small * self.p.q ** (d + 1), "regular", d)
        for t in self.targets(view, nat, wilds, melds):
            dt = self.distance(t, nat, wilds, n)
            v = big * self.p.q_big ** (dt + 1)
            if v > best[0]:
                best = (v, t, dt)
        return best

    # ------------------------------------------------------------------ discards
    def best_discard(self, view: SeatView, discards: list[Action], nat: list[int], wilds: int) -> Action:
        ranked = self.rank_discards_strong(view, discards, nat, wilds)
        return ranked[0][1]

    def rank_discards_strong(
        self, view: SeatView, discards: list[Action], nat: list[int], wilds: int,
    ) -> list[tuple[float, Action]]:
        """Discards with their scores, best first (value kept minus expected danger)."""
        lz = view.setup.laizi
        melds = view.melds[view.seat]
        n = 4 - len(melds)
        fan, others = self.fan_estimate(view, melds, wilds)
        small = self.small_value(view, fan, others)
        big = self.big_value(view, fan, others)
        targets = self.targets(view, nat, wilds, melds)
        ev = HandEval(nat, wilds, n)
        kinds = [a.tile or 0 for a in discards]
        special = view.setup.special
        reg = ev.shanten_each([k if k != lz and k not in special else 0 for k in kinds], -1)
        unseen = view.unseen()
        threats = self.threats(view)
        fold = (self.p.fold_distance is not None and bool(threats)
                and ev.shanten >= self.p.fold_distance and view.wall_remaining < self.p.fold_wall)
        scored: list[tuple[float, Action]] = []
        for a, k, d_reg in zip(discards, kinds, reg, strict=True):
            if k == lz:
                # a discarded laizi is a laizi kong without the replacement tile
                scored.append((T.LAIZI_DISCARD_SCORE, a))
                continue
            c = list(nat)
            if k in special:
                d_reg = ev.shanten  # special tiles are not part of the natural hand
            else:
                c[k] -= 1
            if self.p.pair258:
                d_reg = shanten258(c, wilds, n)
            val = small * self.p.q ** (d_reg + 1)
            # quality in [0.55, 1] never outweighs one step of distance (q < 0.55)
            if d_reg == 0:
                live = sum(unseen[x] for x in waits(c, wilds, pair258=True))
                val *= _quality(live, T.LIVE_WAITS_FULL)
            elif d_reg == 1:
                acc = self.improvement(c, wilds, n, d_reg, unseen)
                val *= _quality(acc, T.LIVE_ADVANCES_FULL)
            elif self.p.advance_far_full > 0 and d_reg <= self.p.advance_far_max:
                acc = sum(unseen[x] for x in improving_258(c, wilds, n, d_reg))
                floor = self.p.advance_far_floor
                val *= floor + (1.0 - floor) * min(1.0, acc / self.p.advance_far_full)
            others_sum = 0.0
            for t in targets:
                dt = self.distance(t, c, wilds, n)
                v = big * self.p.q_big ** (dt + 1)
                if dt == 0 and t != "jiangyise" and t != "fengyise":
                    live = sum(unseen[x] for x in waits(c, wilds, pair258=False))
                    v *= _quality(live, T.LIVE_WAITS_FULL)
                if v > val:
                    others_sum += val
                    val = v
                else:
                    others_sum += v
            if self.p.other_targets:
                val += self.p.other_targets * others_sum
            danger = (self.danger(view, k, c, wilds, threats, fold=fold, my_distance=d_reg)
                      if threats else 0.0)
            tie = (T.TIE_USEFULNESS * (T.USEFULNESS_CEILING - usefulness(nat, k))
                   + T.TIE_ORDER * (T.ORDER_CEILING - tile_order_key(k)))
            scored.append((val - danger + tie, a))
        scored.sort(key=lambda x: -x[0])
        return scored

    def replace_action(self, view: SeatView) -> Action:
        """After a kong (``kong_draw_choice``): draw, unless the hand is far from ready
        (``ready_defence_distance``) and even its safest held tile — the discard a draw
        would oblige (S0: "起牌后如果不胡牌就必须打出一张牌，给其他玩家增加进牌机会") —
        is expected to cost more than the hand is worth. A held special tile can always be
        laid aside instead of a discard, so then it draws."""
        draw = next((a for a in view.legal if a.type == "draw"), None)
        nodraw = next((a for a in view.legal if a.type == "nodraw"), None)
        if draw is None or nodraw is None:
            return view.legal[0]
        if any(view.hand[k] for k in view.setup.special):
            return draw
        nat, wilds = natural(view)
        value, _target, dist = self.hand_value(view, nat, wilds, view.melds[view.seat])
        if dist < self.p.ready_defence_distance:
            return draw
        threats = self.threats(view)
        if not threats:
            return draw
        safest = min((self.danger(view, k, [c - (j == k) for j, c in enumerate(nat)], wilds,
                                  threats, my_distance=dist)
                      for k in range(len(nat)) if nat[k]), default=0.0)
        return nodraw if safest > value * T.NODRAW_DANGER_SHARE else draw

    # ------------------------------------------------------------------ defence
    def threats(self, view: SeatView) -> list[tuple[int, float, float]]:
        """(seat, chance it is ready, expected payment if fed) for dangerous seats."""
        out: list[tuple[int, float, float]] = []
        wall_frac = max(0.0, min(1.0, view.wall_remaining / T.THREAT_WALL))
        for s in range(4):
            if s == view.seat:
                continue
            ms = view.melds[s]
            openings = sum(1 for m in ms if m.opens)
            if openings == 0 and not view.rules.jiayu_hands:
                continue  # an unopened hand cannot win
            p = T.READY_BY_OPENINGS[min(openings, 4)] + T.READY_LATENESS * (1.0 - wall_frac)
            pay = T.SMALL_FEED_PAY
            kinds = [t for m in ms for t in m.tiles()]
            if kinds and all(m.type != "chi" for m in ms) and len(ms) >= 2:
                pay = T.BIG_FEED_PAY
            suits = {t // 9 if t < 27 else 3 for t in kinds}
            if len(suits) == 1 and len(ms) >= 2:
                pay = T.BIG_FEED_PAY
            out.append((s, min(p, T.READY_MAX), pay))
        return out

    def danger(self, view: SeatView, k: int, after: list[int], wilds: int,
               threats: list[tuple[int, float, float]], *, fold: bool = False,
               my_distance: int = 0) -> float:
        """Expected cost of discarding ``k`` (relative units, same scale as the values).

        Per threatening seat: feeding a ready hand (:meth:`feed_cost`), and the
        liabilities for a 全求人 (:meth:`quanqiuren_cost`) and a 清一色
        (:meth:`qingyise_cost`).  ``after``: the natural counts after the discard.
        """
        unseen = view.unseen()
        if unseen[k] == 0 and k >= 27:
            return 0.0  # every copy of this honour is in sight: nobody waits on it
        cost = 0.0
        for s, p_ready, pay in threats:
            cost += self.feed_cost(view, s, k, p_ready, pay, unseen, fold=fold,
                                   my_distance=my_distance)
            cost += self.quanqiuren_cost(view, s, k, after, wilds, unseen)
            cost += self.qingyise_cost(view, s, k, unseen)
        return cost

    def feed_cost(self, view: SeatView, s: int, k: int, p_ready: float, pay: float,
                  unseen: Sequence[int], *, fold: bool, my_distance: int) -> float:
        """Expected cost of seat ``s`` winning on ``k`` (general defence, folding, or
        the "looks ready" penalty while this hand is far from ready)."""
        if self.p.general_defence or fold:
            p_wait = _wait_chance(view.rivers[s], k, unseen)
            return p_ready * p_wait * pay * self.scale(view) * (T.FOLD_WEIGHT if fold else 1.0)
        if self.p.ready_defence and my_distance >= self.p.ready_defence_distance:
            openings = sum(1 for m in view.melds[s] if m.opens)
            if openings >= T.LOOKS_READY_OPENINGS or (
                    openings == T.LOOKS_READY_OPENINGS - 1 and view.wall_remaining < T.LATE_WALL):
                p_wait = _wait_chance(view.rivers[s], k, unseen)
                return p_ready * p_wait * pay * self.scale(view) * self.p.ready_defence
        return 0.0

    def quanqiuren_cost(self, view: SeatView, s: int, k: int, after: list[int], wilds: int,
                        unseen: Sequence[int]) -> float:
        """全求人: four exposed melds, one tile in hand; feeding its single wait while
        not ready (下小雨) makes this seat liable.  Any live 2/5/8 may be that wait."""
        ms = view.melds[s]
        liability = view.rules.quanqiuren_liability
        if not (len(ms) == 4 and all(m.opens for m in ms) and view.hand_sizes[s] == 1
                and liability != "none" and is_jiang(k)):
            return 0.0
        if liability != "always" and waits(after, wilds):
            return 0.0  # ready: not liable
        live = sum(1 for x in JIANG if unseen[x] > 0) or 1
        in_river = T.LIABLE_IN_RIVER if k in view.rivers[s] else 1.0
        return (1.0 / live) * T.LIABLE_PAY * T.LIABLE_PAY * self.scale(view) * in_river

    def qingyise_cost(self, view: SeatView, s: int, k: int, unseen: Sequence[int]) -> float:
        """清一色: a third opening from this discard makes this seat liable."""
        ms = view.melds[s]
        if k >= 27 or sum(1 for m in ms if m.opens) != 2:
            return 0.0
        suit = k // 9
        if not all(t < 27 and t // 9 == suit for m in ms for t in m.tiles()):
            return 0.0
        if s == (view.seat + 1) % 4:
            p_claim = T.QINGYISE_CLAIM_CHI
        else:
            p_claim = T.QINGYISE_CLAIM_PENG if unseen[k] >= 2 else T.QINGYISE_CLAIM_LAST
        return p_claim * T.QINGYISE_COMPLETES * T.LIABLE_PAY * T.LIABLE_PAY * self.scale(view)

    def scale(self, view: SeatView) -> float:
        """The value of one relative payment unit (a small hand's typical worth)."""
        return self.p.defence_scale

    def rob_risk(self, view: SeatView, kind: int) -> float:
        """Rough chance that an added kong of ``kind`` gets robbed (the robbed pays all)."""
        risk = 0.0
        for s in range(4):
            if s == view.seat:
                continue
            openings = sum(1 for m in view.melds[s] if m.opens)
            if openings >= T.LOOKS_READY_OPENINGS:
                risk += T.ROB_RISK_PER_READY_SEAT
        return risk * self.p.rob_risk_scale

    # ------------------------------------------------------------------ claims
    def claim_action(self, view: SeatView) -> Action:
        t = view.pending
        assert t is not None
        nat, wilds = natural(view)
        melds = view.melds[view.seat]
        before, _tg, _d = self.hand_value(view, nat, wilds, melds)
        if not any(m.opens for m in melds) and not view.rules.jiayu_hands:
            before *= T.UNOPENED_DISCOUNT  # still has to open
        best: tuple[float, Action] | None = None
        for a in view.legal:
            if a.type not in ("kong", "peng", "chi"):
                continue
            c, new = claimed_hand(nat, a, t, view.turn)
            after, _t2, d2 = self.hand_value(view, c, wilds, [*melds, new])
            if a.type == "kong":
                if d2 > self.p.kong_max_distance:
                    continue
                after *= T.KONG_CLAIM_BONUS
            if after > before * T.CLAIM_MIN_GAIN and (best is None or after > best[0]):
                best = (after, a)
        if best is not None:
            return best[1]
        for a in view.legal:
            if a.type == "pass":
                return a
        return view.legal[0]


def _quality(live: int, full: float) -> float:
    """Rating factor in [0.55, 1] of a hand with ``live`` good tiles (``full`` or more: 1)."""
    return T.QUALITY_FLOOR + T.QUALITY_SPAN * min(1.0, live / full)


def _wait_chance(river: Sequence[int], k: int, unseen: Sequence[int]) -> float:
    """Chance that a ready seat with this river waits on ``k``."""
    if k in river:
        return T.WAIT_CHANCE_RIVER
    if is_honor(k):
        return T.WAIT_CHANCE_HONOR_LAST if unseen[k] <= 1 else T.WAIT_CHANCE_HONOR
    if is_jiang(k):
        return T.WAIT_CHANCE_258
    return T.WAIT_CHANCE
