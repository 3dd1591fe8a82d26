"""Rule-level hand analysis: every decomposition of a concrete hand into sets and a pair.

Unlike :mod:`laizi.analysis.fast` (unrestricted wildcards, yes/no answers), this
module lists the actual groups, so the scorer can tell hard from soft wins,
碰碰胡 from a run hand, and a 258 pair from any pair. Wildcards here obey the
rules: a laizi may not stand for a special tile, nor (by default) for a fifth
copy of a kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Final, Literal

from laizi.tiles import NUM_KINDS

__all__ = ["Group", "Decomposition", "decompositions", "has_sets_only", "seven_pairs_wilds"]

GroupType = Literal["run", "triplet", "pair"]


@dataclass(frozen=True, slots=True)
class Group:
    """A concealed group. ``kind`` is the run's lowest kind or the triplet/pair kind;
    ``None`` for a group made of wildcards only (it may be any kind). ``wilds`` is the
    number of wildcards in it."""

    type: GroupType
    kind: int | None
    wilds: int

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy through the constructor: the compiled build's frozen
        # (native) class cannot be restored attribute by attribute
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))

    def kinds(self) -> list[int]:
        """The kinds this group's tiles represent (empty for an all-wild group)."""
        if self.kind is None:
            return []
        if self.type == "run":
            return [self.kind, self.kind + 1, self.kind + 2]
        return [self.kind] * (3 if self.type == "triplet" else 2)


@dataclass(frozen=True, slots=True)
class Decomposition:
    """Groups in canonical order. ``code``: a cheap equal-iff-equal key (filled by
    :func:`decompositions`; compared and hashed through ``groups``)."""

    groups: tuple[Group, ...]
    code: tuple[int, ...] | None = field(default=None, compare=False, hash=False, repr=False)

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy through the constructor: the compiled build's frozen
        # (native) class cannot be restored attribute by attribute
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))

    @property
    def pair(self) -> Group:
        return next(g for g in self.groups if g.type == "pair")

    @property
    def wilds(self) -> int:
        return sum(g.wilds for g in self.groups)

    @property
    def has_run(self) -> bool:
        return any(g.type == "run" for g in self.groups)


def decompositions(
    counts: Sequence[int],
    wilds: int,
    *,
    forbidden: frozenset[int] = frozenset(),
    limit: Sequence[int] | None = None,
) -> list[Decomposition]:
    """All distinct ways ``counts`` (34 natural kinds) plus ``wilds`` make sets + one pair.

    ``forbidden``: kinds a wildcard may not stand for (special tiles).
    ``limit``: per kind, how many copies wildcards may add (e.g. 4 − held), or None.
    """
    total = sum(counts) + wilds
    if total % 3 != 2:
        return []
    c = list(counts)
    room = [4] * NUM_KINDS if limit is None else list(limit)
    for k in forbidden:
        room[k] = 0
    seen: set[tuple[int, ...]] = set()
    out: list[Decomposition] = []
    found: list[list[Group]] = []
    _search(c, wilds, False, room, 0, [], found)
    gid = _GID
    for groups in found:
        # every group comes from the shared tables below: sort by their ranks
        code = tuple(sorted([gid[id(g)] for g in groups]))
        if code not in seen:
            seen.add(code)
            out.append(Decomposition(tuple([_GROUPS[i] for i in code]), code))
    return out


def _group_key(g: Group) -> tuple[str, int, int]:
    return (g.type, -1 if g.kind is None else g.kind, g.wilds)


# Group instances are immutable: share them instead of building one per search step.
_TRIPLET: Final = tuple(tuple(Group("triplet", k, need) for need in range(4)) for k in range(NUM_KINDS))
_PAIR: Final = tuple(tuple(Group("pair", k, need) for need in range(3)) for k in range(NUM_KINDS))
_RUN: Final = tuple(tuple(Group("run", k, need) for need in range(4)) for k in range(NUM_KINDS))
_WILD_PAIR: Final = Group("pair", None, 2)
_WILD_TRIPLET: Final = Group("triplet", None, 3)
# every shared group, ranked in canonical order (_group_key): a decomposition's code
_GROUPS: Final[tuple[Group, ...]] = tuple(sorted(
    [g for table in (_TRIPLET, _PAIR, _RUN) for row in table for g in row]
    + [_WILD_PAIR, _WILD_TRIPLET], key=_group_key))
_GID: Final[dict[int, int]] = {id(g): i for i, g in enumerate(_GROUPS)}


