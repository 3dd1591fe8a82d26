"""The ``expert`` bot's decision rule on top of ``strong``: discards broken by tile
acceptance (:func:`acceptance_choice`).

The claim rule with its own numbers and the block mode for hopeless hands, measured
and left off, are experiments: :mod:`laizi.bots.experimental`.
"""

from __future__ import annotations

from laizi.analysis.profiles import shanten258
from laizi.bots import tuning as T
from laizi.bots.base import SeatView
from laizi.bots.outlook import improving_258
from laizi.bots.strong import StrongBot
from laizi.bots.toolkit import natural, tile_order_key, usefulness
from laizi.game.actions import Action

__all__ = ["acceptance_choice", "strong_tie_break"]


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
