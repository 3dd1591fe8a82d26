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

from laizi.analysis import waits
from laizi.bots.base import SeatView
from laizi.bots.evaluate import (
    FENG,
    JIANG,
    HandEval,
    fengyise_distance,
    jiangyise_distance,
    pengpeng_distance,
    qingyise_distance,
    shanten258,
    shanten_each,
    win_waits,
)
from laizi.bots.greedy import GreedyBot, natural, tile_order_key, usefulness
from laizi.game.actions import Action
from laizi.scoring.model import Meld

__all__ = ["StrongBot"]

Q = 0.4  # value kept per step of distance (≈ chance to complete one more step)
SMALL_PAY = 1.0  # value unit of a small hand (scaled by its fan)
BIG_MULT = 10.0  # a big hand's base is 10


class StrongBot(GreedyBot):
    """Value-driven bot: fan management, big-hand targets, liability-aware defence."""

    name = "strong"
    q = Q
    q_big = Q
    laizi_policy = "keep_one"  # "kong" (always), "keep_one", "smart" (keep one when its fan suffices)
    min_penalty = True
    pair258 = True  # the regular (small) hand needs a 2/5/8 pair
    special_policy = "always"  # or "when_close": keep a special tile while far from ready
    special_shanten = 2
    keep_two_for_big = True
    fold_distance: int | None = None  # hopeless hands (this far) discard safely late in the hand
    fold_wall = 40
    kong_max_distance = 99  # kongs (+fan both ways) only this close to a win
    defence_scale = 10.0
    general_defence = False
    ready_defence = 2.0  # weight of the "looks ready" penalty (3+ openings, or 2 late)
    ready_defence_distance = 2
    big_weight = 1.0  # realism factor on big-hand values (they are harder than distance says)

    # ------------------------------------------------------------------ own turn
    def turn_action(self, view: SeatView) -> Action:
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
            if base_d > self.kong_max_distance:
                by_type.pop("ankong", None)
                by_type.pop("addkong", None)
            for a in by_type.get("ankong", ()):
                k = a.tile or 0
                c = list(nat)
                c[k] -= 4
                new_melds = [*melds, Meld("ankong", k)]
                if self.hand_value(view, c, wilds, new_melds)[0] >= base_val * 0.9:
                    return a
            for a in by_type.get("addkong", ()):
                if self.rob_risk(view, a.tile or 0) < 0.3:
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
        if self.special_policy == "always":
            return True
        n = 4 - len(melds)
        d = HandEval(nat, wilds, n).shanten
        return d <= self.special_shanten or view.wall_remaining < 20

    def want_laizi_kong_strong(self, view: SeatView, wilds: int, melds: Sequence[Meld]) -> bool:
        if self.laizi_policy == "kong":
            return True
        if wilds >= 2 and self.keep_two_for_big:
            nat, _w = natural(view)
            for t in self.targets(view, nat, wilds, melds):
                if self.distance(t, nat, wilds, 4 - len(melds)) <= 1:
                    return False
        if wilds >= 2:
            return True
        if self.laizi_policy == "keep_one":
            return False
        # keep the single laizi as a wildcard when a soft small win still reaches the minimum
        fan, others = self.fan_estimate(view, melds, wilds)
        return self.small_value(view, fan, others, factor_only=True) < 1.0

    # ------------------------------------------------------------------ values
    def fan_estimate(self, view: SeatView, melds: Sequence[Meld], wilds: int) -> tuple[int, list[int]]:
        """(own fan at a win, each other seat's loser fan) from the public table."""
        rules = view.rules
        me = view.seat

        def table_fan(melds_s: Sequence[Meld], sk: Sequence[int], sd: Sequence[int]) -> int:
            f = 0
            openings = sum(1 for m in melds_s if m.opens)
            if openings:
                if rules.opening_fan == "once":
                    f += 1
                elif rules.opening_fan == "per_opening":
                    f += openings
            for m in melds_s:
                if m.type in ("kong", "addkong"):
                    f += 1
                elif m.type == "ankong":
                    f += 2
            lz = view.setup.laizi
            for t in sk:
                f += 2 if t == lz else 1
            for t in sd:
                if t == lz:
                    f += 2 if rules.laizi_discard == "kong" else (1 if rules.laizi_discard == "half" else 0)
                else:
                    f += 1
            return f

        own_melds = list(melds)
        if not any(m.opens for m in own_melds) and rules.opening_fan != "none":
            own = table_fan([*own_melds, Meld("peng", 0, 0)], view.special_kongs[me], view.special_discards[me])
        else:
            own = table_fan(own_melds, view.special_kongs[me], view.special_discards[me])
        if wilds == 0:
            own += 1  # hard
        others = [0, 0, 0, 0]
        for s in range(4):
            if s != me:
                others[s] = table_fan(view.melds[s], view.special_kongs[s], view.special_discards[s])
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

        value = 1.0 if factor_only else sum(min(r, rules.cap) for r in raws) * SMALL_PAY
        if ok(raws) or not self.min_penalty:
            return value
        if ok([r * 2 for r in raws]):  # by self-draw (or a discarder's +1) only
            return value * 0.35
        if ok([r * 4 for r in raws]):
            return value * 0.08
        return value * 0.01

    def big_value(self, view: SeatView, fan: int, others: list[int]) -> float:
        rules = view.rules
        raws = [BIG_MULT * 2 ** (fan + others[s]) * 1.2 for s in range(4) if s != view.seat]
        return float(sum(min(r, rules.cap) for r in raws)) * SMALL_PAY * self.big_weight

    def targets(self, view: SeatView, nat: Sequence[int], wilds: int,
                melds: Sequence[Meld]) -> list[str]:
        """Big-hand targets still reachable with these melds (besides ``regular``)."""
        out: list[str] = []
        meld_kinds = [t for m in melds for t in m.tiles()]
        if all(m.type != "chi" for m in melds):
            pairs = sum(1 for c in nat if c >= 2) + sum(1 for m in melds)
            if pairs + wilds >= 3:
                out.append("pengpeng")
        suit_count = [0, 0, 0]
        for k in range(27):
            suit_count[k // 9] += nat[k]
        for t in meld_kinds:
            if t < 27:
                suit_count[t // 9] += 1
        s = max(range(3), key=lambda i: suit_count[i])
        if all(t < 27 and t // 9 == s for t in meld_kinds) and suit_count[s] + wilds >= 8:
            out.append(f"qingyise{s}")
        if view.rules.luan_feng_jiang:
            total = sum(nat) + wilds + len(meld_kinds)
            jiang = sum(nat[k] for k in JIANG) + wilds + len(meld_kinds)
            if all(t in JIANG for t in meld_kinds) and jiang >= total - 5:
                out.append("jiangyise")
            feng = sum(nat[k] for k in FENG) + wilds + len(meld_kinds)
            if all(t in FENG for t in meld_kinds) and feng >= total - 5:
                out.append("fengyise")
        return out

    @staticmethod
    def distance(target: str, nat: Sequence[int], wilds: int, n: int) -> int:
        if target == "pengpeng":
            return pengpeng_distance(nat, wilds, n)
        if target == "jiangyise":
            return jiangyise_distance(nat, wilds, n)
        if target == "fengyise":
            return fengyise_distance(nat, wilds, n)
        return qingyise_distance(nat, wilds, n, int(target[-1]))

    def hand_value(self, view: SeatView, nat: Sequence[int], wilds: int,
                   melds: Sequence[Meld]) -> tuple[float, str, int]:
        """(value, target, distance) of the best target of a hand (3n+1 or 3n+2 tiles)."""
        n = 4 - len(melds)
        fan, others = self.fan_estimate(view, melds, wilds)
        small = self.small_value(view, fan, others)
        big = self.big_value(view, fan, others)
        d = shanten258(nat, wilds, n) if self.pair258 else HandEval(nat, wilds, n).shanten
        best = (small * self.q ** (d + 1), "regular", d)
        for t in self.targets(view, nat, wilds, melds):
            dt = self.distance(t, nat, wilds, n)
            v = big * self.q_big ** (dt + 1)
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
        reg = shanten_each(ev, [k if k != lz and k not in special else 0 for k in kinds], -1)
        unseen = view.unseen()
        threats = self.threats(view)
        fold = (self.fold_distance is not None and bool(threats)
                and ev.shanten >= self.fold_distance and view.wall_remaining < self.fold_wall)
        scored: list[tuple[float, Action]] = []
        for a, k, d_reg in zip(discards, kinds, reg, strict=True):
            if k == lz:
                # a discarded laizi is a laizi kong without the replacement tile
                scored.append((-1e9, a))
                continue
            c = list(nat)
            if k in special:
                d_reg = ev.shanten  # special tiles are not part of the natural hand
            else:
                c[k] -= 1
            if self.pair258:
                d_reg = shanten258(c, wilds, n)
            val = small * self.q ** (d_reg + 1)
            # quality in [0.55, 1] never outweighs one step of distance (q < 0.55)
            if d_reg == 0:
                live = sum(unseen[x] for x in win_waits(c, wilds))
                val *= 0.55 + 0.45 * min(1.0, live / 8.0)
            elif d_reg == 1:
                acc = self.improvement(c, wilds, n, d_reg, unseen)
                val *= 0.55 + 0.45 * min(1.0, acc / 30.0)
            for t in targets:
                dt = self.distance(t, c, wilds, n)
                v = big * self.q_big ** (dt + 1)
                if dt == 0 and t != "jiangyise" and t != "fengyise":
                    live = sum(unseen[x] for x in win_waits(c, wilds, pair258=False))
                    v *= 0.55 + 0.45 * min(1.0, live / 8.0)
                if v > val:
                    val = v
            danger = (self.danger(view, k, c, wilds, threats, fold=fold, my_distance=d_reg)
                      if threats else 0.0)
            tie = 0.001 * (10 - usefulness(nat, k)) + 0.0001 * (5 - tile_order_key(k))
            scored.append((val - danger + tie, a))
        scored.sort(key=lambda x: -x[0])
        return scored

    # ------------------------------------------------------------------ defence
    def threats(self, view: SeatView) -> list[tuple[int, float, float]]:
        """(seat, chance it is ready, expected payment if fed) for dangerous seats."""
        out: list[tuple[int, float, float]] = []
        wall_frac = max(0.0, min(1.0, view.wall_remaining / 80.0))
        for s in range(4):
            if s == view.seat:
                continue
            ms = view.melds[s]
            openings = sum(1 for m in ms if m.opens)
            if openings == 0 and not view.rules.jiayu_hands:
                continue  # an unopened hand cannot win
            p = (0.0, 0.12, 0.3, 0.55, 0.85)[min(openings, 4)] + 0.25 * (1.0 - wall_frac)
            pay = 0.6  # relative units (a small hand fed: discarder's fan +1)
            kinds = [t for m in ms for t in m.tiles()]
            if kinds and all(m.type != "chi" for m in ms) and len(ms) >= 2:
                pay = 3.0
            suits = {t // 9 if t < 27 else 3 for t in kinds}
            if len(suits) == 1 and len(ms) >= 2:
                pay = 3.0
            out.append((s, min(p, 0.95), pay))
        return out

    def danger(self, view: SeatView, k: int, after: list[int], wilds: int,
               threats: list[tuple[int, float, float]], *, fold: bool = False,
               my_distance: int = 0) -> float:
        """Expected cost of discarding ``k`` (relative units, same scale as the values)."""
        cost = 0.0
        unseen = view.unseen()
        me = view.seat
        ready_cache: bool | None = None
        for s, p_ready, pay in threats:
            river = view.rivers[s]
            if unseen[k] == 0 and k >= 27:
                continue
            p_wait = 0.12
            if k in river:
                p_wait = 0.03
            elif k >= 27:
                p_wait = 0.06 if unseen[k] <= 1 else 0.09
            elif k % 9 in (1, 4, 7):
                p_wait = 0.16
            if self.general_defence or fold:
                cost += p_ready * p_wait * pay * self.scale(view) * (10.0 if fold else 1.0)
            elif self.ready_defence and my_distance >= self.ready_defence_distance:
                openings_s = sum(1 for m in view.melds[s] if m.opens)
                if openings_s >= 3 or (openings_s == 2 and view.wall_remaining < 30):
                    cost += p_ready * p_wait * pay * self.scale(view) * self.ready_defence
            ms = view.melds[s]
            openings = [m for m in ms if m.opens]
            # 全求人: four exposed melds, one tile in hand; feeding it while not ready is liable
            if (len(openings) == 4 and len(ms) == 4 and view.hand_sizes[s] == 1
                    and view.rules.quanqiuren_liability != "none" and k < 27 and k % 9 in (1, 4, 7)):
                if ready_cache is None:
                    ready_cache = bool(waits(after, wilds))
                if not ready_cache or view.rules.quanqiuren_liability == "always":
                    live = sum(1 for x in JIANG if unseen[x] > 0) or 1
                    cost += (1.0 / live) * 3.0 * 3.0 * self.scale(view) * (0.3 if k in river else 1.0)
            # 清一色: a third opening from my discard makes me liable
            if len(openings) == 2 and k < 27:
                suit = k // 9
                if all(t < 27 and t // 9 == suit for m in ms for t in m.tiles()):
                    could_chi = s == (me + 1) % 4
                    p_claim = 0.35 if could_chi else (0.2 if unseen[k] >= 2 else 0.05)
                    cost += p_claim * 0.35 * 3.0 * 3.0 * self.scale(view)
        return cost

    def scale(self, view: SeatView) -> float:
        """The value of one relative payment unit (a small hand's typical worth)."""
        return self.defence_scale

    def rob_risk(self, view: SeatView, kind: int) -> float:
        """Rough chance that an added kong of ``kind`` gets robbed (the robbed pays all)."""
        risk = 0.0
        for s in range(4):
            if s == view.seat:
                continue
            openings = sum(1 for m in view.melds[s] if m.opens)
            if openings >= 3:
                risk += 0.15
        return risk

    # ------------------------------------------------------------------ claims
    def claim_action(self, view: SeatView) -> Action:
        t = view.pending
        assert t is not None
        nat, wilds = natural(view)
        melds = view.melds[view.seat]
        before, _tg, _d = self.hand_value(view, nat, wilds, melds)
        if not any(m.opens for m in melds) and not view.rules.jiayu_hands:
            before *= 0.75  # still has to open
        best: tuple[float, Action] | None = None
        for a in view.legal:
            if a.type not in ("kong", "peng", "chi"):
                continue
            c = list(nat)
            if a.type == "kong":
                c[t] -= 3
                new = Meld("kong", t, view.turn)
            elif a.type == "peng":
                c[t] -= 2
                new = Meld("peng", t, view.turn)
            else:
                base = a.tile or 0
                for x in (base, base + 1, base + 2):
                    if x != t:
                        c[x] -= 1
                new = Meld("chi", base, view.turn)
            after, _t2, d2 = self.hand_value(view, c, wilds, [*melds, new])
            if a.type == "kong":
                if d2 > self.kong_max_distance:
                    continue
                after *= 1.05
            if after > before * 1.02 and (best is None or after > best[0]):
                best = (after, a)
        if best is not None:
            return best[1]
        for a in view.legal:
            if a.type == "pass":
                return a
        return view.legal[0]
