"""The bots' toolkit: what every bot (and the hints) reads off a seat's view.

One home for the small facts the bots share, so that none copies another's:

- :func:`natural` — a hand's natural tiles (without laizi and special tiles) and its laizi;
- :func:`n_sets_of` — the sets a seat's concealed part still needs;
- :func:`tiles_after_claim` / :func:`claimed_hand` — the tiles left (and the new meld)
  after a chi, peng or kong;
- :func:`completing_kinds` — the kinds that may complete a 3n+1 hand;
- :func:`near_kinds`, :func:`improving_kinds` — the draws that may / do improve a hand;
- :func:`usefulness`, :func:`tile_order_key` — a tile's connectivity and the discard
  order among equals.

Rule facts come from their homes (tile categories from :mod:`laizi.tiles`, the table
番 from :func:`laizi.scoring.table_fan`); everything here reads the
:class:`~laizi.views.SeatView` only.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from typing import Final

from laizi.analysis import waits as raw_waits
from laizi.analysis.profiles import HandEval
from laizi.bots.base import SeatView
from laizi.game.actions import Action
from laizi.scoring.model import Meld
from laizi.tiles import FENG_KINDS, JIANG_SET, NUM_KINDS

__all__ = [
    "claimed_hand", "completing_kinds", "improving_kinds", "n_sets_of", "natural", "near_kinds",
    "tile_order_key", "tiles_after_claim", "usefulness",
]


def natural(view: SeatView, counts: Sequence[int] | None = None) -> tuple[list[int], int]:
    """(natural counts without laizi and special tiles, number of laizi) of the seat's
    hand, or of ``counts``."""
    c = list(view.hand if counts is None else counts)
    lz = view.setup.laizi
    wilds = c[lz]
    c[lz] = 0
    for k in view.setup.special:
        c[k] = 0
    return c, wilds


def n_sets_of(view: SeatView, seat: int | None = None) -> int:
    """The sets a seat's concealed part still needs (4 minus its melds)."""
    return 4 - len(view.melds[view.seat if seat is None else seat])


# ------------------------------------------------------------------------ claims
def tiles_after_claim(counts: Sequence[int], a: Action, t: int) -> list[int]:
    """The counts left after claiming the discard ``t`` with ``a`` (kong, peng or chi;
    for a chi ``a.tile`` is the run's lowest tile)."""
    c = list(counts)
    if a.type == "kong":
        c[t] -= 3
    elif a.type == "peng":
        c[t] -= 2
    else:
        base = a.tile or 0
        for x in (base, base + 1, base + 2):
            if x != t:
                c[x] -= 1
    return c


def claimed_hand(nat: list[int], a: Action, t: int, turn: int) -> tuple[list[int], Meld]:
    """The tiles left and the new meld after claiming ``t`` with ``a`` (a kong, peng or
    chi) from the seat ``turn``."""
    c = tiles_after_claim(nat, a, t)
    if a.type == "kong" or a.type == "peng":
        return c, Meld(a.type, t, turn)
    return c, Meld("chi", a.tile or 0, turn)


# ------------------------------------------------------------------ completions
def completing_kinds(view: SeatView, hand: Sequence[int]) -> list[int]:
    """Kinds whose tile may complete the seat's 3n+1 concealed ``hand``: the regular
    shape's waits and, under ``luan_feng_jiang``, every kind of 风一色 / 将一色 when all
    the seat's kinds (natural tiles held and melds) are of that category.

    Never a special tile (holding one cannot win) nor the laizi (drawn, it is a wild,
    not a kind the hand waits on). A hand with no natural kind at all (laizi and special
    tiles only) is of no category."""
    nat, wilds = natural(view, hand)
    kinds = set(raw_waits(nat, wilds))
    if view.rules.luan_feng_jiang:
        meld_kinds = {t for m in view.melds[view.seat] for t in m.tiles()}
        held = set(compress(range(NUM_KINDS), nat)) | meld_kinds  # (the kinds held)
        for cat in (FENG_KINDS, JIANG_SET):
            if held and held <= cat:
                kinds |= cat
    lz = view.setup.laizi
    return sorted(k for k in kinds if k != lz and k not in view.setup.special)


# ------------------------------------------------------------------- improvement
_NEAR: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(x for x in range(k - 2, k + 3) if k - k % 9 <= x <= k - k % 9 + 8) if k < 27 else (k,)
    for k in range(NUM_KINDS)
)


def near_kinds(counts: Sequence[int]) -> list[int]:
    """Kinds whose draw could improve a hand: held kinds and suited neighbours (±2)."""
    near: set[int] = set()
    for k in range(NUM_KINDS):
        if counts[k]:
            near.update(_NEAR[k])
    return sorted(near)


_IMPROVING: Final[dict[tuple[tuple[int, int, int, int], int, int, int], list[int]]] = {}
"""Cache of :func:`improving_kinds` by (suit keys, wilds, sets, shanten bound); cleared
past ``_IMPROVING_MAX`` entries."""
_IMPROVING_MAX: Final = 200_000


def improving_kinds(counts: Sequence[int], wilds: int, n: int, sh: int,
                    ev: HandEval | None = None) -> list[int]:
    """Kinds whose draw lowers the shanten ``sh`` of a 3n+1 hand (memoised by hand).

    ``ev``: the same hand already prepared (``counts``, ``wilds``, ``n``), to skip that step.
    """
    if ev is None:
        ev = HandEval(counts, wilds, n)
    k = ev.keys
    key = ((k[0], k[1], k[2], k[3]), wilds, n, sh)
    got = _IMPROVING.get(key)
    if got is None:
        got = ev.improving_draws(sh)
        if len(_IMPROVING) > _IMPROVING_MAX:
            _IMPROVING.clear()
        _IMPROVING[key] = got
    return got


def usefulness(counts: Sequence[int], k: int) -> float:
    """How connected tile ``k`` is in ``counts`` (copies and suited neighbours)."""
    c = counts[k]
    u = 3.0 * (c - 1)
    if k < 27:
        n = k % 9
        if n > 0:
            u += 2.0 * counts[k - 1]
        if n > 1:
            u += counts[k - 2]
        if n < 8:
            u += 2.0 * counts[k + 1]
        if n < 7:
            u += counts[k + 2]
        u += 0.1 * min(n, 8 - n)
    return u


def tile_order_key(k: int) -> float:
    """Tie-break preference for discarding: honours, then terminals, then the middle."""
    if k >= 27:
        return 0.0
    n = k % 9
    return 1.0 + min(n, 8 - n)
