"""Bot levels: over 2,000 seeded hands strong wins more points than greedy, and greedy
more than random.

Duplicate format: the same 1,000 deals are played twice with the seats swapped
(A B A B, then B A B A), so the luck of the deal cancels out; each level's figure is
its average points per hand and seat over the 2,000 hands.
"""

from __future__ import annotations

import time

import pytest

from laizi.sim import simulate

HANDS = 1000  # × 2 arrangements = 2,000 hands per comparison
SEED = 2024


def duplicate(a: str, b: str, seed: int = SEED, hands: int = HANDS) -> dict[str, float]:
    total = {a: 0.0, b: 0.0}
    for bots in ([a, b, a, b], [b, a, b, a]):
        res = simulate(hands, bots=bots, seed=seed, workers=2, count_refusals=False)
        assert res.zero_sum()
        for name, pts in res.points_by_bot().items():
            total[name] += pts / 2
    return total


@pytest.mark.slow
def test_strong_beats_greedy_over_2000_hands() -> None:
    t0 = time.perf_counter()
    pts = duplicate("strong", "greedy")
    print(f"strong vs greedy, points per hand and seat: {pts} ({time.perf_counter() - t0:.1f} s)")
    assert pts["strong"] > pts["greedy"]


@pytest.mark.slow
def test_greedy_beats_random_over_2000_hands() -> None:
    t0 = time.perf_counter()
    pts = duplicate("greedy", "random")
    print(f"greedy vs random, points per hand and seat: {pts} ({time.perf_counter() - t0:.1f} s)")
    assert pts["greedy"] > pts["random"] + 20
