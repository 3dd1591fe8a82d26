"""Positions: a live :class:`HandState` built from a table and an assumed hidden part.

Search bots (``laizi.bots.expert``) reason about the tiles they cannot see by
*determinization*: they guess the other seats' concealed tiles and the order of the
wall, consistent with everything their seat has seen, and play the hand out from
there. :func:`position` turns such a guess into a real engine state, so the playouts
use the same rules, claims, kongs, scoring and liability as a real hand.

The caller supplies every concealed hand and the live wall; nothing here knows which
parts were seen and which were guessed. The result is a fresh state with an empty
history (its event log holds only the synthetic deal), on which :meth:`HandState.apply`
works as usual.
"""

from __future__ import annotations

from collections.abc import Sequence

from laizi.game.enums import Phase
from laizi.game.state import HandState
from laizi.game.wall import DEAD_START, INDICATOR_POS, LIVE_START, WALL_SIZE
from laizi.rules import RuleSet
from laizi.scoring.model import Meld
from laizi.tiles import NUM_KINDS

__all__ = ["PositionError", "position"]


class PositionError(ValueError):
    """The parts of a position don't add up to a legal table (136 tiles, 4 of a kind)."""


def _back_draws(melds: Sequence[Sequence[Meld]], special_kongs: Sequence[Sequence[int]]) -> int:
    """Replacement tiles drawn from the back of the wall: one per kong of any kind."""
    n = sum(1 for ms in melds for m in ms if m.type in ("ankong", "kong", "addkong"))
    return n + sum(len(x) for x in special_kongs)


def position(
    rules: RuleSet,
    *,
    dealer: int,
    indicator: int,
    hands: Sequence[Sequence[int]],
    melds: Sequence[Sequence[Meld]],
    rivers: Sequence[Sequence[int]],
    special_kongs: Sequence[Sequence[int]],
    special_discards: Sequence[Sequence[int]],
    live_wall: Sequence[int],
    turn: int,
    last_draw: int | None = None,
    after_claim: bool = False,
    after_kong: bool = False,
) -> HandState:
    """A state in the ``turn`` phase: seat ``turn`` to act with ``hands[turn]``.

    ``live_wall`` lists the tiles still to be drawn, front first (the back of the wall,
    where kong replacements come from, is its end).
    """
    count = [0] * NUM_KINDS
    count[indicator] += 1
    for s in range(4):
        for k in range(NUM_KINDS):
            count[k] += hands[s][k]
        for m in melds[s]:
            for k in m.tiles():
                count[k] += 1
        for lst in (rivers[s], special_kongs[s], special_discards[s]):
            for k in lst:
                count[k] += 1
    for k in live_wall:
        count[k] += 1
    if any(c != 4 for c in count):
        bad = [k for k in range(NUM_KINDS) if count[k] != 4]
        raise PositionError(f"the position does not hold 4 of every kind (off: {bad})")
    back = DEAD_START - _back_draws(melds, special_kongs)
    front = back - len(live_wall) + 1
    if front < LIVE_START:
        raise PositionError("more tiles in the live wall than the wall can hold")
    # A full wall: the indicator in place, the live part in order, every other tile
    # (already dealt, drawn or discarded) in the positions no longer read.
    rest: list[int] = []
    used = [0] * NUM_KINDS
    used[indicator] += 1
    for k in live_wall:
        used[k] += 1
    for k in range(NUM_KINDS):
        rest.extend([k] * (4 - used[k]))
    wall = [0] * WALL_SIZE
    wall[INDICATOR_POS] = indicator
    wall[front:back + 1] = list(live_wall)
    free = [p for p in range(WALL_SIZE) if p != INDICATOR_POS and not front <= p <= back]
    for p, k in zip(free, rest, strict=True):
        wall[p] = k
    st = HandState.new(rules, dealer, wall=wall)
    st.hands = [list(h) for h in hands]
    st.melds = [list(ms) for ms in melds]
    st.rivers = [list(r) for r in rivers]
    st.special_kongs = [list(x) for x in special_kongs]
    st.special_discards = [list(x) for x in special_discards]
    st.front = front
    st.back = back
    st.phase = Phase.TURN
    st.turn = turn
    st.last_draw = last_draw
    st.after_claim = after_claim
    st.after_kong = after_kong
    st.forget_caches()
    return st
