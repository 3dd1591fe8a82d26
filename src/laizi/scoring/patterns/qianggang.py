"""抢杠: won by robbing a 蓄杠."""

from laizi.scoring.model import WinContext
from laizi.scoring.reading import Reading

ID = "qianggang"
NAME = "抢杠"
ORDER = 7  # RULES.md §6: the order of ``big_hands``


def detect(reading: Reading, ctx: WinContext) -> bool:
    return ctx.by == "rob_kong"
