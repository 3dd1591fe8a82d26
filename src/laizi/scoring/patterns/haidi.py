"""海底捞: self-drawn win on a haidi tile (RULES.md §8)."""

from laizi.scoring.model import WinContext
from laizi.scoring.reading import Reading

ID = "haidi"
NAME = "海底捞"
ORDER = 8  # RULES.md §6: the order of ``big_hands``


def detect(reading: Reading, ctx: WinContext) -> bool:
    return ctx.by == "self_draw" and ctx.haidi
