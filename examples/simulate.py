"""Simulate hands between bots and print the statistics (reproducible from the seed).

Run: python examples/simulate.py [HANDS]   (the same as ``laizi sim --hands HANDS --seed 1``)
"""

import sys

from laizi.sim import simulate

hands = int(sys.argv[1]) if len(sys.argv) > 1 else 100
result = simulate(hands, preset="kaikoufan", bots=["strong", "greedy", "greedy", "random"],
                  seed=1)
stats = result.to_json(timing=False)
print(f"{stats['hands']} hands, {stats['wins']} wins, zero-sum: {stats['zero_sum']}")
for seat in stats["seats"]:
    print(f"seat {seat['seat']} {seat['bot']:>6}: {seat['wins']:3} wins, "
          f"{seat['points']:>7} points")
print("points per hand by bot:", {k: round(v, 2) for k, v in result.points_by_bot().items()})
