"""Per-suit lookup tables behind :mod:`laizi.analysis.fast`.

A numbered suit is encoded as a base-5 key of its nine counts, first kind most
significant (``c[0] * 5**8 + ... + c[8]``), the honours as a key of their seven
counts.  Every count vector with 0-4 of each kind has an entry (5**9 and 5**7
keys), so lookups never miss.  One byte per key:

``s1``/``h1``  ``8 * w0 + f`` for a suit / the honours.  ``w0`` is the minimum
               number of wilds completing it as sets only (runs/triplets, any
               number; a wild may be any tile, even a fifth copy).  The minimum
               with exactly one pair (possibly two wilds) is always ``w0 - 1`` or
               ``w0 + 2`` (mod 3); ``f`` is 1 for ``w0 - 1``.
``s2``/``h0``  the same with the pair restricted to a 2, 5 or 8 holding at least
               one natural tile: ``f`` is 1 when such a pair costs ``w0 - 1``
               (``w0 + 2`` is possible iff the suit holds a natural 2/5/8).  Honours
               never qualify, so ``h0 = 8 * w0``.
``ssh``/``hsh`` index of the suit's shanten profile in ``sprof``/``hprof``: ten
               numbers, ``profile[p * 5 + m]`` = minimum number of tiles missing
               from the suit for ``m`` sets plus ``p`` pairs (m <= 4, p <= 1), each
               kind at most four copies.  There are only 126 + 55 profiles.

Profiles combine by min-plus merging.  ``mab[i * len(sprof) + j]`` numbers the
merge of two suit profiles (180 classes), ``mch[i * len(hprof) + j]`` the merge of
a suit with the honours (165 classes), and ``fin[(ab * nch + ch) * 5 + n]`` is the
missing count of ``n`` sets + a pair for the merge of the two classes.

Everything comes from small dynamic programs over the kinds of one suit.  All keys
are enumerated digit by digit through an automaton whose states are the distinct DP
vectors (a few thousand), so the whole key space costs one list expansion per
digit.  :func:`build` takes several seconds, so the result ships as package data
(``laizi/data/analysis_tables.bin``, about 180 kB, written by
``scripts/gen_tables.py``).  :func:`load` reads it and falls back to :func:`build`
when it is missing or stale.  Nothing is computed or read at import time.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TypeVar

__all__ = [
    "DATA_FILE",
    "NO_PAIR",
    "SUIT_KEYS",
    "HONOR_KEYS",
    "Tables",
    "build",
    "dump",
    "exact_profile",
    "load",
    "parse",
    "shanten_profile_direct",
    "win_minima_direct",
]

DATA_FILE = "analysis_tables.bin"
MAGIC = b"LZAT"
VERSION = 1
NO_PAIR = 200
"""``d2`` value of a suit that cannot hold a natural 2/5/8 pair."""

SUIT_KEYS = 5**9
HONOR_KEYS = 5**7
MAX_SETS = 4
SH_INF = 99

_Vec = tuple[int, ...]
_Step = Callable[[_Vec, int, int], _Vec]
_V = TypeVar("_V", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Tables:
    """All lookup tables (bytes objects indexed by a key or by profile indices)."""

    s1: bytes
    s2: bytes
    h1: bytes
    h0: bytes
    ssh: bytes
    hsh: bytes
    sprof: tuple[tuple[int, ...], ...]
    hprof: tuple[tuple[int, ...], ...]
    mab: bytes
    mch: bytes
    nab: int
    nch: int
    fin: bytes


# --------------------------------------------------------------------------
# Win minima: DP state (a, b, p) before a kind, a = runs already covering this
# kind, b = runs already covering the next kind (started one kind earlier),
# p = 0 no pair yet, 1 a pair, 2 a natural 2/5/8 pair.  Value: wilds used.

_W_INF = 255
_W_SIZE = 5 * 3 * 3


def _win_index(a: int, b: int, p: int) -> int:
    return (a * 3 + b) * 3 + p


def _win_step_factory(nk: int, runs: bool) -> _Step:
    def step(vec: _Vec, pos: int, c: int) -> _Vec:
        out = [_W_INF] * _W_SIZE
        rmax = 2 if runs and pos <= nk - 3 else 0
        pair258 = runs and pos % 3 == 1 and c >= 1
        for a in range(5):
            for b in range(3):
                for p in range(3):
                    v = vec[_win_index(a, b, p)]
                    if v >= _W_INF:
                        continue
                    for r in range(rmax + 1):
                        for q in (0, 1, 2) if p == 0 else (0,):
                            if q == 2 and not pair258:
                                continue
                            cov = a + r + (2 if q else 0)
                            deficit = c - cov
                            tr = (deficit + 2) // 3 if deficit > 0 else 0
                            cost = v + cov + 3 * tr - c
                            j = _win_index(b + r, r, q if q else p)
                            if cost < out[j]:
                                out[j] = cost
        return tuple(out)

    return step


def _win_start() -> _Vec:
    vec = [_W_INF] * _W_SIZE
    vec[_win_index(0, 0, 0)] = 0
    return tuple(vec)


def _win_final(vec: _Vec) -> tuple[int, int, int]:
    """(w0, d1, d2) from a final DP vector."""
    w0 = vec[_win_index(0, 0, 0)]
    w1 = min(vec[_win_index(0, 0, 1)], vec[_win_index(0, 0, 2)])
    w2 = vec[_win_index(0, 0, 2)]
    d2 = NO_PAIR if w2 >= _W_INF else w2 - w0 + 1
    return w0, w1 - w0 + 1, d2


def win_minima_direct(digits: Sequence[int], runs: bool) -> tuple[int, int, int]:
    """(w0, d1, d2) of one suit computed directly (no tables)."""
    step = _win_step_factory(len(digits), runs)
    vec = _win_start()
    for pos, c in enumerate(digits):
        vec = step(vec, pos, c)
    return _win_final(vec)


# --------------------------------------------------------------------------
# Shanten profiles: DP state (a, b, m, p, e): runs covering this / the next kind,
# m sets so far (runs counted when started), p pairs, e copies beyond the fourth
# (allowed up to emax; those slots can only be wilds).  Value: number of target
# tiles missing from the natural tiles.  States are kept sparse, as a sorted
# tuple of (state, value) items so that they can key the automaton.

_ShState = tuple[int, int, int, int, int]
_ShVec = tuple[tuple[_ShState, int], ...]


def _sh_step(vec: _ShVec, pos: int, c: int, nk: int, runs: bool, emax: int) -> _ShVec:
    rmax = 2 if runs and pos <= nk - 3 else 0
    new: dict[_ShState, int] = {}
    get = new.get
    for (a, b, m, p, e), v in vec:
        for r in range(rmax + 1):
            for q in (0, 1) if p == 0 else (0,):
                base = a + r + 2 * q
                for tr in range(MAX_SETS + 1 - m - r):
                    h = base + 3 * tr  # copies of this kind in the target
                    e2 = e + h - 4 if h > 4 else e
                    if e2 > emax:
                        break
                    cost = v + h - c if h > c else v
                    key = (b + r, r, m + r + tr, p + q, e2)
                    if cost < get(key, SH_INF):
                        new[key] = cost
    return tuple(sorted(new.items()))


_SH_START: _ShVec = (((0, 0, 0, 0, 0), 0),)


def _sh_final(vec: _ShVec, emax: int) -> tuple[int, ...]:
    """Profile indexed ``(p * 5 + m) * (emax + 1) + e``."""
    ne = emax + 1
    out = [SH_INF] * (10 * ne)
    for (a, b, m, p, e), v in vec:
        if a == 0 and b == 0:
            out[(p * 5 + m) * ne + e] = v
    return tuple(out)


def shanten_profile_direct(digits: Sequence[int], runs: bool) -> tuple[int, ...]:
    """Shanten profile (at most four copies per kind) of one suit, without tables."""
    return exact_profile(tuple(digits), runs, 0)


@lru_cache(maxsize=4096)
def exact_profile(digits: tuple[int, ...], runs: bool, emax: int) -> tuple[int, ...]:
    """Profile of one suit allowing up to ``emax`` target copies beyond the fourth.

    Indexed ``(p * 5 + m) * (emax + 1) + e``: minimum number of missing tiles for
    ``m`` sets and ``p`` pairs whose target has exactly ``e`` fifth-or-later copies
    (those can only be wilds).  ``emax=0`` gives the table profile.
    """
    vec = _SH_START
    for pos, c in enumerate(digits):
        vec = _sh_step(vec, pos, c, len(digits), runs, emax)
    return _sh_final(vec, emax)


# --------------------------------------------------------------------------
# Enumerating all keys through the DP automaton.


def _automaton(
    nk: int, step: Callable[[_V, int, int], _V], start: _V
) -> tuple[list[int], list[_V]]:
    """Final DP-vector id of every key (in key order) and the distinct vectors.

    Keys are enumerated digit by digit; the DP vector after a prefix depends only
    on the previous vector and the digit, and there are only a few thousand
    distinct vectors, so each level is one list expansion over vector ids.
    """
    vid: dict[_V, int] = {start: 0}
    vecs: list[_V] = [start]
    ids = [0]
    for pos in range(nk):
        rows: dict[int, tuple[int, ...]] = {}
        for i in set(ids):
            row = []
            for c in range(5):
                nv = step(vecs[i], pos, c)
                t = vid.get(nv)
                if t is None:
                    t = len(vecs)
                    vid[nv] = t
                    vecs.append(nv)
                row.append(t)
            rows[i] = tuple(row)
        ids = [x for i in ids for x in rows[i]]
    return ids, vecs


def _win_tables(nk: int, runs: bool) -> tuple[bytes, bytes]:
    """Encoded win tables ``8 * w0 + flag`` for the plain pair and the 258 pair."""
    ids, vecs = _automaton(nk, _win_step_factory(nk, runs), _win_start())
    enc1: dict[int, int] = {}
    enc2: dict[int, int] = {}
    for i in set(ids):
        w0, d1, d2 = _win_final(vecs[i])
        enc1[i] = 8 * w0 + (d1 == 0)
        enc2[i] = 8 * w0 + (d2 == 0)
    return bytes([enc1[i] for i in ids]), bytes([enc2[i] for i in ids])


def _profile_table(nk: int, runs: bool) -> tuple[bytes, tuple[tuple[int, ...], ...]]:
    def step(vec: _ShVec, pos: int, c: int) -> _ShVec:
        return _sh_step(vec, pos, c, nk, runs, 0)

    ids, vecs = _automaton(nk, step, _SH_START)
    # number the distinct profiles in a deterministic order
    finals = {i: _sh_final(vecs[i], 0) for i in set(ids)}
    plist = tuple(sorted(set(finals.values())))
    if len(plist) > 256:
        raise RuntimeError("too many shanten profiles for one-byte indices")
    pidx = {prof: n for n, prof in enumerate(plist)}
    return bytes([pidx[finals[i]] for i in ids]), plist


def merge_profiles(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    """Min-plus merge of two profiles (``p * 5 + m`` layout, m <= 4, p <= 1)."""
    out = []
    for p in range(2):
        for m in range(MAX_SETS + 1):
            best = SH_INF
            for i in range(m + 1):
                best = min(best, a[i] + b[p * 5 + m - i])
                if p:
                    best = min(best, a[5 + i] + b[m - i])
            out.append(best)
    return tuple(out)


def _merge_table(
    left: Sequence[tuple[int, ...]], right: Sequence[tuple[int, ...]]
) -> tuple[bytes, tuple[tuple[int, ...], ...]]:
    classes: dict[tuple[int, ...], int] = {}
    table = [classes.setdefault(merge_profiles(a, b), len(classes)) for a in left for b in right]
    if len(classes) > 256:
        raise RuntimeError("too many merged profiles for one-byte indices")
    return bytes(table), tuple(sorted(classes, key=classes.__getitem__))


def build() -> Tables:
    """Compute every table from scratch (pure Python, several seconds)."""
    s1, s2 = _win_tables(9, True)
    h1, _h2 = _win_tables(7, False)
    h0 = bytes(v & 0xF8 for v in h1)
    ssh, sprof = _profile_table(9, True)
    hsh, hprof = _profile_table(7, False)
    mab, ab = _merge_table(sprof, sprof)
    mch, ch = _merge_table(sprof, hprof)
    fin = bytes(merge_profiles(x, y)[5 + m] for x in ab for y in ch for m in range(MAX_SETS + 1))
    return Tables(s1, s2, h1, h0, ssh, hsh, sprof, hprof, mab, mch, len(ab), len(ch), fin)


# --------------------------------------------------------------------------
# Serialisation.

_HEADER = struct.Struct("<4sHHHHH")


def dump(tables: Tables) -> bytes:
    """Serialise the tables (zlib-compressed)."""
    body = b"".join(
        [tables.s1, tables.s2, tables.h1, tables.h0, tables.ssh, tables.hsh]
        + [bytes(p) for p in tables.sprof + tables.hprof]
        + [tables.mab, tables.mch, tables.fin]
    )
    header = _HEADER.pack(MAGIC, VERSION, len(tables.sprof), len(tables.hprof),
                          tables.nab, tables.nch)
    return header + zlib.compress(body, 9)


def parse(data: bytes) -> Tables:
    """Inverse of :func:`dump`; raises ``ValueError`` on a malformed or stale blob."""
    try:
        magic, version, ns, nh, nab, nch = _HEADER.unpack_from(data)
    except struct.error:
        raise ValueError("analysis table file is truncated") from None
    if magic != MAGIC or version != VERSION:
        raise ValueError("not a current laizi analysis table file")
    try:
        body = zlib.decompress(data[_HEADER.size :])
    except zlib.error as exc:
        raise ValueError(f"analysis table file is corrupt: {exc}") from None
    sizes = [SUIT_KEYS, SUIT_KEYS, HONOR_KEYS, HONOR_KEYS, SUIT_KEYS, HONOR_KEYS]
    sizes += [10 * ns, 10 * nh, ns * ns, ns * nh, nab * nch * (MAX_SETS + 1)]
    if len(body) != sum(sizes):
        raise ValueError("analysis table file has the wrong size")
    parts: list[bytes] = []
    off = 0
    for n in sizes:
        parts.append(body[off : off + n])
        off += n
    s1, s2, h1, h0, ssh, hsh, sp, hp, mab, mch, fin = parts
    sprof = tuple(tuple(sp[i : i + 10]) for i in range(0, len(sp), 10))
    hprof = tuple(tuple(hp[i : i + 10]) for i in range(0, len(hp), 10))
    return Tables(s1, s2, h1, h0, ssh, hsh, sprof, hprof, mab, mch, nab, nch, fin)


def load() -> Tables:
    """Tables from the shipped package data, or :func:`build` if unavailable."""
    try:
        data = resources.files("laizi").joinpath("data", DATA_FILE).read_bytes()
        return parse(data)
    except (OSError, ValueError, struct.error, zlib.error):
        return build()
