"""将一色: every tile a suited 2, 5 or 8; any shape when ``luan_feng_jiang`` (乱将)."""

from laizi.scoring.model import WinContext
from laizi.scoring.reading import JIANG_KINDS, Reading

ID = "jiangyise"


def detect(reading: Reading, ctx: WinContext) -> bool:
    if reading.shape == "luan_jiang":
        return True
    return reading.shape == "regular" and bool(reading.kinds) and reading.kinds <= JIANG_KINDS
