"""清一色: every tile, melds included, of one suit; any pair.

It looks only at the tiles, so it holds on every winning reading: the regular shape,
the ``jiayu`` 七对 reading and the loose 风一色/将一色 shapes alike (RULES.md §6).
"""

from laizi.scoring.model import WinContext
from laizi.scoring.reading import SUIT_KINDS, Reading, all_of

ID = "qingyise"
NAME = "清一色"
ORDER = 2  # RULES.md §6: the order of ``big_hands``


def detect(reading: Reading, ctx: WinContext) -> bool:
    return any(all_of(reading, suit) for suit in SUIT_KINDS)
