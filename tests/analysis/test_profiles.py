"""laizi.analysis.profiles (the bots' shanten engine) and the checked public API.

Per-suit profiles are compared with a brute force over every target (m sets + p
pairs inside one suit); whole-hand figures with min-plus merges of those profiles
and with :func:`laizi.analysis.fast.shanten`; one-tile-change queries with
evaluating each changed hand from scratch.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laizi.analysis import can_win, checked, fast, shanten, waits
from laizi.analysis.profiles import (
    JIANG_KINDS,
    PLACE,
    HandEval,
    missing_tiles,
    regular_shanten,
    sets_missing,
    shanten258,
    suit_keys,
    suit_of,
    suit_profile,
)
from laizi.errors import IllegalHandError
from laizi.tiles import NUM_KINDS, counts_from_str

# ---------------------------------------------------------------------------
# Brute-force references.


@cache
def _suit_targets(size: int, runs: bool) -> dict[tuple[int, int], list[tuple[int, ...]]]:
    """(m, p) -> every count vector of m sets + p pairs in one suit, four copies at most."""
    sets = [tuple(3 if j == i else 0 for j in range(size)) for i in range(size)]
    if runs:
        sets += [tuple(1 if i <= j <= i + 2 else 0 for j in range(size)) for i in range(size - 2)]
    pairs = [tuple(2 if j == i else 0 for j in range(size)) for i in range(size)]
    out: dict[tuple[int, int], set[tuple[int, ...]]] = {}
    for m in range(5):
        for combo in itertools.combinations_with_replacement(sets, m):
            base = [sum(col) for col in zip(*combo, strict=True)] if combo else [0] * size
            for p, extra in [(0, [(0,) * size])] + [(1, [x]) for x in pairs]:
                for e in extra:
                    t = tuple(b + x for b, x in zip(base, e, strict=True))
                    if max(t) <= 4:
                        out.setdefault((m, p), set()).add(t)
    return {mp: sorted(ts) for mp, ts in out.items()}


def brute_profile(digits: Sequence[int], runs: bool) -> tuple[int, ...]:
    """profile[p * 5 + m] by trying every target of the suit (missing = target - held)."""
    prof = [99] * 10
    for (m, p), ts in _suit_targets(len(digits), runs).items():
        prof[p * 5 + m] = min(sum([t - d for t, d in zip(tt, digits, strict=True) if t > d])
                              for tt in ts)
    return tuple(prof)


def merge_all(profiles: Sequence[Sequence[int]], n: int, pairs: int) -> int:
    """Fewest missing tiles for n sets + ``pairs`` pairs from four suit profiles."""
    best = 99
    for split in itertools.product(range(n + 1), repeat=4):
        if sum(split) != n:
            continue
        for pair_suit in range(4) if pairs else [None]:
            v = sum(prof[(1 if s == pair_suit else 0) * 5 + m]
                    for s, (prof, m) in enumerate(zip(profiles, split, strict=True)))
            best = min(best, v)
    return best


def digits_of(counts: Sequence[int], suit: int) -> tuple[int, ...]:
    return tuple(counts[27:34]) if suit == 3 else tuple(counts[9 * suit: 9 * suit + 9])


# ---------------------------------------------------------------------------
# Strategies.


@st.composite
def suits(draw: st.DrawFn) -> tuple[tuple[int, ...], bool]:
    runs = draw(st.booleans())
    size = 9 if runs else 7
    digits = draw(st.lists(st.integers(0, 4), min_size=size, max_size=size))
    return tuple(digits), runs


def _hand(rng: random.Random, tiles: int) -> list[int]:
    counts = [0] * NUM_KINDS
    pool = [k for k in range(NUM_KINDS) for _ in range(4)]
    if rng.random() < 0.5:  # clustered: a few suits only
        keep = rng.sample(range(4), 2)
        pool = [k for k in pool if suit_of(k) in keep]
    for k in rng.sample(pool, tiles):
        counts[k] += 1
    return counts


@st.composite
def hands(draw: st.DrawFn, residue: int) -> tuple[list[int], int, int]:
    """(counts, wilds, n_sets) with 3 * n_sets + residue tiles (wilds included)."""
    n = draw(st.integers(1, 4))
    wilds = draw(st.integers(0, 2))
    rng = random.Random(draw(st.integers(0, 2**32)))
    return _hand(rng, 3 * n + residue - wilds), wilds, n


# ---------------------------------------------------------------------------
# Per-suit profiles.


@settings(max_examples=60, deadline=None)
@given(suits())
def test_suit_profile_matches_brute_force(suit: tuple[tuple[int, ...], bool]) -> None:
    digits, runs = suit
    key = 0
    for d in digits:
        key = key * 5 + d
    assert suit_profile(0 if runs else 3, key) == brute_profile(digits, runs)


def test_suit_keys_and_places() -> None:
    counts = counts_from_str("1239m55p7s1177z")
    keys = suit_keys(counts)
    for s in range(4):
        value = 0
        for d in digits_of(counts, s):
            value = value * 5 + d
        assert keys[s] == value
    for k in range(NUM_KINDS):
        s, place = PLACE[k]
        c = list(counts)
        c[k] += 1 if c[k] < 4 else -1
        delta = suit_keys(c)[s] - keys[s]
        assert abs(delta) == place and s == suit_of(k)


# ---------------------------------------------------------------------------
# Whole hands.


@settings(max_examples=150, deadline=None)
@given(st.one_of(hands(1), hands(2)))
def test_missing_tiles_merge_suit_profiles(hand: tuple[list[int], int, int]) -> None:
    counts, _wilds, n = hand
    keys = suit_keys(counts)
    profiles = [suit_profile(s, keys[s]) for s in range(4)]
    assert missing_tiles(keys, n) == merge_all(profiles, n, 1)
    assert sets_missing(keys, n) == merge_all(profiles, n, 0)


@settings(max_examples=200, deadline=None)
@given(st.one_of(hands(1), hands(2)))
def test_regular_shanten_equals_fast_shanten(hand: tuple[list[int], int, int]) -> None:
    counts, wilds, n = hand
    est = regular_shanten(counts, wilds, n)
    exact = fast.shanten(counts, wilds)
    if wilds and 4 in counts:
        assert exact <= est  # a wild may be a fifth copy only in the exact function
    else:
        assert est == exact


@settings(max_examples=150, deadline=None)
@given(st.one_of(hands(1), hands(2)))
def test_shanten258_is_the_best_258_pair(hand: tuple[list[int], int, int]) -> None:
    counts, wilds, n = hand
    keys = suit_keys(counts)
    best = 99
    for k in JIANG_KINDS:
        take = min(counts[k], 2)
        c = list(counts)
        c[k] -= take
        ck = suit_keys(c)
        profiles = [suit_profile(s, ck[s]) for s in range(4)]
        best = min(best, merge_all(profiles, n, 0) + 2 - take)
    assert shanten258(counts, wilds, n) == best - wilds - 1
    assert shanten258(counts, wilds, n) >= missing_tiles(keys, n) - wilds - 1


# ---------------------------------------------------------------------------
# HandEval: one-tile changes against recomputing from scratch.


@settings(max_examples=200, deadline=None)
@given(hands(1))
def test_improving_draws_match_one_by_one(hand: tuple[list[int], int, int]) -> None:
    counts, wilds, n = hand
    ev = HandEval(counts, wilds, n)
    sh = ev.shanten
    assert sh == regular_shanten(counts, wilds, n)
    want = []
    for k in range(NUM_KINDS):
        if counts[k] < 4:
            c = list(counts)
            c[k] += 1
            if regular_shanten(c, wilds, n) < sh:
                want.append(k)
    # only draws near the held tiles are considered (a far tile can help only
    # together with wilds alone: the bots' approximation)
    near = _near(counts)
    assert ev.improving_draws(sh) == [k for k in want if k in near]
    if not wilds:
        assert ev.improving_draws(sh) == want


def _near(counts: Sequence[int]) -> set[int]:
    near: set[int] = set()
    for k in range(NUM_KINDS):
        if counts[k]:
            near.update(x for x in range(k - 2, k + 3)
                        if k < 27 and suit_of(x) == suit_of(k) and 0 <= x < 27)
            near.add(k)
    return near


@settings(max_examples=200, deadline=None)
@given(hands(2))
def test_shanten_each_and_change(hand: tuple[list[int], int, int]) -> None:
    counts, wilds, n = hand
    ev = HandEval(counts, wilds, n)
    held = [k for k in range(NUM_KINDS) if counts[k]]
    want = []
    for k in held:
        c = list(counts)
        c[k] -= 1
        want.append(regular_shanten(c, wilds, n))
    assert ev.shanten_each(held, -1) == want
    assert [ev.missing_with(k, -1) - wilds - 1 for k in held] == want
    k = held[0]
    ev.change(k, -1)
    assert ev.shanten == want[0]
    ev.change(k, 1)
    assert ev.shanten == regular_shanten(counts, wilds, n)
    assert "HandEval(" in repr(ev)


# ---------------------------------------------------------------------------
# The checked public API.


GOOD = counts_from_str("123m456p789s111z22z")


def test_checked_functions_agree_with_fast_on_good_input() -> None:
    rng = random.Random(5)
    for _ in range(200):
        counts = _hand(rng, rng.choice([13, 14]))
        for w in (0, 1):
            assert can_win(counts, w) == fast.can_win(counts, w)
            assert waits(counts, w, pair258=True) == fast.waits(counts, w, pair258=True)
            if sum(counts) + w <= 14:
                assert shanten(counts, w) == fast.shanten(counts, w)
    assert can_win(tuple(GOOD)) and shanten(GOOD) == -1


@pytest.mark.parametrize(("counts", "wilds", "message"), [
    ([0] * 33, 0, "34 counts"),
    ([0] * 35, 0, "34 counts"),
    ("1112345678999m", 0, "sequence of 34"),
    (None, 0, "sequence of 34"),
    ([5] + [0] * 33, 0, "kind 0 must be an integer 0-4, got 5"),
    ([0] * 20 + [-1] + [0] * 13, 0, "kind 20 must be an integer 0-4, got -1"),
    ([0] * 33 + [1.0], 0, "kind 33"),
    (GOOD, -1, "wilds"),
    (GOOD, 0.5, "wilds"),
])
@pytest.mark.parametrize("fn", [can_win, waits, shanten])
def test_checked_functions_reject_bad_input(fn: object, counts: object, wilds: object,
                                            message: str) -> None:
    with pytest.raises(IllegalHandError, match=message) as info:
        fn(counts, wilds)  # type: ignore[operator]
    assert isinstance(info.value, ValueError)


def test_tile_totals() -> None:
    # any total is legal for can_win / waits: False / [] off the 3n+2 / 3n+1 sizes
    assert can_win(counts_from_str("123m456p789s111z2z")) is False
    assert waits(GOOD) == []
    assert can_win(counts_from_str("111555m222666p33377s444z"))  # six sets + a pair
    assert waits(counts_from_str("111555m222666p3337s444z")) == [24]
    # shanten: at most 14 tiles
    with pytest.raises(IllegalHandError, match="15 tiles"):
        shanten(GOOD, 1)
    with pytest.raises(IllegalHandError, match="at most 14"):
        checked.check_hand(GOOD, 1, max_tiles=14)
    checked.check_hand(GOOD, 0, max_tiles=14)


def test_module_examples() -> None:
    import doctest

    from laizi.analysis import profiles

    result = doctest.testmod(profiles)
    assert result.attempted >= 2 and result.failed == 0
