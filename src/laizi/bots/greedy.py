"""``greedy``: minimise shanten, then maximise the unseen tiles that improve the hand.

Wins whenever the engine offers a win (the engine only offers wins that pass every
check, minimum score included). Special tiles are laid aside at once (a hand holding
one cannot win); a second laizi is laid aside (two laizi allow only big hands).
Claims (peng/chi/kong) are taken when they lower the shanten, or keep it while the
hand is still unopened (a hand must be opened to win).

Everything is table-driven (:mod:`laizi.analysis.profiles`); the scorer is never called.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from laizi.analysis.fast import waits
from laizi.analysis.profiles import HandEval, shanten_keys, suit_keys
from laizi.bots.base import Bot, SeatView
from laizi.bots.toolkit import (
    improving_kinds,
    n_sets_of,
    natural,
    near_kinds,
    tile_order_key,
    tiles_after_claim,
    usefulness,
)
from laizi.bots.tuning import (
    GREEDY_LOOKAHEAD_CANDIDATES,
    GREEDY_LOOKAHEAD_SHANTEN,
    LAIZI_USEFULNESS,
)
from laizi.game.actions import Action
from laizi.tiles import NUM_KINDS

# The hand helpers live in laizi.bots.toolkit; the names stay importable from here.
__all__ = [
    "GreedyBot", "improving_kinds", "natural", "near_kinds", "n_sets_of", "tile_order_key",
    "usefulness",
]


_ORDER: Final = tuple(tile_order_key(k) for k in range(NUM_KINDS))


class GreedyBot(Bot):
    """Shanten-minimising bot (fast)."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"

    # ------------------------------------------------------------------ entry
    def act(self, view: SeatView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        first = legal[0].type  # the engine lists a win first
        if first == "tsumo" or first == "ron":
            return legal[0]
        for a in legal:
            if a.type == "tsumo" or a.type == "ron":
                return a
        if view.phase == "turn":
            return self.turn_action(view)
        if view.phase == "claim":
            return self.claim_action(view)
        if view.phase == "replace":
            return self.replace_action(view)
        # rob / haidi without a win: pass
        for a in legal:
            if a.type == "pass":
                return a
        return legal[0]

    def replace_action(self, view: SeatView) -> Action:
        """After a kong (``kong_draw_choice``): draw the replacement — one more tile can
        only lower the shanten, and it may win (杠上开花)."""
        return next((a for a in view.legal if a.type == "draw"), view.legal[0])

    # ------------------------------------------------------------------ own turn
    def turn_action(self, view: SeatView) -> Action:
        discards: list[Action] = []
        kongs: list[Action] = []
        for a in view.legal:
            if a.type == "discard":
                discards.append(a)
            elif a.type == "special_kong":
                return a
            else:
                kongs.append(a)
        for a in kongs:
            t = a.type
            k = a.tile or 0
            if t == "laizi_kong":
                if self.want_laizi_kong(view):
                    return a
            elif t == "ankong":
                if self.want_ankong(view, k):
                    return a
            elif t == "addkong" and self.want_addkong(view, k):
                return a
        return self.choose_discard(view, discards)

    def want_laizi_kong(self, view: SeatView) -> bool:
        return view.hand[view.setup.laizi] >= 2

    def want_ankong(self, view: SeatView, kind: int) -> bool:
        nat, wilds = natural(view)
        n = n_sets_of(view)
        before = shanten_keys(suit_keys(nat), n, wilds)
        after_c = list(nat)
        after_c[kind] -= 4
        after = shanten_keys(suit_keys(after_c), n - 1, wilds)
        return after <= before

    def want_addkong(self, view: SeatView, kind: int) -> bool:
        return True

    def choose_discard(self, view: SeatView, discards: list[Action]) -> Action:
        if not discards:
            return view.legal[0]
        special = view.setup.special
        for a in discards:
            if a.tile in special:
                return a  # must go (no kong allowed now)
        nat, wilds = natural(view)
        lz = view.setup.laizi
        ev = HandEval(nat, wilds, n_sets_of(view))
        kinds = [a.tile or 0 for a in discards]
        shs = ev.shanten_each([k if k != lz else 0 for k in kinds], -1)
        best = 99
        for i, k in enumerate(kinds):
            if k == lz:
                shs[i] = ev.base_missing - wilds
            if shs[i] < best:
                best = shs[i]
        tied = [i for i, sh in enumerate(shs) if sh == best]
        if len(tied) == 1:
            return discards[tied[0]]
        # connectivity, then honours/terminals first, then the kind (a total order)
        order = sorted([(LAIZI_USEFULNESS if kinds[i] == lz else usefulness(nat, kinds[i]),
                         _ORDER[kinds[i]], kinds[i], i) for i in tied])
        if best > GREEDY_LOOKAHEAD_SHANTEN:
            return discards[order[0][3]]
        unseen = view.unseen()
        best_i = order[0][3]
        best_acc = -1
        for *_, i in order[:GREEDY_LOOKAHEAD_CANDIDATES]:
            k = kinds[i]
            if k == lz:
                c = list(nat)
                acc = self.improvement(c, wilds - 1, ev.n, best, unseen)
            else:
                # evaluate the hand without k in place (one suit key changes)
                nat[k] -= 1
                ev.change(k, -1)
                if best <= 0:
                    acc = sum(unseen[x] for x in waits(nat, wilds, pair258=True))
                else:
                    acc = sum(unseen[x] for x in improving_kinds(nat, wilds, ev.n, best, ev))
                ev.change(k, 1)
                nat[k] += 1
            if acc > best_acc:
                best_acc = acc
                best_i = i
        return discards[best_i]

    def improvement(self, counts: Sequence[int], wilds: int, n: int, sh: int,
                    unseen: Sequence[int]) -> int:
        """Unseen tiles that improve a 3n+1 hand (its 2/5/8-pair waits when ready)."""
        if sh <= 0:
            return sum(unseen[k] for k in waits(counts, wilds, pair258=True))
        return sum(unseen[k] for k in improving_kinds(counts, wilds, n, sh))

    # ------------------------------------------------------------------ claims
    def claim_action(self, view: SeatView) -> Action:
        t = view.pending
        assert t is not None
        nat, wilds = natural(view)
        n = n_sets_of(view)
        before = shanten_keys(suit_keys(nat), n, wilds)
        opened = view.opened()
        best: tuple[int, Action] | None = None
        for a in view.legal:
            if a.type not in ("kong", "peng", "chi"):
                continue
            after = self.shanten_after_claim(nat, wilds, n, a, t)
            gain = before - after
            ok = gain > 0 or (gain == 0 and (not opened or a.type == "kong"))
            if ok and (best is None or after < best[0]):
                best = (after, a)
        if best is not None:
            return best[1]
        return _pass(view.legal)

    @staticmethod
    def shanten_after_claim(nat: list[int], wilds: int, n: int, a: Action, t: int) -> int:
        """The shanten after claiming ``t`` with ``a``: for a kong, of the 3(n-1)+1 hand a
        replacement tile comes to; for a peng or chi, of the 3(n-1)+2 tiles before the
        discard (its best discard's)."""
        c = tiles_after_claim(nat, a, t)
        return shanten_keys(suit_keys(c), n - 1, wilds)


def _pass(legal: Sequence[Action]) -> Action:
    for a in legal:
        if a.type == "pass":
            return a
    return legal[0]

