"""将一色: every tile a suited 2, 5 or 8.

With ``luan_feng_jiang`` (乱将, the default) it looks only at the tiles, so it holds on
every winning reading: the loose shape, the regular shape and the ``jiayu`` 七对 reading.
Without it (S0's strict reading) it needs the normal 4-sets-and-pair shape.
"""

from laizi.scoring.model import WinContext
from laizi.scoring.reading import JIANG_KINDS, Reading, all_of

ID = "jiangyise"
NAME = "将一色"
ORDER = 4  # RULES.md §6: the order of ``big_hands``


def detect(reading: Reading, ctx: WinContext) -> bool:
    return all_of(reading, JIANG_KINDS) and (
        ctx.rules.luan_feng_jiang or reading.shape == "regular")
