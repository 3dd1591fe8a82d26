"""七对 (``jiayu_hands`` only): seven pairs."""

from laizi.scoring.model import WinContext
from laizi.scoring.reading import Reading

ID = "qidui"
NAME = "七对"
ORDER = 10  # RULES.md §6: the order of ``big_hands``


def detect(reading: Reading, ctx: WinContext) -> bool:
    return ctx.rules.jiayu_hands and reading.shape == "qidui"
