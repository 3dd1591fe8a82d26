"""Determinization: a world (a :class:`~laizi.game.state.HandState`) consistent with one
seat's view, for playouts — the experimental Monte Carlo search
(:mod:`laizi.bots.experimental.search`) and the ``learned`` bot's training script.

The deck is built from the :class:`~laizi.bots.base.SeatView` alone, so nothing outside
the view can leak into a world.
"""

from __future__ import annotations

import random

from laizi.bots.base import SeatView
from laizi.game.actions import Action
from laizi.game.position import PositionError, position
from laizi.game.state import HandState
from laizi.tiles import NUM_KINDS

__all__ = ["sample_world"]


def sample_world(view: SeatView, rng: random.Random) -> HandState | None:
    """One world consistent with the view, positioned just before the decision: the
    tiles the seat cannot see (other seats' concealed hands, the wall) dealt at random
    from exactly the copies it has not seen, each seat getting as many as it holds;
    in a claim window the discard under claim is discarded again. None when the view
    does not add up (a hand-made view) or the position is not legal."""
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
