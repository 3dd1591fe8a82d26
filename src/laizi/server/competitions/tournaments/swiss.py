"""Seating a round: round 1 at random (``secrets``), later rounds Swiss by standing.

**Swiss.** Entrants are taken in standing order (the leader first). The leader is seated
with the next three entrants in order that it has not already played with *as the same
four*; the rest are seated the same way, recursively. When a choice leaves the others no
table of four that is new, the search goes back and tries the next combination
(lexicographic in standing order, so leaders still meet as closely as possible). The
search is exhaustive: a seating with no foursome repeated is found whenever one exists
(within ``budget`` steps, far beyond what a field of 64 needs); when none exists (four
entrants, for one), each leader in turn takes the closest new four where one is left, else
the next three in standing order.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Iterable, Sequence

__all__ = ["SWISS_BUDGET", "random_tables", "repeated", "swiss_tables"]

SWISS_BUDGET = 200_000  # combinations tried before giving up on avoiding a repeated four


class _OutOfBudget(Exception):
    pass


def random_tables(entrants: Sequence[int], rng: secrets.SystemRandom | None = None) -> list[list[int]]:
    """Round 1: a uniformly random seating (the OS's CSPRNG), in tables of four."""
    if len(entrants) % 4:
        raise ValueError("the number of entrants must be a multiple of 4")
    order = list(entrants)
    (rng or secrets.SystemRandom()).shuffle(order)
    return [order[i:i + 4] for i in range(0, len(order), 4)]


def swiss_tables(order: Sequence[int], met: Iterable[frozenset[int]],
                 budget: int = SWISS_BUDGET) -> list[list[int]]:
    """Tables of four for ``order`` (entrant ids, best standing first) such that no table
    is a foursome in ``met`` when that can be avoided; each table lists its entrants in
    standing order."""
    if len(order) % 4:
        raise ValueError("the number of entrants must be a multiple of 4")
    seen = {frozenset(g) for g in met}
    steps = 0

    def search(rest: tuple[int, ...]) -> list[list[int]] | None:
        nonlocal steps
        if not rest:
            return []
        lead, others = rest[0], rest[1:]
        for picks in itertools.combinations(range(len(others)), 3):
            steps += 1
            if steps > budget:
                raise _OutOfBudget
            table = [lead, *(others[i] for i in picks)]
            if frozenset(table) in seen:
                continue
            left = tuple(x for k, x in enumerate(others) if k not in picks)
            tail = search(left)
            if tail is not None:
                return [table, *tail]
        return None

    try:
        found = search(tuple(order))
    except _OutOfBudget:
        found = None
    return found if found is not None else _greedy(tuple(order), seen)


def _greedy(order: tuple[int, ...], seen: set[frozenset[int]]) -> list[list[int]]:
    """No seating avoids every repeat (or the search ran out of steps): each leader in turn
    takes the closest new four if there is one, else the next three in standing order."""
    out: list[list[int]] = []
    rest = order
    while rest:
        lead, others = rest[0], rest[1:]
        picks = next((c for c in itertools.combinations(range(len(others)), 3)
                      if frozenset((lead, *(others[i] for i in c))) not in seen), (0, 1, 2))
        out.append([lead, *(others[i] for i in picks)])
        rest = tuple(x for k, x in enumerate(others) if k not in picks)
    return out


def repeated(rounds: Sequence[Sequence[Sequence[int]]]) -> int:
    """How many tables repeat a foursome of an earlier table (0 for a clean tournament)."""
    seen: set[frozenset[int]] = set()
    n = 0
    for tables in rounds:
        for t in tables:
            key = frozenset(t)
            n += key in seen
            seen.add(key)
    return n
