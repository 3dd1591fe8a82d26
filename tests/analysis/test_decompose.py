"""The rule-level decomposer agrees with the table-driven can_win, and its groups add up."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from laizi.analysis import can_win
from laizi.analysis.decompose import decompositions
from laizi.tiles import counts_from_str


@st.composite
def hands(draw: st.DrawFn) -> tuple[list[int], int]:
    wilds = draw(st.integers(0, 3))
    size = draw(st.sampled_from([2, 5, 8, 11, 14])) - wilds
    size = max(size, 0)
    counts = [0] * 34
    # Cluster the kinds so complete hands are common.
    kinds = draw(st.lists(st.integers(0, 33), min_size=1, max_size=6, unique=True))
    while sum(counts) < size:
        base = draw(st.sampled_from(kinds))
        k = min(33, base + draw(st.integers(0, 2))) if base < 27 else base
        if counts[k] < 4:
            counts[k] += 1
        elif all(counts[x] >= 4 for x in range(34)):
            break
        else:
            kinds.append(next(x for x in range(34) if counts[x] < 4))
    return counts, wilds


@settings(max_examples=300, deadline=None)
@given(hands())
def test_decompositions_exist_iff_can_win(hand: tuple[list[int], int]) -> None:
    counts, wilds = hand
    ds = decompositions(counts, wilds, limit=[99] * 34)
    assert bool(ds) == can_win(counts, wilds)
    for d in ds:
        assert sum(1 for g in d.groups if g.type == "pair") == 1
        used = [0] * 34
        for g in d.groups:
            for k in g.kinds():
                used[k] += 1
        # every natural tile is used exactly once; the rest are wildcards
        naturals = sum(3 if g.type != "pair" else 2 for g in d.groups) - d.wilds
        assert naturals == sum(counts)
        assert d.wilds == wilds


def test_a_laizi_may_not_stand_for_a_special_tile() -> None:
    # 123m456p789s555s + 7z: complete only with a wild standing for 中 (the pair).
    counts = counts_from_str("123m456p789s555s7z")
    assert decompositions(counts, 1)  # unrestricted
    assert not decompositions(counts, 1, forbidden=frozenset({33}))


def test_fifth_copy_limit() -> None:
    counts = counts_from_str("1111m234p567s99s")
    limit = [4 - n for n in counts]
    assert all(g.kind != 0 or g.wilds == 0 for d in decompositions(counts, 1, limit=limit)
               for g in d.groups)
