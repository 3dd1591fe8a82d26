"""The ``expert`` bot's decision rules on top of ``strong`` (claims and kongs).

Kept apart from the search (:mod:`laizi.bots.expert`) so that each rule can be read,
measured and switched on its own (:class:`RuleParams`).
"""

from __future__ import annotations

from dataclasses import dataclass

from laizi.analysis.profiles import shanten258
from laizi.bots import tuning as T
from laizi.bots.base import SeatView
from laizi.bots.greedy import natural, tile_order_key, usefulness
from laizi.bots.outlook import danger_of, improving_258
from laizi.bots.strong import StrongBot, claimed_hand
from laizi.game.actions import Action

__all__ = ["RuleParams", "acceptance_choice", "block_action", "claim_choice", "hopeless",
           "strong_tie_break"]


@dataclass(frozen=True, slots=True)
class RuleParams:
    """Knobs of the expert's claim rule (defaults: measured in the arena)."""

    #: The first opening (an unopened hand's chi/peng/kong) only this close to ready
    #: after the claim, unless it advances a big hand.
    open_max_distance: int = 99
    #: ... a big-hand target (碰碰胡, 清一色 …) is exempt from that limit.
    open_big_exempt: bool = True
    #: Value kept by an unopened hand (it still has to open).
    unopened_discount: float = T.UNOPENED_DISCOUNT
    #: A claim must raise the hand's value by this factor.
    min_gain: float = T.CLAIM_MIN_GAIN
    #: chi only (not peng/kong) from the first opening on this far.
    chi_max_distance: int = 99


def claim_choice(strong: StrongBot, view: SeatView, p: RuleParams) -> Action:
    """The claim (or pass) for a claim decision, ``strong``'s valuation, ``p``'s rule."""
    t = view.pending
    assert t is not None
    nat, wilds = natural(view)
    melds = view.melds[view.seat]
    opened = any(m.opens for m in melds)
    before, _tg, _d = strong.hand_value(view, nat, wilds, melds)
    if not opened and not view.rules.jiayu_hands:
        before *= p.unopened_discount
    best: tuple[float, Action] | None = None
    for a in view.legal:
        if a.type not in ("kong", "peng", "chi"):
            continue
        c, new = claimed_hand(nat, a, t, view.turn)
        after, target, d2 = strong.hand_value(view, c, wilds, [*melds, new])
        if a.type == "kong":
            if d2 > strong.kong_max_distance:
                continue
            after *= T.KONG_CLAIM_BONUS
        if not opened and d2 > p.open_max_distance and not (
                p.open_big_exempt and target != "regular"):
            continue
        if a.type == "chi" and d2 > p.chi_max_distance:
            continue
        if after > before * p.min_gain and (best is None or after > best[0]):
            best = (after, a)
    if best is not None:
        return best[1]
    for a in view.legal:
        if a.type == "pass":
            return a
    return view.legal[0]


def hopeless(view: SeatView, fold_shanten: int) -> bool:
    """An unopened hand this far from ready (2/5/8-pair shanten): it plays to block."""
    if view.opened() or view.rules.jiayu_hands:
        return False
    nat, wilds = natural(view)
    n = 4 - len(view.melds[view.seat])
    if view.phase == "turn":
        # on its own turn the hand has 3n+2 tiles: its best discard's shanten
        return _best_after_discard(nat, wilds, n) >= fold_shanten
    return shanten258(nat, wilds, n) >= fold_shanten


def _best_after_discard(nat: list[int], wilds: int, n: int) -> int:
    best = 99
    for k in range(len(nat)):
        if nat[k]:
            nat[k] -= 1
            best = min(best, shanten258(nat, wilds, n))
            nat[k] += 1
    return best


def block_action(strong: StrongBot, view: SeatView) -> Action:
    """Play a hopeless hand to pay little and block: no claim, no kong, special tiles and
    laizi kept (each laid aside or discarded would double what it pays), and the
    discard least likely to feed a win (``strong``'s order among equals).

    An unopened seat without fan also raises the bar for every small win: each loser's
    raw payment must reach the minimum (起胡), so the winner needs more fan of its own.
    """
    legal = view.legal
    if view.phase == "claim":
        return next((a for a in legal if a.type == "pass"), legal[0])
    lz = view.setup.laizi
    special = view.setup.special
    discards = [a for a in legal if a.type == "discard" and a.tile is not None
                and a.tile != lz and a.tile not in special]
    if not discards:
        return strong.act(view)
    nat, wilds = natural(view)
    ranked = strong.rank_discards_strong(view, discards, nat, wilds)
    order = {a: i for i, (_s, a) in enumerate(ranked)}
    return min(discards, key=lambda a: (round(danger_of(view, a.tile or 0).feed_prob, 3),
                                        order.get(a, 99)))


def acceptance_choice(strong: StrongBot, view: SeatView, default: Action,
                      tolerance: float = 0.0) -> Action:
    """``strong``'s discard, or among the discards it values exactly as high (its ties,
    broken there by a tile's connectivity alone) the one that leaves the hand closest
    to ready with a 2/5/8 pair and then the most unseen tiles improving it: tile
    acceptance decides. ``tolerance``: also the discards valued within this share of
    the best."""
    lz = view.setup.laizi
    special = view.setup.special
    discards = [a for a in view.legal if a.type == "discard" and a.tile is not None
                and a.tile != lz and a.tile not in special]
    if len(discards) < 2 or default not in discards:
        return default
    nat, wilds = natural(view)
    ranked = strong.rank_discards_strong(view, discards, nat, wilds)
    base = [(s - strong_tie_break(nat, a.tile or 0), a) for s, a in ranked]
    top = max(b for b, _a in base)
    tol = 1e-9 * max(1.0, abs(top)) + tolerance * abs(top)
    tied = [a for b, a in base if b >= top - tol]
    if len(tied) < 2 or default not in tied:
        return default
    n = 4 - len(view.melds[view.seat])
    unseen = view.unseen()
    order = {a: i for i, (_s, a) in enumerate(ranked)}
    best: tuple[int, int, int, Action] | None = None
    for a in tied:
        k = a.tile or 0
        nat[k] -= 1
        sh = max(0, shanten258(nat, wilds, n))
        live = sum(unseen[x] for x in improving_258(nat, wilds, n, sh))
        nat[k] += 1
        key = (-sh, live, -order[a], a)
        if best is None or key[:3] > best[:3]:
            best = key
    assert best is not None
    return best[3]


def strong_tie_break(nat: list[int], k: int) -> float:
    """``strong``'s tie-break term of discarding ``k`` (see ``rank_discards_strong``)."""
    return (T.TIE_USEFULNESS * (T.USEFULNESS_CEILING - usefulness(nat, k))
            + T.TIE_ORDER * (T.ORDER_CEILING - tile_order_key(k)))
