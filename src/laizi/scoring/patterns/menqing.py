"""门前清 (``jiayu_hands`` only): no exposed melds. 七对 is not also 门前清."""

from laizi.scoring.model import WinContext
from laizi.scoring.reading import Reading, winner_table

ID = "menqing"
NAME = "门前清"
ORDER = 9  # RULES.md §6: the order of ``big_hands``


def detect(reading: Reading, ctx: WinContext) -> bool:
    if not ctx.rules.jiayu_hands or reading.shape == "qidui":
        return False
    return not winner_table(ctx).opened
