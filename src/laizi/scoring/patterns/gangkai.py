"""杠上开花: self-drawn win on the replacement tile after any kong."""

from laizi.scoring.model import WinContext
from laizi.scoring.reading import Reading

ID = "gangkai"
NAME = "杠上开花"
ORDER = 6  # RULES.md §6: the order of ``big_hands``


def detect(reading: Reading, ctx: WinContext) -> bool:
    return ctx.by == "self_draw" and ctx.after_kong
