"""全求人: four exposed melds, no concealed kong, one tile left in hand, won on a discard."""

from laizi.scoring.model import WinContext
from laizi.scoring.reading import Reading, winner_table

ID = "quanqiuren"
NAME = "全求人"
ORDER = 5  # RULES.md §6: the order of ``big_hands``


def detect(reading: Reading, ctx: WinContext) -> bool:
    table = winner_table(ctx)
    return (
        ctx.by == "discard"
        and reading.shape == "regular"
        and len(table.hand) == 1
        and len(table.melds) == 4
        and all(m.opens for m in table.melds)
    )
