"""清一色: every tile, melds included, of one suit; any pair."""

from laizi.scoring.model import WinContext
from laizi.scoring.reading import Reading

ID = "qingyise"


def detect(reading: Reading, ctx: WinContext) -> bool:
    if reading.shape != "regular":
        return False
    suits = {k // 9 for k in reading.kinds}
    return len(suits) == 1 and next(iter(suits)) < 3
