"""碰碰胡: all four sets are triplets or kongs; any pair."""

from laizi.scoring.model import WinContext
from laizi.scoring.reading import Reading, winner_table

ID = "pengpeng"
NAME = "碰碰胡"
ORDER = 1  # RULES.md §6: the order of ``big_hands``


def detect(reading: Reading, ctx: WinContext) -> bool:
    d = reading.decomposition
    if d is None or d.has_run:
        return False
    return all(m.type != "chi" for m in winner_table(ctx).melds)
