"""风一色: every tile a wind, 发 or 白; any shape when ``luan_feng_jiang`` (乱风)."""

from laizi.scoring.model import WinContext
from laizi.scoring.reading import FENG_KINDS, Reading

ID = "fengyise"


def detect(reading: Reading, ctx: WinContext) -> bool:
    if reading.shape == "luan_feng":
        return True
    return reading.shape == "regular" and bool(reading.kinds) and reading.kinds <= FENG_KINDS
