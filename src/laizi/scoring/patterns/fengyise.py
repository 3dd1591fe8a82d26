"""风一色: every tile a wind, 发 or 白.

With ``luan_feng_jiang`` (乱风, the default) it looks only at the tiles, so it holds on
every winning reading: the loose shape, the regular shape and the ``jiayu`` 七对 reading.
Without it (S0's strict reading) it needs the normal 4-sets-and-pair shape.
"""

from laizi.scoring.model import WinContext
from laizi.scoring.reading import FENG_KINDS, Reading, all_of

ID = "fengyise"
NAME = "风一色"
ORDER = 3  # RULES.md §6: the order of ``big_hands``


def detect(reading: Reading, ctx: WinContext) -> bool:
    return all_of(reading, FENG_KINDS) and (
        ctx.rules.luan_feng_jiang or reading.shape == "regular")
