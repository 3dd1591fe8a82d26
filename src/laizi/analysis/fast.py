"""Table-driven win detection, waits and shanten with wildcards (laizi).

Hands are given as 34 counts of *natural* tiles (index order of :mod:`laizi.tiles`:
0-8 m, 9-17 p, 18-26 s, 27-33 honours) plus a number of wilds.  A wild may stand for
any kind, any number of copies.

Every numbered suit is encoded as a base-5 key of its nine counts and the honours
as a key of their seven counts.  Per-key tables (:mod:`laizi.analysis._tables`)
give, for each suit, the minimum number of wilds ``w0`` that complete it as sets
only and whether it can instead hold the pair for one wild less (a pair-suit
minimum is always ``w0 - 1`` or ``w0 + 2``), plus the suit's shanten profile.  A
whole hand is then a handful of lookups:

* :func:`can_win`: the suit holding the pair uses its pair minimum, the others
  their sets-only minimum; the hand wins when the total does not exceed ``wilds``
  (the leftover is then a multiple of three: wild triplets).
* :func:`waits`: only the suit receiving the extra tile changes, so each candidate
  costs one lookup compared against a bound computed from the other suits.
* :func:`shanten`: suit profiles are merged through precomputed min-plus tables.

Preconditions (not checked, for speed: this is the engine's and the bots' hot path;
:mod:`laizi.analysis.checked`, exported as ``laizi.analysis.can_win`` etc., checks
them): ``counts`` holds 34 integers in 0-4 and ``wilds >= 0``.  Otherwise the result
is undefined (a sequence of the wrong length raises ``ValueError``).

The tables are loaded on the first call (package data, or computed if that is
missing), never at import time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from laizi.analysis._tables import MAX_SETS, SH_INF, Tables, exact_profile, load
from laizi.tiles import NUM_KINDS

__all__ = ["can_win", "waits", "shanten", "load_tables"]

_P9: Final = tuple(5 ** (8 - i) for i in range(9))
_P7: Final = tuple(5 ** (6 - i) for i in range(7))

# Cache of the loaded tables (filled by load_tables() on the first call, never at
# import time): the whole object, and the hot tables as module globals (read by
# can_win / waits / shanten without an attribute look-up).
_tables: Tables | None = None
_S1 = b""
_S2 = b""
_H1 = b""
_H0 = b""
_SSH = b""
_HSH = b""
_MAB = b""
_MCH = b""
_FIN = b""
_NS = _NH = _NCH = 0


def load_tables() -> Tables:
    """Load (once) and return the lookup tables."""
    global _tables, _S1, _S2, _H1, _H0, _SSH, _HSH, _MAB, _MCH, _FIN, _NS, _NH, _NCH
    if _tables is None:
        t = load()
        _S2, _H1, _H0 = t.s2, t.h1, t.h0
        _HSH, _MAB, _MCH, _FIN = t.hsh, t.mab, t.mch, t.fin
        _NS, _NH, _NCH = len(t.sprof), len(t.hprof), t.nch
        _tables = t
        # _S1 and _SSH mark "loaded" for the hot paths: assign them last
        _SSH = t.ssh
        _S1 = t.s1
    return _tables


def can_win(counts: Sequence[int], wilds: int = 0, *, pair258: bool = False) -> bool:
    """Whether natural tiles ``counts`` plus ``wilds`` wildcards form n sets + 1 pair.

    A set is a run within one suit or a triplet; ``3n + 2`` must equal
    ``sum(counts) + wilds``.  With ``pair258`` the pair must be a suited 2, 5 or 8
    holding at least one natural tile.
    """
    s1 = _S1
    if not s1:
        load_tables()
        s1 = _S1
    (
        c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18,
        c19, c20, c21, c22, c23, c24, c25, c26, c27, c28, c29, c30, c31, c32, c33,
    ) = counts
    # Table entries are 8 * w0 + flag: w0 = wilds completing the suit as sets,
    # flag = the suit holds the pair with w0 - 1 wilds (otherwise it takes w0 + 2).
    # need >= sum(w0) - 1, so stop as soon as the partial sum exceeds wilds + 1.
    lim = 8 * wilds + 16
    if pair258:
        s2 = _S2
        e = _H0[(((((c27 * 5 + c28) * 5 + c29) * 5 + c30) * 5 + c31) * 5 + c32) * 5 + c33]
        if e >= lim:
            return False
        e += s2[(((((((c0 * 5 + c1) * 5 + c2) * 5 + c3) * 5 + c4) * 5 + c5) * 5 + c6) * 5 + c7) * 5 + c8]
        if e >= lim:
            return False
        e += s2[(((((((c9 * 5 + c10) * 5 + c11) * 5 + c12) * 5 + c13) * 5 + c14) * 5 + c15) * 5 + c16) * 5 + c17]
        if e >= lim:
            return False
        e += s2[(((((((c18 * 5 + c19) * 5 + c20) * 5 + c21) * 5 + c22) * 5 + c23) * 5 + c24) * 5 + c25) * 5 + c26]
        if not (e & 7 or c1 or c4 or c7 or c10 or c13 or c16 or c19 or c22 or c25):
            return False  # no 2/5/8 at all: no pair possible
    else:
        e = _H1[(((((c27 * 5 + c28) * 5 + c29) * 5 + c30) * 5 + c31) * 5 + c32) * 5 + c33]
        if e >= lim:
            return False
        e += s1[(((((((c0 * 5 + c1) * 5 + c2) * 5 + c3) * 5 + c4) * 5 + c5) * 5 + c6) * 5 + c7) * 5 + c8]
        if e >= lim:
            return False
        e += s1[(((((((c9 * 5 + c10) * 5 + c11) * 5 + c12) * 5 + c13) * 5 + c14) * 5 + c15) * 5 + c16) * 5 + c17]
        if e >= lim:
            return False
        e += s1[(((((((c18 * 5 + c19) * 5 + c20) * 5 + c21) * 5 + c22) * 5 + c23) * 5 + c24) * 5 + c25) * 5 + c26]
    if wilds < _OK_WILDS:
        return _OK[wilds][e]
    return _ok(e, wilds)


def _ok(e: int, wilds: int) -> bool:
    """Whether summed table entries ``e`` win with ``wilds`` wilds."""
    # the pair suit costs w0 - 1 if any suit is flagged, else w0 + 2
    need = (e >> 3) - 1 if e & 7 else (e >> 3) + 2
    # the leftover wilds form wild triplets: a multiple of 3 (iff the size is 3n + 2)
    return need <= wilds and (wilds - need) % 3 == 0


# _ok precomputed for small wild counts (e <= 8 * (3 * 8 + 14) + 4 < 320)
_OK_WILDS: Final = 16
_OK: Final = tuple(tuple(_ok(e, w) for e in range(320)) for w in range(_OK_WILDS))


def waits(counts: Sequence[int], wilds: int = 0, *, pair258: bool = False) -> list[int]:
    """Kinds (ascending) whose addition makes :func:`can_win` true.

    Only kinds with fewer than four natural copies are candidates.  Returns ``[]``
    unless ``sum(counts) + wilds`` is one more than a multiple of three.
    """
    s1 = _S1
    if not s1:
        load_tables()
        s1 = _S1
    (
        c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18,
        c19, c20, c21, c22, c23, c24, c25, c26, c27, c28, c29, c30, c31, c32, c33,
    ) = counts
    ka = (((((((c0 * 5 + c1) * 5 + c2) * 5 + c3) * 5 + c4) * 5 + c5) * 5 + c6) * 5 + c7) * 5 + c8
    kb = (((((((c9 * 5 + c10) * 5 + c11) * 5 + c12) * 5 + c13) * 5 + c14) * 5 + c15) * 5 + c16) * 5 + c17
    kc = (((((((c18 * 5 + c19) * 5 + c20) * 5 + c21) * 5 + c22) * 5 + c23) * 5 + c24) * 5 + c25) * 5 + c26
    kh = (((((c27 * 5 + c28) * 5 + c29) * 5 + c30) * 5 + c31) * 5 + c32) * 5 + c33
    if pair258:
        st = _S2
        ht = _H0
        has258 = bool(c1 or c4 or c7 or c10 or c13 or c16 or c19 or c22 or c25)
    else:
        st = s1
        ht = _H1
        has258 = True
    va = st[ka]
    vb = st[kb]
    vc = st[kc]
    vh = ht[kh]
    e = va + vb + vc + vh
    sw = e >> 3
    # A suit's natural tiles number -w0 (mod 3), so the hand size is wilds - sum(w0).
    # One more tile lowers a suit's w0 by at most one, so need >= sum(w0) - 2.
    if (wilds - sw) % 3 != 1 or sw > wilds + 2:
        return []
    out: list[int] = []
    # Adding a tile to suit x (entry v = 8 * w0 + f): with r = wilds - (w0 of the
    # other suits) the hand wins when w0' - 1 <= r with the pair in another suit
    # that can hold it for one wild less (others flagged), w1' = w0' - 1 <= r with
    # the pair here, or w0' + 2 <= r with a wild-assisted pair anywhere.  As
    # w0' >= w0 - 1 and w0' = w0 - 1, w1' = w0 + 1 (mod 3), a suit is scanned only
    # if one of these can hold for the smallest possible w0'.
    for base, k, v, tab in ((0, ka, va, st), (9, kb, vb, st), (18, kc, vc, st), (27, kh, vh, ht)):
        eo = e - v
        w = v >> 3
        r = wilds - sw + w
        if w > r + 2:
            continue
        if eo & 7:
            if (w + 2) % 3 <= r + 1:
                _scan(out, counts, base, k, tab, True, r, has258)
        elif (w + 1) % 3 <= r or (w <= r - 1 and (w + 2) % 3 <= r - 2):
            _scan(out, counts, base, k, tab, False, r, has258)
    return out


def _scan(out: list[int], counts: Sequence[int], base: int, k: int, tab: bytes,
          flagged: bool, r: int, has258: bool) -> None:
    """Append the kinds of one suit whose addition wins (see :func:`waits`).

    ``flagged``: another suit can hold the pair for one wild less than its sets;
    ``r``: wilds left for this suit.  The suit's new entry x = 8 * w' + f' wins when
    flagged: w' <= r + 1, i.e. x < 8r + 16;
    otherwise: this suit holds the pair (f') with w' <= r + 1, or a wild-assisted
    pair goes anywhere with w' <= r - 2, i.e. x < 8r - 8.
    """
    pw = _P9 if base < 27 else _P7
    hi = 8 * r + 16
    if flagged:
        for i in range(len(pw)):
            if counts[base + i] < 4 and tab[k + pw[i]] < hi:
                out.append(base + i)
        return
    lo = 8 * r - 8
    if lo > 0 and not has258:
        # pair258 and no natural 2/5/8 yet: the wild-assisted pair needs the new tile
        for i in range(len(pw)):
            if counts[base + i] < 4:
                x = tab[k + pw[i]]
                if (x < lo and base < 27 and i % 3 == 1) or (x & 1 and x < hi):
                    out.append(base + i)
        return
    for i in range(len(pw)):
        if counts[base + i] < 4:
            x = tab[k + pw[i]]
            if x < lo or (x & 1 and x < hi):
                out.append(base + i)


def shanten(counts: Sequence[int], wilds: int = 0) -> int:
    """Shanten of a regular (sets + pair) hand; -1 means complete.

    The hand needs ``(sum(counts) + wilds) // 3`` sets plus a pair (fewer tiles
    stand for exposed melds; at most 14 tiles).  The value is the minimum number
    of natural tiles to draw (exchanging others) before :func:`can_win` holds,
    minus one.  Wilds are free jokers; drawn tiles respect the four-copy limit.
    With ``wilds=0`` this equals ``mahjong``'s
    ``Shanten.calculate_shanten_for_regular_hand``.
    """
    ssh = _SSH
    if not ssh:
        load_tables()
        ssh = _SSH
    n = (sum(counts) + wilds) // 3
    if n > MAX_SETS:
        raise ValueError(f"too many tiles for shanten: {sum(counts) + wilds} (max 14)")
    if wilds and 4 in counts:
        # a wild may be a fifth copy of a kind held four times: exact slow path
        return _shanten_exact(counts, n, wilds, load_tables())
    (
        c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18,
        c19, c20, c21, c22, c23, c24, c25, c26, c27, c28, c29, c30, c31, c32, c33,
    ) = counts
    # suit profiles -> merged classes (m + p, s + z) -> missing tiles for n sets + pair
    iab = _MAB[
        ssh[(((((((c0 * 5 + c1) * 5 + c2) * 5 + c3) * 5 + c4) * 5 + c5) * 5 + c6) * 5 + c7) * 5 + c8] * _NS
        + ssh[(((((((c9 * 5 + c10) * 5 + c11) * 5 + c12) * 5 + c13) * 5 + c14) * 5 + c15) * 5 + c16) * 5 + c17]
    ]
    ich = _MCH[
        ssh[(((((((c18 * 5 + c19) * 5 + c20) * 5 + c21) * 5 + c22) * 5 + c23) * 5 + c24) * 5 + c25) * 5 + c26] * _NH
        + _HSH[(((((c27 * 5 + c28) * 5 + c29) * 5 + c30) * 5 + c31) * 5 + c32) * 5 + c33]
    ]
    return _FIN[(iab * _NCH + ich) * 5 + n] - wilds - 1


def _shanten_exact(counts: Sequence[int], n: int, wilds: int, t: Tables) -> int:
    """Shanten with wilds allowed to be fifth (or later) copies of a kind.

    Used only for hands with wilds and a kind held four times.  Those suits get a
    per-suit DP with an excess-copy budget (cached per suit); in a suit without a
    four-count, copies beyond the fourth never lower the count of missing tiles
    (checked exhaustively over all such suits), so its capped table profile is
    used with no excess.
    """
    ne = wilds + 1
    # (pairs, sets, excess copies) -> minimum missing tiles
    acc: dict[tuple[int, int, int], int] = {(0, 0, 0): 0}
    for lo, hi, runs in ((0, 9, True), (9, 18, True), (18, 27, True), (27, NUM_KINDS, False)):
        digits = tuple(counts[lo:hi])
        entries: list[tuple[int, int, int, int]] = []
        if 4 in digits:
            prof = exact_profile(digits, runs, wilds)
            for p in range(2):
                for m in range(n + 1):
                    for e in range(ne):
                        v = prof[(p * 5 + m) * ne + e]
                        if v < SH_INF:
                            entries.append((p, m, e, v))
        else:
            key = 0
            for d in digits:
                key = key * 5 + d
            prof = t.sprof[t.ssh[key]] if runs else t.hprof[t.hsh[key]]
            entries = [(p, m, 0, prof[p * 5 + m]) for p in range(2) for m in range(n + 1)]
        new: dict[tuple[int, int, int], int] = {}
        for (p1, m1, e1), v1 in acc.items():
            for p2, m2, e2, v2 in entries:
                if p1 + p2 > 1 or m1 + m2 > n or e1 + e2 > wilds:
                    continue
                k = (p1 + p2, m1 + m2, e1 + e2)
                v = v1 + v2
                if v < new.get(k, SH_INF):
                    new[k] = v
        acc = new
    best = min(v for (p, m, _e), v in acc.items() if p == 1 and m == n)
    return best - wilds - 1
