"""七对 (``jiayu_hands`` only): seven pairs."""

from laizi.scoring.model import WinContext
from laizi.scoring.reading import Reading

ID = "qidui"


def detect(reading: Reading, ctx: WinContext) -> bool:
    return ctx.rules.jiayu_hands and reading.shape == "qidui"
