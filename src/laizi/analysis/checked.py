"""The public, input-checked hand functions: ``can_win``, ``waits``, ``shanten``.

These are :mod:`laizi.analysis.fast`'s functions behind a check of their input,
raising :class:`~laizi.errors.IllegalHandError` (a ``ValueError``) with a precise
message instead of returning garbage.  The contract:

* ``counts``: exactly 34 integers (index order of :mod:`laizi.tiles`), each 0-4:
  the *natural* tiles, wildcards excluded;
* ``wilds``: an integer >= 0 (wildcards; each may stand for any tile, any copy);
* tile total ``sum(counts) + wilds``: :func:`can_win` accepts any total and is
  ``False`` unless it is ``3n + 2``; :func:`waits` is ``[]`` unless it is
  ``3n + 1``; :func:`shanten` needs a total of at most 14 (a concealed hand: fewer
  tiles stand for exposed melds).

The check costs about a third of a ``can_win`` call, so the engine and the bots,
which build their counts themselves, call the unchecked functions of
:mod:`laizi.analysis.fast` directly.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

from laizi.analysis import fast
from laizi.errors import IllegalHandError
from laizi.tiles import NUM_KINDS

__all__ = ["MAX_SHANTEN_TILES", "can_win", "check_hand", "shanten", "waits"]

MAX_SHANTEN_TILES = 14
_VALID = bytes(range(5))


def check_hand(counts: Sequence[int], wilds: int = 0, *, max_tiles: int | None = None) -> None:
    """Raise :class:`~laizi.errors.IllegalHandError` unless ``counts``/``wilds`` meet the
    contract above (and ``sum(counts) + wilds <= max_tiles`` when given)."""
    ok = False
    if type(counts) is list or type(counts) is tuple:
        try:  # quick path: 34 counts, every byte 0-4
            ok = len(counts) == NUM_KINDS and not bytes(counts).translate(None, _VALID)
        except (TypeError, ValueError):  # a non-integer, or out of 0-255
            ok = False
    if not ok:
        _check_slowly(counts)
    try:
        w = operator.index(wilds)
    except TypeError:
        raise IllegalHandError("wilds", f"must be an integer >= 0, got {wilds!r}") from None
    if w < 0:
        raise IllegalHandError("wilds", f"must be an integer >= 0, got {wilds!r}")
    if max_tiles is not None:
        total = sum(counts) + w
        if total > max_tiles:
            raise IllegalHandError("counts", f"{total} tiles with the wilds, at most "
                                             f"{max_tiles} allowed here")


def _check_slowly(counts: Sequence[int]) -> None:
    """Check any sequence kind by kind; raise the precise error for bad counts."""
    try:
        if isinstance(counts, (str, bytes)):
            raise TypeError
        items = list(counts)
    except TypeError:
        raise IllegalHandError("counts", f"must be a sequence of {NUM_KINDS} integers, "
                                         f"got {type(counts).__name__}") from None
    if len(items) != NUM_KINDS:
        raise IllegalHandError("counts", f"must hold {NUM_KINDS} counts (one per kind), "
                                         f"got {len(items)}")
    for kind, c in enumerate(items):
        v = operator.index(c) if hasattr(c, "__index__") else -1
        if not 0 <= v <= 4:
            raise IllegalHandError("counts", f"count of kind {kind} must be an integer "
                                             f"0-4, got {c!r}")


def can_win(counts: Sequence[int], wilds: int = 0, *, pair258: bool = False) -> bool:
    """Whether natural tiles ``counts`` plus ``wilds`` wildcards form n sets + 1 pair.

    A set is a run within one suit or a triplet; ``False`` unless
    ``sum(counts) + wilds`` is ``3n + 2``.  With ``pair258`` the pair must be a
    suited 2, 5 or 8 holding at least one natural tile.  Checked input (see the
    module); :func:`laizi.analysis.fast.can_win` is the unchecked fast path.
    """
    check_hand(counts, wilds)
    return fast.can_win(counts, wilds, pair258=pair258)


def waits(counts: Sequence[int], wilds: int = 0, *, pair258: bool = False) -> list[int]:
    """Kinds (ascending) whose addition makes :func:`can_win` true.

    Only kinds with fewer than four natural copies are candidates; ``[]`` unless
    ``sum(counts) + wilds`` is ``3n + 1``.  Checked input (see the module).
    """
    check_hand(counts, wilds)
    return fast.waits(counts, wilds, pair258=pair258)


def shanten(counts: Sequence[int], wilds: int = 0) -> int:
    """Shanten of a regular (sets + pair) hand of at most 14 tiles; -1 means complete.

    The hand needs ``(sum(counts) + wilds) // 3`` sets plus a pair.  The value is the
    fewest natural tiles to draw (exchanging others) before :func:`can_win` holds,
    minus one; wilds are free jokers, drawn tiles respect the four-copy limit.
    Checked input (see the module).
    """
    check_hand(counts, wilds, max_tiles=MAX_SHANTEN_TILES)
    return fast.shanten(counts, wilds)
