"""Tests for laizi.analysis.fast: table-driven can_win / waits / shanten with wilds.

The fast functions are checked against slow, obviously-correct references written
here (recursive set search for wins; the textbook definition for shanten on small
hands) and against the ``mahjong`` package's regular-hand shanten.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laizi.analysis import _tables, can_win, shanten, waits
from laizi.analysis.fast import load_tables
from laizi.tiles import counts_from_str

SUITED_258 = frozenset(k for k in range(27) if k % 9 in (1, 4, 7))
ALL_SETS: list[tuple[int, int, int]] = [(k, k, k) for k in range(34)] + [
    (k, k + 1, k + 2) for k in range(27) if k % 9 <= 6
]

# ---------------------------------------------------------------------------
# Slow references.


@cache
def _ref_sets(c: tuple[int, ...], w: int) -> bool:
    """Can naturals ``c`` plus ``w`` wilds be split exactly into sets?"""
    k = next((i for i, x in enumerate(c) if x), -1)
    if k < 0:
        return w % 3 == 0  # only wilds left: wild triplets
    # The lowest natural tile k is in some set: a triplet of k or one of the runs
    # through k.  Each other slot of that set takes a natural tile when one is
    # left, else a wild.  (Preferring the natural loses nothing: if it were used
    # in another set instead, swapping it with this set's wild keeps both valid.)
    shapes: list[tuple[int, int]] = [(k, k)]
    if k < 27:
        pos = k % 9
        for start in (pos - 2, pos - 1, pos):
            if 0 <= start <= 6:
                run = [k - pos + start + j for j in range(3)]
                run.remove(k)
                shapes.append((run[0], run[1]))
    for x, y in shapes:
        cur = list(c)
        cur[k] -= 1
        need = 0
        for slot in (x, y):
            if cur[slot]:
                cur[slot] -= 1
            else:
                need += 1
        if need <= w and _ref_sets(tuple(cur), w - need):
            return True
    return False


def ref_can_win(counts: Sequence[int], wilds: int, pair258: bool = False) -> bool:
    if (sum(counts) + wilds) % 3 != 2:
        return False
    c = list(counts)
    for k in range(34):
        if pair258 and k not in SUITED_258:
            continue
        for nat in (2, 1):  # natural pair, or one natural + one wild
            if c[k] >= nat and wilds >= 2 - nat:
                c[k] -= nat
                ok = _ref_sets(tuple(c), wilds - (2 - nat))
                c[k] += nat
                if ok:
                    return True
    # two wilds as the pair (not allowed for the 258 rule)
    return not pair258 and wilds >= 2 and _ref_sets(tuple(c), wilds - 2)


def ref_waits(counts: Sequence[int], wilds: int, pair258: bool = False) -> list[int]:
    if (sum(counts) + wilds) % 3 != 1:
        return []
    out = []
    for k in range(34):
        if counts[k] < 4:
            c = list(counts)
            c[k] += 1
            if ref_can_win(c, wilds, pair258):
                out.append(k)
    return out


def _targets(n: int) -> list[tuple[dict[int, int], int]]:
    """Every target hand of n sets + a pair (n <= 1) as (kind -> copies, excess)."""
    out = []
    for sets in [()] if n == 0 else [(s,) for s in ALL_SETS]:
        for pair in range(34):
            h: dict[int, int] = {pair: 2}
            for s in sets:
                for k in s:
                    h[k] = h.get(k, 0) + 1
            out.append((h, sum(max(x - 4, 0) for x in h.values())))
    return out


TARGETS = {0: _targets(0), 1: _targets(1)}


def ref_shanten_small(counts: Sequence[int], wilds: int) -> int:
    """Shanten from the definition, enumerating every target hand (n <= 1 sets).

    Target H = n sets + a pair.  Its tiles missing from the naturals are filled by
    the wilds (copies beyond the fourth of a kind can only be wilds), the rest are
    drawn: shanten = min(missing) - wilds - 1.
    """
    n = (sum(counts) + wilds) // 3
    best = min(
        sum(max(x - counts[k], 0) for k, x in h.items())
        for h, excess in TARGETS[n]
        if excess <= wilds
    )
    return best - wilds - 1


# ---------------------------------------------------------------------------
# Strategies.


# Hands are generated from a few drawn parameters plus a seed for Python's RNG:
# much cheaper than drawing every tile through hypothesis.


def _fill(rng: random.Random, counts: list[int], n: int, pool: list[int]) -> None:
    while n > 0:
        k = rng.choice(pool)
        if counts[k] < 4:
            counts[k] += 1
            n -= 1
        elif all(counts[x] >= 4 for x in pool):
            pool = list(range(34))


def _pool(rng: random.Random, style: str) -> list[int]:
    if style == "clustered":
        lo = rng.randrange(34)
        return list(range(lo, min(34, lo + rng.randint(2, 6))))
    if style == "one-suit":
        suit = rng.randrange(4)
        return list(range(suit * 9, min(34, suit * 9 + 9)))
    return list(range(34))


def random_hand(seed: int, residue: int, wilds: int, style: str) -> tuple[list[int], int]:
    """(counts, wilds), sum(counts) + wilds = 3n + residue <= 14, counts <= 4."""
    rng = random.Random(seed)
    total = rng.choice([s for s in range(residue, 15, 3) if s >= wilds])
    counts = [0] * 34
    _fill(rng, counts, total - wilds, _pool(rng, style))
    return counts, wilds


def built_hand(seed: int, residue: int, wilds: int, style: str) -> tuple[list[int], int]:
    """A winning shape (n sets + pair) with ``wilds`` tiles turned into wilds,
    sometimes perturbed, resized to 3n + residue (residue 1: a waiting shape)."""
    rng = random.Random(seed)
    pool = _pool(rng, style)
    counts = [0] * 34
    sets = [s for s in ALL_SETS if s[0] in pool] or ALL_SETS
    for _ in range(rng.randint(0, 4)):
        for k in rng.choice(sets):
            counts[k] += 1
    counts[rng.choice(pool)] += 2
    counts = [min(x, 4) for x in counts]  # over-full shapes become near-wins

    def held() -> list[int]:
        return [k for k in range(34) if counts[k]]

    used = 0
    while used < wilds and held():
        counts[rng.choice(held())] -= 1
        used += 1
    if rng.random() < 0.4 and held():  # move one natural tile
        counts[rng.choice(held())] -= 1
        _fill(rng, counts, 1, pool)
    while (sum(counts) + used) % 3 != residue or sum(counts) + used > 14:
        if held() and (sum(counts) + used > 14 or rng.random() < 0.7):
            counts[rng.choice(held())] -= 1
        else:
            _fill(rng, counts, 1, pool)
    return counts, used


def hands(residue: int) -> st.SearchStrategy[tuple[list[int], int]]:
    return st.builds(
        lambda builder, seed, wilds, style: builder(seed, residue, wilds, style),
        st.sampled_from([random_hand, built_hand, built_hand]),
        st.integers(0, 2**32),
        st.integers(0, 4),
        st.sampled_from(["wall", "clustered", "one-suit"]),
    )


SETTINGS = settings(max_examples=300, deadline=None)


# ---------------------------------------------------------------------------
# can_win / waits against the references.


@SETTINGS
@given(hands(2), st.booleans())
def test_can_win_matches_reference(hand: tuple[list[int], int], pair258: bool) -> None:
    counts, wilds = hand
    assert can_win(counts, wilds, pair258=pair258) == ref_can_win(counts, wilds, pair258)


@SETTINGS
@given(hands(1), st.booleans())
def test_waits_match_reference(hand: tuple[list[int], int], pair258: bool) -> None:
    counts, wilds = hand
    assert waits(counts, wilds, pair258=pair258) == ref_waits(counts, wilds, pair258)


@settings(max_examples=100, deadline=None)
@given(hands(0), st.booleans())
def test_wrong_sizes(hand: tuple[list[int], int], pair258: bool) -> None:
    counts, wilds = hand
    assert can_win(counts, wilds, pair258=pair258) is False
    assert waits(counts, wilds, pair258=pair258) == []


def test_random_wall_hands_match_reference() -> None:
    """Plain random draws from a wall, with many wilds and the 258 rule."""
    rng = random.Random(20240601)
    wall = [k for k in range(34) for _ in range(4)]
    wins = 0
    for i in range(600):
        wilds = i % 5
        total = rng.choice([2, 5, 8, 11, 14])
        if wilds > total:
            continue
        counts = [0] * 34
        for k in rng.sample(wall, total - wilds):
            counts[k] += 1
        for pair258 in (False, True):
            expected = ref_can_win(counts, wilds, pair258)
            wins += expected
            assert can_win(counts, wilds, pair258=pair258) == expected
        c13 = counts[:]
        held = [k for k in range(34) if c13[k]]
        if held:
            c13[rng.choice(held)] -= 1
            assert waits(c13, wilds) == ref_waits(c13, wilds)
            assert waits(c13, wilds, pair258=True) == ref_waits(c13, wilds, True)
    assert wins > 40  # the sample includes plenty of wins


# ---------------------------------------------------------------------------
# Hand-written cases.

WIN_CASES = [
    # (notation, wilds, pair258, expected)
    ("123m456p789s11z22z", 0, False, False),
    ("123m456p789s111z22z", 0, False, True),
    ("123m456p789s111z22z", 0, True, False),  # honour pair fails the 258 rule
    ("123m456p789s111z55m", 0, True, True),
    ("123m456p789s111z5m", 1, True, True),  # 5m + wild
    ("123m456p789s111z", 2, False, True),  # two wilds as the pair
    ("123m456p789s111z", 2, True, True),  # 2m + wild pair, 1m + wild + 3m run
    ("111z222z333z444z", 2, False, True),
    ("111z222z333z444z", 2, True, False),  # two wilds can't be the 258 pair
    ("11122233344455m", 0, False, True),
    ("1112345678999m", 1, False, True),  # nine gates + any tile
    ("19m19p19s1234567z", 1, False, False),  # thirteen orphans is not a regular hand
    ("11223344556677z", 0, False, False),  # nor are seven pairs
    ("1m", 1, False, True),
    ("1m", 1, True, False),
    ("2m", 1, True, True),
    ("", 2, False, True),
    ("", 2, True, False),
    ("", 5, False, True),
    ("1111m", 1, False, True),  # 111m + 1m-wild pair: the wild is a fifth 1m
    ("1111m", 2, False, False),  # 6 tiles is not 3n + 2
    ("1111m23m", 2, False, True),  # 111m 123m + two-wild pair
    ("1111m23m", 1, False, False),  # 7 tiles
    ("1m9m", 0, False, False),
    ("13m", 3, False, True),  # 1m-wild-3m + two-wild pair
    ("147m", 2, False, False),
    ("147m", 5, False, True),  # 1m-W-W, 4m-W-W, 7m-W pair
    ("147m", 6, False, False),  # 9 tiles
    ("147m", 8, False, True),  # ... plus a wild triplet
    ("258m", 2, True, False),  # a natural 2/5/8 pair leaves two tiles for one set
    ("2355m", 1, True, True),  # 55m + 23m-wild
    ("2355m", 1, False, True),
]


@pytest.mark.parametrize(("notation", "wilds", "pair258", "expected"), WIN_CASES)
def test_can_win_cases(notation: str, wilds: int, pair258: bool, expected: bool) -> None:
    counts = counts_from_str(notation) if notation else [0] * 34
    assert can_win(counts, wilds, pair258=pair258) == ref_can_win(counts, wilds, pair258)
    assert can_win(counts, wilds, pair258=pair258) is expected


WAIT_CASES = [
    ("1112345678999m", 0, False, "123456789m"),  # nine gates
    ("1112345678999m", 0, True, "258m"),
    ("123m456p789s111z2z", 0, False, "2z"),
    ("123m456p789s111z2z", 0, True, ""),
    ("123m456p789s11z22z", 0, False, "12z"),
    ("123m456p789s11z22z", 0, True, ""),
    ("123m456p789s111z5m", 0, True, "5m"),
    ("123m456p789s111z1m", 0, False, "14m"),  # 11m pair, or 11m + 234m
    ("123m456p789s111z1m", 0, True, ""),  # 11m is no 258 pair
    ("2345m", 0, False, "25m"),
    ("1111m", 0, False, ""),  # 11m + 11x would need a fifth 1m
    ("1111m", 3, False, list(range(1, 34))),  # 111m, 1m-W-W, new tile + W pair
    ("123m456p789s111z", 1, False, list(range(34))),  # wild + any tile
    ("123m456p789s111z", 1, True, "258m258p258s"),
    ("1m", 0, False, "1m"),
    ("1z", 0, True, ""),
]


@pytest.mark.parametrize(("notation", "wilds", "pair258", "expected"), WAIT_CASES)
def test_waits_cases(notation: str, wilds: int, pair258: bool, expected: str | list[int]) -> None:
    counts = counts_from_str(notation)
    want = expected if isinstance(expected, list) else (
        [k for k in range(34) if counts_from_str(expected)[k]] if expected else []
    )
    assert waits(counts, wilds, pair258=pair258) == ref_waits(counts, wilds, pair258)
    assert waits(counts, wilds, pair258=pair258) == want


SHANTEN_CASES = [
    ("123m456p789s111z22z", 0, -1),
    ("123m456p789s111z2z", 0, 0),
    ("19m19p19s1234567z", 0, 8),  # kokushi is far from a regular hand
    ("1111m234p567s789s", 0, 1),  # the 1m single wait would need a fifth 1m
    ("1111m234p567s789s", 1, -1),  # ... but a wild can be that fifth 1m
    ("1111m234p567s78s", 1, 0),  # 111m + 1m/wild pair, waiting on 6s/9s
    ("123m456p789s111z", 2, -1),
    ("123m456p789s111z", 1, 0),
    ("147m258p369s1234z", 0, 8),
    ("147m258p369s123z", 1, 7),
    ("", 2, -1),
    ("1m", 1, -1),
    ("5z", 0, 0),
]


@pytest.mark.parametrize(("notation", "wilds", "expected"), SHANTEN_CASES)
def test_shanten_cases(notation: str, wilds: int, expected: int) -> None:
    counts = counts_from_str(notation) if notation else [0] * 34
    assert shanten(counts, wilds) == expected
    if wilds == 0:
        assert _mahjong_regular_shanten(counts) == expected


# ---------------------------------------------------------------------------
# shanten.


def _mahjong_regular_shanten(counts: list[int]) -> int:
    mahjong_shanten = pytest.importorskip("mahjong.shanten")
    return int(mahjong_shanten.Shanten().calculate_shanten_for_regular_hand(counts))


def natural_hand(seed: int, size: int, style: str) -> list[int]:
    rng = random.Random(seed)
    counts = [0] * 34
    _fill(rng, counts, size, _pool(rng, style))
    return counts


def natural_hands() -> st.SearchStrategy[list[int]]:
    return st.builds(
        natural_hand,
        st.integers(0, 2**32),
        st.sampled_from([1, 2, 4, 5, 7, 8, 10, 11, 13, 14, 13, 14, 13, 14]),
        st.sampled_from(["wall", "wall", "clustered", "one-suit"]),
    )


@settings(max_examples=400, deadline=None)
@given(natural_hands())
def test_shanten_matches_mahjong(counts: list[int]) -> None:
    assert shanten(counts) == _mahjong_regular_shanten(counts)


def test_shanten_matches_mahjong_on_wall_hands() -> None:
    rng = random.Random(7)
    wall = [k for k in range(34) for _ in range(4)]
    for i in range(3000):
        counts = [0] * 34
        for k in rng.sample(wall, 13 + i % 2):
            counts[k] += 1
        assert shanten(counts) == _mahjong_regular_shanten(counts)


@SETTINGS
@given(hands(2))
def test_shanten_minus_one_iff_can_win(hand: tuple[list[int], int]) -> None:
    counts, wilds = hand
    assert (shanten(counts, wilds) == -1) == can_win(counts, wilds)


@SETTINGS
@given(hands(1))
def test_shanten_zero_iff_waiting(hand: tuple[list[int], int]) -> None:
    counts, wilds = hand
    assert (shanten(counts, wilds) == 0) == bool(waits(counts, wilds))


@settings(max_examples=150, deadline=None)
@given(st.one_of(hands(1), hands(2)))
def test_shanten_draw_discard_recursion(hand: tuple[list[int], int]) -> None:
    """shanten is characterised by: -1 iff complete (checked against the win
    reference above); a 3n+1 hand is one more than its best draw; an incomplete
    3n+2 hand equals its best discard.  Together these pin down every value."""
    counts, wilds = hand
    s = shanten(counts, wilds)
    assert s >= -1
    if (sum(counts) + wilds) % 3 == 1:
        best = min(
            shanten([c + (k == j) for j, c in enumerate(counts)], wilds)
            for k in range(34)
            if counts[k] < 4
        )
        assert s == best + 1
    elif s >= 0 and sum(counts) > 0:
        best = min(
            shanten([c - (k == j) for j, c in enumerate(counts)], wilds)
            for k in range(34)
            if counts[k]
        )
        assert s == best


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 4).flatmap(lambda w: st.tuples(
    st.lists(st.integers(0, 33), min_size=max(0, 1 - w), max_size=5 - w), st.just(w))))
def test_shanten_small_hands_match_definition(hand: tuple[list[int], int]) -> None:
    tiles, wilds = hand
    counts = [0] * 34
    for k in tiles:
        counts[k] = min(4, counts[k] + 1)
    if sum(counts) + wilds > 5:
        return
    assert shanten(counts, wilds) == ref_shanten_small(counts, wilds)


@pytest.mark.parametrize("four", [0, 4, 8, 13, 27])
def test_shanten_small_hands_with_four_copies(four: int) -> None:
    """Four natural copies plus wilds (the slow path) against the definition."""
    for extra in [None, *range(34)]:
        for wilds in range(2):
            counts = [0] * 34
            counts[four] = 4
            if extra is not None:
                if extra == four:
                    continue
                counts[extra] += 1
            if sum(counts) + wilds > 5:
                continue
            assert shanten(counts, wilds) == ref_shanten_small(counts, wilds), (extra, wilds)


def test_shanten_slow_path_fifth_copies() -> None:
    """Hands with four natural copies and wilds use the exact slow path."""
    rng = random.Random(11)
    for _ in range(60):
        counts = [0] * 34
        k4 = rng.randrange(34)
        counts[k4] = 4
        wilds = rng.randint(1, 4)
        for k in rng.sample(range(34), 10):
            if sum(counts) + wilds >= 13:
                break
            counts[k] = min(4, counts[k] + rng.randint(1, 2))
        total = sum(counts) + wilds
        if total > 14:
            continue
        s = shanten(counts, wilds)
        if total % 3 == 2:
            assert (s == -1) == ref_can_win(counts, wilds)
        if total % 3 == 1:
            assert (s == 0) == bool(ref_waits(counts, wilds))


# ---------------------------------------------------------------------------
# Tables, errors, import cost.


def test_tables_match_direct_dp() -> None:
    t = load_tables()
    # fast.can_win's precomputed verdicts cover summed entries below 320
    assert 3 * max(max(t.s1), max(t.s2)) + max(max(t.h1), max(t.h0)) < 320
    rng = random.Random(3)
    for _ in range(300):
        digits = [rng.choice([0, 0, 0, 1, 1, 2, 3, 4]) for _ in range(9)]
        key = 0
        for d in digits:
            key = key * 5 + d
        w0, d1, d2 = _tables.win_minima_direct(digits, True)
        assert t.s1[key] == 8 * w0 + (d1 == 0)
        assert t.s2[key] == 8 * w0 + (d2 == 0)
        assert t.sprof[t.ssh[key]] == _tables.shanten_profile_direct(digits, True)
        hd = digits[:7]
        hkey = key // 25
        hw0, hd1, _ = _tables.win_minima_direct(hd, False)
        assert t.h1[hkey] == 8 * hw0 + (hd1 == 0)
        assert t.h0[hkey] == 8 * hw0
        assert t.hprof[t.hsh[hkey]] == _tables.shanten_profile_direct(hd, False)


def test_merge_tables_consistent() -> None:
    t = load_tables()
    rng = random.Random(5)
    ab: dict[int, tuple[int, ...]] = {}
    for i, a in enumerate(t.sprof):
        for j, b in enumerate(t.sprof):
            ab.setdefault(t.mab[i * len(t.sprof) + j], _tables.merge_profiles(a, b))
    for _ in range(200):
        ia, ib, ic = (rng.randrange(len(t.sprof)) for _ in range(3))
        ih = rng.randrange(len(t.hprof))
        full = _tables.merge_profiles(
            _tables.merge_profiles(t.sprof[ia], t.sprof[ib]),
            _tables.merge_profiles(t.sprof[ic], t.hprof[ih]),
        )
        iab = t.mab[ia * len(t.sprof) + ib]
        ich = t.mch[ic * len(t.hprof) + ih]
        assert ab[iab] == _tables.merge_profiles(t.sprof[ia], t.sprof[ib])
        for n in range(5):
            assert t.fin[(iab * t.nch + ich) * 5 + n] == full[5 + n]


def test_parse_rejects_garbage() -> None:
    with pytest.raises(ValueError):
        _tables.parse(b"LZAT" + bytes(8) + b"not zlib")
    with pytest.raises(ValueError):
        _tables.parse(b"XXXX" + bytes(8))


def test_load_falls_back_to_build(monkeypatch: pytest.MonkeyPatch) -> None:
    tables = load_tables()
    monkeypatch.setattr(_tables, "DATA_FILE", "no-such-file.bin")
    monkeypatch.setattr(_tables, "build", lambda: tables)
    assert _tables.load() is tables


def test_errors() -> None:
    with pytest.raises(ValueError):
        can_win([0] * 33)
    with pytest.raises(ValueError):
        waits([0] * 35)
    with pytest.raises(ValueError):
        shanten(counts_from_str("11112222333344m"), 3)  # 17 tiles


def test_accepts_tuples() -> None:
    counts = tuple(counts_from_str("123m456p789s111z22z"))
    assert can_win(counts)
    assert shanten(counts) == -1
    assert waits(tuple(counts_from_str("123m456p789s111z2z"))) == [28]


IMPORT_PROBE = """
import sys
opened = []
sys.addaudithook(lambda ev, args: ev == "open" and opened.append(str(args[0])))
import laizi, laizi.analysis.fast as f, laizi.analysis._tables as t
read = [p for p in opened if p.endswith(t.DATA_FILE)]
assert f._tables is None and not f._S1, "tables in memory after import"
assert read == [], read
f.load_tables()   # the control: loading is seen (the probe can see a read)
assert f._tables is not None and f._S1
assert [p for p in opened if p.endswith(t.DATA_FILE)], opened[-5:]
print("ok")
"""


def test_import_does_not_load_tables() -> None:
    """In a fresh interpreter, importing laizi and laizi.analysis.fast neither reads the
    tables' data file (an audit hook sees every open) nor leaves the tables in memory; the
    first call does both (the control). No wall time: a busy machine cannot fail it."""
    out = subprocess.run([sys.executable, "-c", IMPORT_PROBE], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]
