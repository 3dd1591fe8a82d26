"""Per-suit shanten profiles: the table-driven hand evaluation the bots build on.

A hand of 34 *natural* counts (each 0-4, wildcards passed separately) splits into
four suits.  Each suit is identified by its **key**, the base-5 number of its nine
(honours: seven) counts, first kind most significant (:func:`suit_keys`).  A suit's
**profile** (:func:`suit_profile`) has ten numbers: ``profile[p * 5 + m]`` is the
fewest tiles missing from that suit for ``m`` sets and ``p`` pairs (``m <= 4``,
``p <= 1``), each kind at most four copies.  Profiles combine by min-plus merging;
the merges are precomputed (:mod:`laizi.analysis._tables`), so the tiles missing
from a whole hand for ``n`` sets and a pair (:func:`missing_tiles`) are a few byte
look-ups, and a one-tile change re-reads one suit only.

Wildcards are free jokers here: the shanten is ``missing - wilds - 1``, and a
wild never counts as a fifth copy of a kind held four times.  That is the bots'
estimate; it equals :func:`laizi.analysis.shanten` except for hands holding both
wilds and four copies of a kind (where ``shanten`` may be lower).

Preconditions (not checked, for speed; :mod:`laizi.analysis.checked` checks the
public entry points): counts are 34 integers in 0-4, ``0 <= n_sets <= 4``.  The
tables load on first use (never at import time).

>>> from laizi.tiles import counts_from_str
>>> ev = HandEval(counts_from_str("123m456p789s111z2z"), 0, 4)   # 13 tiles: 4 sets + pair
>>> ev.shanten, ev.improving_draws(0)
(0, [28])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from laizi.analysis._tables import merge_profiles
from laizi.analysis.fast import load_tables
from laizi.tiles import JIANG_KINDS, NUM_KINDS

__all__ = [
    "JIANG_KINDS",
    "PLACE",
    "HandEval",
    "Keys",
    "Profile",
    "missing_tiles",
    "regular_shanten",
    "sets_missing",
    "shanten258",
    "shanten_keys",
    "suit_keys",
    "suit_of",
    "suit_profile",
]

Keys = tuple[int, int, int, int]
"""Suit keys of a hand: characters, dots, bamboos, honours."""
Profile = tuple[int, ...]
"""Ten numbers, ``profile[p * 5 + m]``: tiles missing for ``m`` sets + ``p`` pairs."""

P9: Final = tuple(5 ** (8 - i) for i in range(9))
P7: Final = tuple(5 ** (6 - i) for i in range(7))
PLACE: Final[tuple[tuple[int, int], ...]] = tuple(
    (k // 9, P9[k % 9]) if k < 27 else (3, P7[k - 27]) for k in range(NUM_KINDS)
)
"""kind -> (suit 0-3, place value of the kind in that suit's key)."""


@dataclass(frozen=True, slots=True)
class _Lookup:
    """The loaded tables in the shape the hot paths read them."""

    ssh: bytes  # suit key -> suit profile index
    hsh: bytes  # honour key -> honour profile index
    sprof: tuple[Profile, ...]
    hprof: tuple[Profile, ...]
    mab: bytes  # (suit profile, suit profile) -> merged class
    mch: bytes  # (suit profile, honour profile) -> merged class
    fin: bytes  # (ab class, ch class, n) -> missing tiles for n sets + a pair
    ns: int
    nh: int
    nch: int
    ab_prof: tuple[Profile, ...]  # merged profile of each ab class
    ch_prof: tuple[Profile, ...]  # merged profile of each ch class


def _classes(table: bytes, left: Sequence[Profile], right: Sequence[Profile]) -> tuple[Profile, ...]:
    """The merged profile of each class number in a merge table."""
    nr = len(right)
    found: dict[int, Profile] = {}
    for i, c in enumerate(table):
        if c not in found:
            found[c] = merge_profiles(left[i // nr], right[i % nr])
    return tuple(found[c] for c in range(len(found)))


# Documented caches (filled on first use, never at import time):
_LOOKUP: _Lookup | None = None
"""The loaded tables."""
_SETS_ONLY: Final[dict[int, int]] = {}
"""``(ab * nch + ch) * 5 + n`` -> missing tiles for ``n`` sets and no pair (at most
``nab * nch * 5`` entries)."""
_UP_MOVES: Final[dict[tuple[int, int], tuple[tuple[int, int], ...]]] = {}
"""``(suit, key)`` -> the near draws of that suit (see :meth:`HandEval.improving_draws`);
cleared when it grows past ``_UP_MOVES_MAX``."""
_UP_MOVES_MAX: Final = 400_000


def _lookup() -> _Lookup:
    global _LOOKUP
    if _LOOKUP is None:
        t = load_tables()
        _LOOKUP = _Lookup(
            ssh=t.ssh, hsh=t.hsh, sprof=t.sprof, hprof=t.hprof, mab=t.mab, mch=t.mch,
            fin=t.fin, ns=len(t.sprof), nh=len(t.hprof), nch=t.nch,
            ab_prof=_classes(t.mab, t.sprof, t.sprof),
            ch_prof=_classes(t.mch, t.sprof, t.hprof),
        )
    return _LOOKUP


def suit_of(kind: int) -> int:
    """Suit index 0-3 (m, p, s, honours) of a kind."""
    return kind // 9 if kind < 27 else 3


_DIGITS: Final = bytes(range(48, 53)) + b"9" * 251


def suit_keys(counts: Sequence[int]) -> Keys:
    """The four suit keys (base 5) of 34 natural counts (each 0-4)."""
    s = bytes(counts).translate(_DIGITS)
    return (int(s[0:9], 5), int(s[9:18], 5), int(s[18:27], 5), int(s[27:34], 5))


def suit_profile(suit: int, key: int) -> Profile:
    """The profile of one suit (0-2 numbered, 3 honours) given its key."""
    t = _LOOKUP or _lookup()
    return t.sprof[t.ssh[key]] if suit < 3 else t.hprof[t.hsh[key]]


def missing_tiles(keys: Keys, n_sets: int) -> int:
    """Fewest tiles missing from the hand with suit ``keys`` for ``n_sets`` sets + a pair."""
    t = _LOOKUP or _lookup()
    ssh = t.ssh
    ab = t.mab[ssh[keys[0]] * t.ns + ssh[keys[1]]]
    ch = t.mch[ssh[keys[2]] * t.nh + t.hsh[keys[3]]]
    return t.fin[(ab * t.nch + ch) * 5 + n_sets]


def _sets_only(t: _Lookup, ab: int, ch: int, n: int) -> int:
    idx = (ab * t.nch + ch) * 5 + n
    v = _SETS_ONLY.get(idx)
    if v is None:
        pa, pc = t.ab_prof[ab], t.ch_prof[ch]
        v = _SETS_ONLY[idx] = min(pa[i] + pc[n - i] for i in range(n + 1))
    return v


def sets_missing(keys: Keys, n_sets: int) -> int:
    """Fewest tiles missing from the hand with suit ``keys`` for ``n_sets`` sets, no pair."""
    t = _LOOKUP or _lookup()
    ssh = t.ssh
    ab = t.mab[ssh[keys[0]] * t.ns + ssh[keys[1]]]
    ch = t.mch[ssh[keys[2]] * t.nh + t.hsh[keys[3]]]
    return _sets_only(t, ab, ch, n_sets)


def shanten_keys(keys: Keys, n_sets: int, wilds: int) -> int:
    """Shanten (-1 complete) of a concealed hand needing ``n_sets`` sets + a pair.

    Works for 3n+1 hands (waiting) and 3n+2 hands (the shanten of the best discard).
    """
    return missing_tiles(keys, n_sets) - wilds - 1


def regular_shanten(counts: Sequence[int], wilds: int, n_sets: int | None = None) -> int:
    """Shanten of natural ``counts`` plus ``wilds`` (sets needed from the tile count by default)."""
    if n_sets is None:
        n_sets = (sum(counts) + wilds) // 3
    return missing_tiles(suit_keys(counts), n_sets) - wilds - 1


def shanten258(counts: Sequence[int], wilds: int, n_sets: int) -> int:
    """Shanten of a regular hand whose pair is a 2/5/8 holding a natural tile (small hands).

    The pair takes the held copies (up to two) of one 2/5/8 kind, the missing ones
    counted; the rest must form ``n_sets`` sets.
    """
    t = _LOOKUP or _lookup()
    ssh, mab, mch, ns, nh = t.ssh, t.mab, t.mch, t.ns, t.nh
    keys = suit_keys(counts)
    pids = [ssh[keys[0]], ssh[keys[1]], ssh[keys[2]]]
    h = t.hsh[keys[3]]
    best = 99
    for k in JIANG_KINDS:
        c = counts[k]
        take = 2 if c >= 2 else c
        s, place = PLACE[k]
        old = pids[s]
        pids[s] = ssh[keys[s] - take * place]
        m = _sets_only(t, mab[pids[0] * ns + pids[1]], mch[pids[2] * nh + h], n_sets) + 2 - take
        pids[s] = old
        if m < best:
            best = m
    return best - wilds - 1


class HandEval:
    """A concealed hand prepared for many one-tile-change shanten queries.

    ``counts``: 34 natural counts; ``wilds``: wildcards; ``n_sets``: sets the
    concealed part still needs (4 minus the melds).  ``keys`` and ``pids`` (each
    suit's profile index) follow :meth:`change`.
    """

    __slots__ = ("keys", "pids", "n", "wilds", "base_missing")

    keys: list[int]
    pids: list[int]
    n: int
    wilds: int
    base_missing: int

    def __init__(self, counts: Sequence[int], wilds: int, n_sets: int) -> None:
        t = _LOOKUP or _lookup()
        ssh = t.ssh
        keys = suit_keys(counts)
        self.keys = list(keys)
        self.n = n_sets
        self.wilds = wilds
        a, b, c, h = ssh[keys[0]], ssh[keys[1]], ssh[keys[2]], t.hsh[keys[3]]
        self.pids = [a, b, c, h]
        self.base_missing = t.fin[(t.mab[a * t.ns + b] * t.nch + t.mch[c * t.nh + h]) * 5 + n_sets]

    def __repr__(self) -> str:
        return (f"HandEval(keys={tuple(self.keys)}, wilds={self.wilds}, n_sets={self.n}, "
                f"shanten={self.shanten})")

    @property
    def shanten(self) -> int:
        """Shanten of the hand (-1 complete)."""
        return self.base_missing - self.wilds - 1

    def _missing(self, t: _Lookup, pids: Sequence[int]) -> int:
        return t.fin[(t.mab[pids[0] * t.ns + pids[1]] * t.nch
                      + t.mch[pids[2] * t.nh + pids[3]]) * 5 + self.n]

    def missing_with(self, kind: int, delta: int) -> int:
        """Missing tiles after adding (+1) / removing (-1) one ``kind``."""
        t = _LOOKUP or _lookup()
        s, place = PLACE[kind]
        pids = list(self.pids)
        key = self.keys[s] + delta * place
        pids[s] = t.hsh[key] if s == 3 else t.ssh[key]
        return self._missing(t, pids)

    def change(self, kind: int, delta: int) -> None:
        """Apply a one-tile change (+1 add, -1 remove) in place."""
        t = _LOOKUP or _lookup()
        s, place = PLACE[kind]
        key = self.keys[s] = self.keys[s] + delta * place
        self.pids[s] = t.hsh[key] if s == 3 else t.ssh[key]
        self.base_missing = self._missing(t, self.pids)

    def shanten_each(self, kinds: Sequence[int], delta: int) -> list[int]:
        """Shanten after adding (+1) / removing (-1) each of ``kinds`` (one at a time)."""
        t = _LOOKUP or _lookup()
        keys = self.keys
        a0, b0, c0, h0 = self.pids
        n = self.n
        off = self.wilds + 1
        ssh, hsh, mab, mch, fin, ns, nh, nch = t.ssh, t.hsh, t.mab, t.mch, t.fin, t.ns, t.nh, t.nch
        ab0 = mab[a0 * ns + b0] * nch
        ch0 = mch[c0 * nh + h0]
        out: list[int] = []
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

    def improving_draws(self, sh: int) -> list[int]:
        """Kinds (ascending) whose draw brings this 3n+1 hand below shanten ``sh``.

        Only kinds near the held tiles are candidates (a held kind, or a suited
        neighbour within two) with fewer than four copies held.  Without wilds a
        draw elsewhere never lowers the shanten; with wilds it can (a far tile and
        wilds alone forming a pair or set), which this estimate ignores.
        """
        t = _LOOKUP or _lookup()
        a0, b0, c0, h0 = self.pids
        keys = self.keys
        n = self.n
        limit = sh + self.wilds + 1  # missing - wilds - 1 < sh
        fin, mab, mch, ns, nh, nch = t.fin, t.mab, t.mch, t.ns, t.nh, t.nch
        ch0 = mch[c0 * nh + h0]
        ab0 = mab[a0 * ns + b0] * nch
        out: list[int] = []
        for kind, p in _up_moves(t, 0, keys[0]):
            if fin[(mab[p * ns + b0] * nch + ch0) * 5 + n] < limit:
                out.append(kind)
        for kind, p in _up_moves(t, 1, keys[1]):
            if fin[(mab[a0 * ns + p] * nch + ch0) * 5 + n] < limit:
                out.append(kind)
        for kind, p in _up_moves(t, 2, keys[2]):
            if fin[(ab0 + mch[p * nh + h0]) * 5 + n] < limit:
                out.append(kind)
        for kind, p in _up_moves(t, 3, keys[3]):
            if fin[(ab0 + mch[c0 * nh + p]) * 5 + n] < limit:
                out.append(kind)
        return out


def _up_moves(t: _Lookup, suit: int, key: int) -> tuple[tuple[int, int], ...]:
    """(kind, profile index after drawing it) for each kind of ``suit`` near its held
    tiles (held, or a suited neighbour within 2) that still has a free copy."""
    got = _UP_MOVES.get((suit, key))
    if got is None:
        size = 9 if suit < 3 else 7
        places = P9 if suit < 3 else P7
        digits = [(key // p) % 5 for p in places]
        near: set[int] = set()
        for i in range(size):
            if digits[i]:
                if suit < 3:
                    near.update(j for j in range(i - 2, i + 3) if 0 <= j < size)
                else:
                    near.add(i)
        table = t.ssh if suit < 3 else t.hsh
        got = tuple((9 * suit + j, table[key + places[j]]) for j in sorted(near) if digits[j] < 4)
        if len(_UP_MOVES) > _UP_MOVES_MAX:
            _UP_MOVES.clear()
        _UP_MOVES[(suit, key)] = got
    return got
