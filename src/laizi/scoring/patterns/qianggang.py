"""抢杠: won by robbing a 蓄杠."""

from laizi.scoring.model import WinContext
from laizi.scoring.reading import Reading

ID = "qianggang"


def detect(reading: Reading, ctx: WinContext) -> bool:
    return ctx.by == "rob_kong"
