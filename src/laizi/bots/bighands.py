"""Big-hand targets and their distances (shanten-like: -1 complete, 0 ready).

Counts are 34 natural counts (the laizi removed and passed as ``wilds``);
``n_sets`` is the number of sets the concealed part still needs (4 minus the
melds).  The regular (small) hand's distances are in :mod:`laizi.analysis.profiles`.

Targets are named ``pengpeng`` (碰碰胡), ``qingyise0``/``1``/``2`` (清一色 of the
characters, dots or bamboos), ``jiangyise`` (将一色) and ``fengyise`` (风一色).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from laizi.analysis.profiles import suit_keys, suit_profile
from laizi.bots.tuning import (
    FENG_TARGET_MAX_OUTSIDE,
    PENGPENG_MIN_PAIRS,
    QINGYISE_MIN_TILES,
)
from laizi.scoring.model import Meld
from laizi.tiles import FENG_KINDS, JIANG_SET, NUM_KINDS

__all__ = [
    "FENG",
    "JIANG",
    "fengyise_distance",
    "jiangyise_distance",
    "pengpeng_distance",
    "qingyise_distance",
    "reachable_targets",
    "target_distance",
]

FENG: Final = FENG_KINDS
"""The kinds of 风一色: winds, 白 and 发 (红中 is a special tile)."""
JIANG: Final = JIANG_SET
"""The kinds of 将一色: suited 2, 5 and 8."""
_NOT_FENG: Final = tuple(k for k in range(NUM_KINDS) if k not in FENG)
_NOT_JIANG: Final = tuple(k for k in range(NUM_KINDS) if k not in JIANG)


def pengpeng_distance(counts: Sequence[int], wilds: int, n_sets: int) -> int:
    """Distance to all triplets + any pair."""
    held = sorted((3 - min(c, 3), 2 - min(c, 2)) for c in counts if c)
    best = 99
    nh = len(held)
    for pi in range(min(nh, n_sets + 1) + 1):
        need = held[pi][1] if pi < nh else 2
        used = 0
        i = 0
        while used < n_sets:
            if i == pi:
                i += 1
                continue
            need += held[i][0] if i < nh else 3
            used += 1
            i += 1
        if need < best:
            best = need
    return best - wilds - 1


def qingyise_distance(counts: Sequence[int], wilds: int, n_sets: int, suit: int) -> int:
    """Shanten of the tiles of one suit alone (the others are to be discarded)."""
    return suit_profile(suit, suit_keys(counts)[suit])[5 + n_sets] - wilds - 1


def _category_distance(counts: Sequence[int], wilds: int, n_sets: int,
                       outside: Sequence[int]) -> int:
    """Loose 风一色/将一色 (any shape): every tile outside the category must be replaced."""
    total = sum(counts) + wilds
    bad = sum(counts[k] for k in outside)
    return bad - 1 + (3 * n_sets + 2 - total)


def fengyise_distance(counts: Sequence[int], wilds: int, n_sets: int) -> int:
    """Distance to a loose 风一色 (every tile a wind, 白 or 发)."""
    return _category_distance(counts, wilds, n_sets, _NOT_FENG)


def jiangyise_distance(counts: Sequence[int], wilds: int, n_sets: int) -> int:
    """Distance to a loose 将一色 (every tile a suited 2, 5 or 8)."""
    return _category_distance(counts, wilds, n_sets, _NOT_JIANG)


def target_distance(target: str, counts: Sequence[int], wilds: int, n_sets: int) -> int:
    """Distance to a big-hand ``target`` (one of the names above)."""
    if target == "pengpeng":
        return pengpeng_distance(counts, wilds, n_sets)
    if target == "jiangyise":
        return jiangyise_distance(counts, wilds, n_sets)
    if target == "fengyise":
        return fengyise_distance(counts, wilds, n_sets)
    if target.startswith("qingyise") and target[-1] in "012":
        return qingyise_distance(counts, wilds, n_sets, int(target[-1]))
    raise ValueError(f"unknown big-hand target {target!r}")


def reachable_targets(counts: Sequence[int], wilds: int, melds: Sequence[Meld], *,
                      luan_feng_jiang: bool) -> list[str]:
    """Big-hand targets still reachable with these melds (清一色: the leading suit only).

    ``luan_feng_jiang``: the rule set allows loose 风一色/将一色.
    """
    out: list[str] = []
    meld_kinds = [t for m in melds for t in m.tiles()]
    if all(m.type != "chi" for m in melds):
        pairs = sum(1 for c in counts if c >= 2) + sum(1 for m in melds)
        if pairs + wilds >= PENGPENG_MIN_PAIRS:
            out.append("pengpeng")
    suit_count = [0, 0, 0]
    for k in range(27):
        suit_count[k // 9] += counts[k]
    for t in meld_kinds:
        if t < 27:
            suit_count[t // 9] += 1
    s = max(range(3), key=lambda i: suit_count[i])
    if all(t < 27 and t // 9 == s for t in meld_kinds) and suit_count[s] + wilds >= QINGYISE_MIN_TILES:
        out.append(f"qingyise{s}")
    if luan_feng_jiang:
        total = sum(counts) + wilds + len(meld_kinds)
        jiang = sum(counts[k] for k in JIANG) + wilds + len(meld_kinds)
        if all(t in JIANG for t in meld_kinds) and jiang >= total - FENG_TARGET_MAX_OUTSIDE:
            out.append("jiangyise")
        feng = sum(counts[k] for k in FENG) + wilds + len(meld_kinds)
        if all(t in FENG for t in meld_kinds) and feng >= total - FENG_TARGET_MAX_OUTSIDE:
            out.append("fengyise")
    return out
