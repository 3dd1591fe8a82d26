"""Fast hand evaluation for the bots and hints: shanten, acceptance, big-hand distances.

A hand is four suit keys (base-5 numbers of the nine, or seven, counts of each suit).
Each suit key maps to a *profile* — the fewest tiles missing from that suit for
``m`` sets and ``p`` pairs — computed on first sight and memoised; the combination
of four profiles into a shanten is memoised as well. A discard or a draw changes one
key, so evaluating every discard of a hand costs a few dictionary look-ups.
Wildcards are free jokers here (the four-copy limit is ignored: bots need a good,
fast estimate; exact win checks stay with :mod:`laizi.analysis` and the scorer).

Counts are 34 *natural* counts (the laizi kind removed, passed as ``wilds``).
"""

from __future__ import annotations

from collections.abc import Sequence

from laizi.analysis import waits
from laizi.scoring.reading import FENG_KINDS, JIANG_KINDS

__all__ = [
    "FENG",
    "JIANG",
    "Keys",
    "acceptance",
    "big_distance",
    "fengyise_distance",
    "jiangyise_distance",
    "keys_of",
    "pengpeng_distance",
    "qingyise_distance",
    "regular_shanten",
    "shanten_after",
    "shanten258",
    "shanten_keys",
    "sets_missing",
    "suit_of",
    "win_waits",
]

Keys = tuple[int, int, int, int]

