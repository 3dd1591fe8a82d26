"""A custom bot: write ``act(view) -> action`` and let it play against the built-in bots.

``CautiousBot`` wins whenever it can, never claims, and discards the tile it holds
fewest copies of (laizi and special tiles last, so they are kept as kongs).
Run: python examples/custom_bot.py [HANDS]
"""

import sys

from laizi.bots import Bot, SeatView, make_bot
from laizi.game import PASS, Action
from laizi.rules import RuleSet
from laizi.sim import SimResult, run_hands


class CautiousBot(Bot):
    name = "cautious"

    def act(self, view: SeatView) -> Action:
        for a in view.legal:
            if a.type in ("tsumo", "ron"):
                return a
        if PASS in view.legal:
            return PASS
        discards = [a for a in view.legal if a.type == "discard"]
        if not discards:
            return view.legal[0]

        def keep(a: Action) -> tuple[bool, int, int]:
            assert a.tile is not None
            precious = a.tile == view.laizi
            return precious, view.hand[a.tile], -a.tile

        return min(discards, key=keep)

    def __repr__(self) -> str:
        return "CautiousBot()"


def bot_factory(name: str, seed: int) -> Bot:
    return CautiousBot() if name == "cautious" else make_bot(name, seed)


hands = int(sys.argv[1]) if len(sys.argv) > 1 else 60
names = ["cautious", "greedy", "greedy", "random"]
records, _ = run_hands(RuleSet.preset("kaikoufan"), names, seed=7, indices=range(hands),
                       bot_factory=bot_factory)
result = SimResult("kaikoufan", names, 7, 1, records)
for name, points in result.points_by_bot().items():
    print(f"{name:>8}: {points:+.2f} points per hand")
print("zero-sum:", result.zero_sum())