def _search(
    c: list[int], w: int, pair_used: bool, room: list[int], start: int,
    stack: list[Group], found: list[list[Group]],
) -> None:
    """Depth-first: append to ``found`` every completion of ``stack`` (in search order)."""
    k = start
    while k < NUM_KINDS and c[k] == 0:
        k += 1
    if k == NUM_KINDS:
        rest = list(stack)
        if not pair_used:
            if w < 2:
                return
            rest.append(_WILD_PAIR)
            w -= 2
        if w % 3:
            return
        rest.extend(_WILD_TRIPLET for _ in range(w // 3))
        found.append(rest)
        return
    n = c[k]
    # Triplet of k: 1..3 naturals.
    for nat in range(min(n, 3), 0, -1):
        need = 3 - nat
        if need <= w and room[k] >= need:
            c[k] -= nat
            room[k] -= need
            stack.append(_TRIPLET[k][need])
            _search(c, w - need, pair_used, room, k, stack, found)
            stack.pop()
            c[k] += nat
            room[k] += need
    # Pair of k.
    if not pair_used:
        for nat in range(min(n, 2), 0, -1):
            need = 2 - nat
            if need <= w and room[k] >= need:
                c[k] -= nat
                room[k] -= need
                stack.append(_PAIR[k][need])
                _search(c, w - need, True, room, k, stack, found)
                stack.pop()
                c[k] += nat
                room[k] += need
    # Runs containing k, where every kind below k must be a wildcard.
    if k < 27:
        pos = k % 9
        for below in (2, 1, 0):  # run low..low+2 with low = k - below
            # the members below k are wildcards; the run stays within the suit
            if below <= w and below <= pos <= 6 + below:
                _runs(c, w, pair_used, room, k, k - below, stack, found)


def _runs(
    c: list[int], w: int, pair_used: bool, room: list[int], k: int, low: int,
    stack: list[Group], found: list[list[Group]],
) -> None:
    """Runs low..low+2 holding the natural ``k``: members below ``k`` are wildcards,
    members above are natural when held (tried first) or wildcards."""
    below = k - low
    for x in range(low, k):
        if room[x] < 1:
            return
    # the members above k: (kind, natural?) choices, natural first
    if below == 2:
        picks: tuple[tuple[tuple[int, bool], ...], ...] = ((),)
    elif below == 1:
        x = k + 1
        picks = (((x, True),), ((x, False),)) if c[x] else (((x, False),),)
    else:
        x, y = k + 1, k + 2
        ox = ((x, True), (x, False)) if c[x] else ((x, False),)
        oy = ((y, True), (y, False)) if c[y] else ((y, False),)
        picks = tuple([(p, q) for p in ox for q in oy])
    for pick in picks:
        need = below
        ok = True
        for x, nat in pick:
            if not nat:
                need += 1
                if room[x] < 1:
                    ok = False
        if not ok or need > w:
            continue
        c[k] -= 1
        for x in range(low, k):
            room[x] -= 1
        for x, nat in pick:
            if nat:
                c[x] -= 1
            else:
                room[x] -= 1
        stack.append(_RUN[low][need])
        _search(c, w - need, pair_used, room, k, stack, found)
        stack.pop()
        c[k] += 1
        for x in range(low, k):
            room[x] += 1
        for x, nat in pick:
            if nat:
                c[x] += 1
            else:
                room[x] += 1


def has_sets_only(counts: Sequence[int]) -> bool:
    """True when ``counts`` (no wildcards) split exactly into sets (no pair)."""
    c = list(counts)
    if sum(c) % 3:
        return False
    return _sets_only(c, 0)


def _sets_only(c: list[int], k: int) -> bool:
    while k < NUM_KINDS and c[k] == 0:
        k += 1
    if k == NUM_KINDS:
        return True
    if c[k] >= 3:
        c[k] -= 3
        ok = _sets_only(c, k)
        c[k] += 3
        if ok:
            return True
    if k < 27 and k % 9 <= 6 and c[k + 1] and c[k + 2]:
        c[k] -= 1
        c[k + 1] -= 1
        c[k + 2] -= 1
        ok = _sets_only(c, k)
        c[k] += 1
        c[k + 1] += 1
        c[k + 2] += 1
        if ok:
            return True
    return False


def seven_pairs_wilds(counts: Sequence[int], wilds: int) -> bool:
    """Seven pairs (a four of a kind counts as two pairs) from 14 tiles with wildcards."""
    if sum(counts) + wilds != 14:
        return False
    singles = sum(n % 2 for n in counts)
    return singles <= wilds and (wilds - singles) % 2 == 0