P9 = tuple(5 ** (8 - i) for i in range(9))
P7 = tuple(5 ** (6 - i) for i in range(7))
# kind -> (suit index 0-3, place value in that suit's key)
PLACE: tuple[tuple[int, int], ...] = tuple(
    (k // 9, P9[k % 9]) if k < 27 else (3, P7[k - 27]) for k in range(34)
)
FENG = FENG_KINDS
JIANG = JIANG_KINDS
_NOT_FENG = tuple(k for k in range(34) if k not in FENG)
_NOT_JIANG = tuple(k for k in range(34) if k not in JIANG)
_SETS = 4  # at most four sets in a hand

_prof_ids: dict[tuple[int, ...], int] = {}
_profiles: list[tuple[int, ...]] = []
_suit_pid: dict[int, int] = {}
_honor_pid: dict[int, int] = {}
_combo: dict[tuple[int, int, int, int, int], int] = {}


def _digits(key: int, size: int) -> list[int]:
    out = [0] * size
    for i in range(size - 1, -1, -1):
        key, out[i] = divmod(key, 5)
    return out


def _profile(c: list[int], runs: bool) -> tuple[int, ...]:
    """profile[p * 5 + m]: fewest missing tiles for m sets + p pairs from this suit."""
    size = len(c)
    memo: dict[tuple[int, ...], list[int]] = {}
    inf = 99

    def rec() -> list[int]:
        key = tuple(c)
        got = memo.get(key)
        if got is not None:
            return got
        i = 0
        while i < size and c[i] == 0:
            i += 1
        out = [inf] * 10
        if i == size:
            out[0] = 0
            memo[key] = out
            return out

        def merge(dm: int, dp: int, cost: int) -> None:
            sub = rec()
            for p in range(2 - dp):
                for m in range(_SETS + 1 - dm):
                    v = sub[p * 5 + m]
                    if v < inf:
                        j = (p + dp) * 5 + m + dm
                        if v + cost < out[j]:
                            out[j] = v + cost

        # the lowest remaining tile: left unused
        c[i] -= 1
        merge(0, 0, 0)
        c[i] += 1
        n = c[i]
        for t in range(min(n, 3), 0, -1):  # a triplet holding t copies
            c[i] -= t
            merge(1, 0, 3 - t)
            c[i] += t
        if runs:
            for low in (i - 2, i - 1, i):
                if low < 0 or low + 2 >= size:
                    continue
                # members below i are missing, i is held, above i held if present
                miss = i - low
                used = [i]
                for x in range(i + 1, low + 3):
                    if c[x]:
                        used.append(x)
                    else:
                        miss += 1
                for x in used:
                    c[x] -= 1
                merge(1, 0, miss)
                for x in used:
                    c[x] += 1
        for t in range(min(n, 2), 0, -1):
            c[i] -= t
            merge(0, 1, 2 - t)
            c[i] += t
        memo[key] = out
        return out

    best = list(rec())
    # sets (3 tiles) or the pair (2 tiles) made from nothing
    for p in range(2):
        for m in range(_SETS + 1):
            idx = p * 5 + m
            v = best[idx]
            if m and best[idx - 1] + 3 < v:
                v = best[idx - 1] + 3
            if p and best[m] + 2 < v:
                v = best[m] + 2
            best[idx] = v
    return tuple(best)


def _intern(prof: tuple[int, ...]) -> int:
    pid = _prof_ids.get(prof)
    if pid is None:
        pid = len(_profiles)
        _prof_ids[prof] = pid
        _profiles.append(prof)
    return pid


# Shipped per-key tables of :mod:`laizi.analysis` (exact four-copy limit, merge
# classes), used when present in the expected layout and agreeing with the search
# above on probe hands; else the memoised search. In table mode a suit's "pid" is
# the table's own profile index and a whole-hand combination is three byte look-ups.
_ssh: bytes = b""
_hsh: bytes = b""
_sprof: Sequence[Sequence[int]] = ()
_hprof: Sequence[Sequence[int]] = ()
_mab: bytes = b""
_mch: bytes = b""
_fin: bytes = b""
_ns = 0
_nh = 0
_nch = 0
_tables_tried = False


def _load_tables() -> None:
    global _ssh, _hsh, _sprof, _hprof, _mab, _mch, _fin, _ns, _nh, _nch, _tables_tried
    _tables_tried = True
    try:
        from laizi.analysis.fast import load_tables

        t: object = load_tables()
        ssh: bytes = t.ssh  # type: ignore[attr-defined]
        hsh: bytes = t.hsh  # type: ignore[attr-defined]
        sprof: Sequence[Sequence[int]] = t.sprof  # type: ignore[attr-defined]
        hprof: Sequence[Sequence[int]] = t.hprof  # type: ignore[attr-defined]
        mab: bytes = t.mab  # type: ignore[attr-defined]
        mch: bytes = t.mch  # type: ignore[attr-defined]
        fin: bytes = t.fin  # type: ignore[attr-defined]
        nch: int = t.nch  # type: ignore[attr-defined]
        if len(ssh) != 5**9 or len(hsh) != 5**7:
            return
        ns, nh = len(sprof), len(hprof)
        import random

        rng = random.Random(12345)
        for _ in range(40):
            ks = [0, 0, 0, 0]
            for _j in range(rng.randint(1, 14)):
                k = rng.randrange(34)
                s_, place = PLACE[k]
                digit = (ks[s_] // place) % 5
                if digit < 4:
                    ks[s_] += place
            n = rng.randint(0, 4)
            ps = [sprof[ssh[ks[0]]], sprof[ssh[ks[1]]], sprof[ssh[ks[2]]], hprof[hsh[ks[3]]]]
            want = _combine(ps[0], ps[1], ps[2], ps[3], n)
            ab = mab[ssh[ks[0]] * ns + ssh[ks[1]]]
            ch = mch[ssh[ks[2]] * nh + hsh[ks[3]]]
            if fin[(ab * nch + ch) * 5 + n] != want:
                return
            if tuple(sprof[ssh[ks[0]]]) != _profile(_digits(ks[0], 9), True) and not any(
                (ks[0] // P9[i]) % 5 >= 3 for i in range(9)
            ):
                return
    except Exception:  # any layout change: fall back to the search
        return
    _ssh, _hsh, _sprof, _hprof = ssh, hsh, sprof, hprof
    _mab, _mch, _fin, _ns, _nh, _nch = mab, mch, fin, ns, nh, nch


def _suit(key: int) -> int:
    if not _tables_tried:
        _load_tables()
    pid = _ssh[key] if _ssh else _intern(_profile(_digits(key, 9), True))
    _suit_pid[key] = pid
    return pid


def _honor(key: int) -> int:
    if not _tables_tried:
        _load_tables()
    pid = _hsh[key] if _hsh else _intern(_profile(_digits(key, 7), False))
    _honor_pid[key] = pid
    return pid


def suit_profile(suit: int, pid: int) -> Sequence[int]:
    """The profile (missing tiles for m sets + p pairs, index p*5+m) of a pid."""
    if _ssh:
        return _sprof[pid] if suit < 3 else _hprof[pid]
    return _profiles[pid]


def combo(a: int, b: int, c: int, h: int, n: int) -> int:
    """Fewest missing tiles for n sets + a pair from four suit pids."""
    if _fin:
        return _fin[(_mab[a * _ns + b] * _nch + _mch[c * _nh + h]) * 5 + n]
    key = (a, b, c, h, n)
    v = _combo.get(key)
    if v is None:
        p = _profiles
        v = _combine(p[a], p[b], p[c], p[h], n)
        if len(_combo) > 1_000_000:
            _combo.clear()
        _combo[key] = v
    return v


def _combine(pa: Sequence[int], pb: Sequence[int], pc: Sequence[int], ph: Sequence[int],
             n: int) -> int:
    """Fewest missing tiles for ``n`` sets + 1 pair from four suit profiles."""
    rng = range(n + 1)
    x0 = [min([pa[i] + pb[m - i] for i in range(m + 1)]) for m in rng]
    x1 = [min([pa[5 + i] + pb[m - i] for i in range(m + 1)]
              + [pa[i] + pb[5 + m - i] for i in range(m + 1)]) for m in rng]
    y0 = [min([x0[i] + pc[m - i] for i in range(m + 1)]) for m in rng]
    y1 = [min([x1[i] + pc[m - i] for i in range(m + 1)]
              + [x0[i] + pc[5 + m - i] for i in range(m + 1)]) for m in rng]
    return min([y1[i] + ph[n - i] for i in rng] + [y0[i] + ph[5 + n - i] for i in rng])


def missing(ka: int, kb: int, kc: int, kh: int, n: int) -> int:
    """Fewest tiles missing for ``n`` sets + a pair (memoised)."""
    sp = _suit_pid
    a = sp.get(ka)
    if a is None:
        a = _suit(ka)
    b = sp.get(kb)
    if b is None:
        b = _suit(kb)
    c = sp.get(kc)
    if c is None:
        c = _suit(kc)
    h = _honor_pid.get(kh)
    if h is None:
        h = _honor(kh)
    return combo(a, b, c, h, n)


def suit_of(kind: int) -> int:
    return kind // 9 if kind < 27 else 3


_DIGITS = bytes(range(48, 53)) + b"9" * 251


def keys_of(counts: Sequence[int]) -> Keys:
    """The four suit keys (base 5) of 34 natural counts (each 0-4)."""
    s = bytes(counts).translate(_DIGITS)
    return (int(s[0:9], 5), int(s[9:18], 5), int(s[18:27], 5), int(s[27:34], 5))


def shanten_keys(keys: Keys, n_sets: int, wilds: int) -> int:
    """Shanten (−1 complete) of the concealed part needing ``n_sets`` sets + a pair.

    Works for 3n+1 hands (waiting) and 3n+2 hands (the shanten of the best discard).
    """
    return missing(keys[0], keys[1], keys[2], keys[3], n_sets) - wilds - 1


def regular_shanten(counts: Sequence[int], wilds: int, n_sets: int | None = None) -> int:
    """Shanten of natural ``counts`` plus ``wilds`` (sets needed from the tile count by default)."""
    if n_sets is None:
        n_sets = (sum(counts) + wilds) // 3
    ka, kb, kc, kh = keys_of(counts)
    return missing(ka, kb, kc, kh, n_sets) - wilds - 1


def shanten_after(keys: Keys, kind: int, delta: int, n_sets: int, wilds: int) -> int:
    """Shanten after adding (``delta`` = +1) or removing (−1) one ``kind``."""
    s, place = PLACE[kind]
    ka, kb, kc, kh = keys
    d = delta * place
    if s == 0:
        ka += d
    elif s == 1:
        kb += d
    elif s == 2:
        kc += d
    else:
        kh += d
    return missing(ka, kb, kc, kh, n_sets) - wilds - 1


def acceptance(
    counts: Sequence[int], wilds: int, n_sets: int, unseen: Sequence[int], base: int | None = None
) -> tuple[list[int], int]:
    """(kinds, unseen tiles) that lower the shanten of a 3n+1 hand when drawn."""
    keys = keys_of(counts)
    if base is None:
        base = shanten_keys(keys, n_sets, wilds)
    kinds: list[int] = []
    tiles = 0
    for k in range(34):
        u = unseen[k]
        if u <= 0 or counts[k] >= 4:
            continue
        if shanten_after(keys, k, 1, n_sets, wilds) < base:
            kinds.append(k)
            tiles += u
    return kinds, tiles


def win_waits(counts: Sequence[int], wilds: int, *, pair258: bool = True) -> list[int]:
    """Kinds that complete a 3n+1 hand as a regular shape (258 pair by default)."""
    return waits(counts, wilds, pair258=pair258)


# ------------------------------------------------------------------ big hands
def pengpeng_distance(counts: Sequence[int], wilds: int, n_sets: int) -> int:
    """Shanten-like distance to all-triplets + any pair (−1 complete)."""
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
    key = keys_of(counts)[suit]
    prof = suit_profile(suit, _honor(key) if suit == 3 else _suit(key))
    return prof[5 + n_sets] - wilds - 1


def _category_distance(counts: Sequence[int], wilds: int, n_sets: int, outside: Sequence[int]) -> int:
    """Loose 风一色/将一色 (any shape): every tile outside the category must be replaced."""
    total = sum(counts) + wilds
    bad = sum(counts[k] for k in outside)
    return bad - 1 + (3 * n_sets + 2 - total)


def fengyise_distance(counts: Sequence[int], wilds: int, n_sets: int) -> int:
    return _category_distance(counts, wilds, n_sets, _NOT_FENG)


def jiangyise_distance(counts: Sequence[int], wilds: int, n_sets: int) -> int:
    return _category_distance(counts, wilds, n_sets, _NOT_JIANG)


def big_distance(target: str, counts: Sequence[int], wilds: int, n_sets: int) -> int:
    """Distance to a target: ``regular``, ``pengpeng``, ``fengyise``, ``jiangyise``,
    ``qingyise0``/``1``/``2`` (suit m/p/s)."""
    if target == "pengpeng":
        return pengpeng_distance(counts, wilds, n_sets)
    if target == "fengyise":
        return fengyise_distance(counts, wilds, n_sets)
    if target == "jiangyise":
        return jiangyise_distance(counts, wilds, n_sets)
    if target.startswith("qingyise"):
        return qingyise_distance(counts, wilds, n_sets, int(target[-1]))
    return regular_shanten(counts, wilds, n_sets)


# ------------------------------------------------------------------ hot path
def _pid(s: int, key: int) -> int:
    if s == 3:
        pid = _honor_pid.get(key)
        return _honor(key) if pid is None else pid
    pid = _suit_pid.get(key)
    return _suit(key) if pid is None else pid


class HandEval:
    """A concealed hand prepared for many one-tile-change shanten queries."""

    __slots__ = ("keys", "pids", "n", "wilds", "base_missing")

    def __init__(self, counts: Sequence[int], wilds: int, n_sets: int) -> None:
        keys = keys_of(counts)
        self.keys = list(keys)
        self.n = n_sets
        self.wilds = wilds
        if _fin:  # shipped tables: direct look-ups
            self.pids = [_ssh[keys[0]], _ssh[keys[1]], _ssh[keys[2]], _hsh[keys[3]]]
        else:
            self.pids = [_pid(s, k) for s, k in enumerate(keys)]
        self.base_missing = self._combo(self.pids)

    def _combo(self, pids: list[int]) -> int:
        return combo(pids[0], pids[1], pids[2], pids[3], self.n)

    @property
    def shanten(self) -> int:
        return self.base_missing - self.wilds - 1

    def keys_tuple(self) -> tuple[int, int, int, int]:
        k = self.keys
        return (k[0], k[1], k[2], k[3])

    def missing_with(self, kind: int, delta: int) -> int:
        """Missing tiles after adding (+1) / removing (−1) one ``kind``."""
        s, place = PLACE[kind]
        pids = self.pids
        old = pids[s]
        pids[s] = _pid(s, self.keys[s] + delta * place)
        v = self._combo(pids)
        pids[s] = old
        return v

    def shanten_with(self, kind: int, delta: int) -> int:
        return self.missing_with(kind, delta) - self.wilds - 1

    def change(self, kind: int, delta: int) -> None:
        """Apply a one-tile change in place."""
        s, place = PLACE[kind]
        self.keys[s] += delta * place
        self.pids[s] = _pid(s, self.keys[s])
        self.base_missing = self._combo(self.pids)


def shanten_each(ev: HandEval, kinds: Sequence[int], delta: int) -> list[int]:
    """Shanten of ``ev``'s hand after adding (+1) / removing (−1) each of ``kinds``."""
    keys = ev.keys
    a0, b0, c0, h0 = ev.pids
    n = ev.n
    off = ev.wilds + 1
    out: list[int] = []
    if _fin:
        ssh, hsh, mab, mch, fin, ns, nh, nch = _ssh, _hsh, _mab, _mch, _fin, _ns, _nh, _nch
        ab0 = mab[a0 * ns + b0] * nch
        ch0 = mch[c0 * nh + h0]
        for kind in kinds:
            s, place = PLACE[kind]
            key = keys[s] + delta * place
            if s == 0:
                v = fin[(mab[ssh[key] * ns + b0] * nch + ch0) * 5 + n]
            elif s == 1:
                v = fin[(mab[a0 * ns + ssh[key]] * nch + ch0) * 5 + n]
            elif s == 2:
                v = fin[(ab0 + mch[ssh[key] * nh + h0]) * 5 + n]
            else:
                v = fin[(ab0 + mch[c0 * nh + hsh[key]]) * 5 + n]
            out.append(v - off)
        return out
    for kind in kinds:
        s, place = PLACE[kind]
        pids = [a0, b0, c0, h0]
        pids[s] = _pid(s, keys[s] + delta * place)
        out.append(combo(pids[0], pids[1], pids[2], pids[3], n) - off)
    return out


_up_memo: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}


def _up_moves(suit: int, key: int) -> tuple[tuple[int, int], ...]:
    """Table mode: (kind, profile id after drawing it) for each kind of ``suit`` near its
    held tiles (held, or a suited neighbour within 2) that still has a free copy."""
    got = _up_memo.get((suit, key))
    if got is None:
        size = 9 if suit < 3 else 7
        digits = _digits(key, size)
        near: set[int] = set()
        for i in range(size):
            if digits[i]:
                if suit < 3:
                    near.update(j for j in range(i - 2, i + 3) if 0 <= j < size)
                else:
                    near.add(i)
        places = P9 if suit < 3 else P7
        table = _ssh if suit < 3 else _hsh
        got = tuple((9 * suit + j, table[key + places[j]]) for j in sorted(near) if digits[j] < 4)
        if len(_up_memo) > 400_000:
            _up_memo.clear()
        _up_memo[(suit, key)] = got
    return got


def improving_draws(ev: HandEval, sh: int) -> list[int] | None:
    """Kinds near the held tiles whose draw brings ``ev``'s 3n+1 hand below shanten ``sh``
    (ascending); None without the shipped tables (use :func:`shanten_each` then)."""
    if not _fin:
        return None
    a0, b0, c0, h0 = ev.pids
    keys = ev.keys
    n = ev.n
    limit = sh + ev.wilds + 1  # missing - wilds - 1 < sh
    fin, mab, mch, ns, nh, nch = _fin, _mab, _mch, _ns, _nh, _nch
    ch0 = mch[c0 * nh + h0]
    ab0 = mab[a0 * ns + b0] * nch
    out: list[int] = []
    for kind, p in _up_moves(0, keys[0]):
        if fin[(mab[p * ns + b0] * nch + ch0) * 5 + n] < limit:
            out.append(kind)
    for kind, p in _up_moves(1, keys[1]):
        if fin[(mab[a0 * ns + p] * nch + ch0) * 5 + n] < limit:
            out.append(kind)
    for kind, p in _up_moves(2, keys[2]):
        if fin[(ab0 + mch[p * nh + h0]) * 5 + n] < limit:
            out.append(kind)
    for kind, p in _up_moves(3, keys[3]):
        if fin[(ab0 + mch[c0 * nh + p]) * 5 + n] < limit:
            out.append(kind)
    return out


# ------------------------------------------------------------------ 2/5/8 pair
_combo0: dict[tuple[int, int, int, int, int], int] = {}
_JIANG_LIST = tuple(sorted(JIANG))


def sets_missing(ka: int, kb: int, kc: int, kh: int, n: int) -> int:
    """Fewest missing tiles for ``n`` sets and no pair."""
    a, b, c, h = _pid(0, ka), _pid(1, kb), _pid(2, kc), _pid(3, kh)
    key = (a, b, c, h, n)
    v = _combo0.get(key)
    if v is None:
        pa, pb, pc, ph = (suit_profile(0, a), suit_profile(1, b), suit_profile(2, c),
                          suit_profile(3, h))
        rng = range(n + 1)
        x = [min(pa[i] + pb[m - i] for i in range(m + 1)) for m in rng]
        y = [min(x[i] + pc[m - i] for i in range(m + 1)) for m in rng]
        v = min(y[i] + ph[n - i] for i in rng)
        if len(_combo0) > 1_000_000:
            _combo0.clear()
        _combo0[key] = v
    return v


def shanten258(counts: Sequence[int], wilds: int, n_sets: int) -> int:
    """Shanten of a regular hand whose pair is a 2/5/8 holding a natural tile (small hands)."""
    keys = list(keys_of(counts))
    best = 99
    for k in _JIANG_LIST:
        c = counts[k]
        take = 2 if c >= 2 else c
        s, place = PLACE[k]
        keys[s] -= take * place
        m = sets_missing(keys[0], keys[1], keys[2], keys[3], n_sets) + 2 - take
        keys[s] += take * place
        if m < best:
            best = m
    return best - wilds - 1
