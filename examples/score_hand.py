"""Score one win: the README's example hand, built with the library's own types.

Seat 1 draws 5s on 234m345p678s5s with a chi 123m and one 红中 laid aside as a kong;
6m is the laizi (not in the hand, so the win is hard). Run: python examples/score_hand.py
"""

from laizi.rules import RuleSet
from laizi.scoring import Meld, PlayerTable, WinContext, score
from laizi.tiles import Tile, parse_tiles


def tiles(text: str) -> tuple[int, ...]:
    return tuple(t.index for t in parse_tiles(text))


rules = RuleSet.preset("kaikoufan")
setup = rules.setup(laizi=Tile.parse("6m"))
players = (
    PlayerTable(),
    PlayerTable(hand=tiles("234m345p678s5s"), melds=(Meld.parse("chi 123m from 0"),),
                special_kongs=tiles("7z")),
    PlayerTable(melds=(Meld.parse("peng 9p from 3"),)),
    PlayerTable(melds=(Meld.parse("chi 345s from 2"),)),
)
ctx = WinContext(rules=rules, setup=setup, dealer=0, winner=1, tile=Tile.parse("5s").index,
                 by="self_draw", players=players)
result = score(ctx)

print(rules)
print("ok:", result.ok, "hard:", result.hard, "big hands:", result.big_hands)
print("payments:", [int(p) for p in result.payments])
for line in result.breakdown:
    print("  ", line)
