"""Experiment (switched off): a block mode for hopeless hands (registry name
``expert-block``) — an unopened hand far from ready stops playing to win and plays to
pay little. Measured worse than ``expert`` on the tuning seeds."""

from __future__ import annotations

from laizi.analysis.profiles import shanten258
from laizi.bots.base import SeatView
from laizi.bots.outlook import danger_of
from laizi.bots.strong import StrongBot
from laizi.bots.toolkit import natural
from laizi.game.actions import Action

__all__ = ["block_action", "hopeless"]


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
