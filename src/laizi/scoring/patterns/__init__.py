"""Big hands (大胡), one small module per pattern (RULES.md §6).

Each module carries its own ``ID`` (the name in ``big_hands``), ``NAME`` (Chinese),
``ORDER`` (its place in RULES.md §6, which is also the order of ``big_hands``) and
``detect(reading, ctx) -> bool``. :data:`PATTERNS` lists them by ``ORDER``;
:data:`BIG_HAND_IDS` and :data:`BIG_HAND_NAMES` are read off them.
"""

from __future__ import annotations

from types import ModuleType
from typing import Final

from laizi.scoring.patterns import (
    fengyise,
    gangkai,
    haidi,
    jiangyise,
    menqing,
    pengpeng,
    qianggang,
    qidui,
    qingyise,
    quanqiuren,
)

PATTERNS: tuple[ModuleType, ...] = tuple(sorted(
    (fengyise, gangkai, haidi, jiangyise, menqing, pengpeng, qianggang, qidui, qingyise,
     quanqiuren),
    key=lambda m: int(m.ORDER)))
#: The big hands' ids in RULES.md §6 order; ``big_hands`` lists are sorted in this order.
BIG_HAND_IDS: Final[tuple[str, ...]] = tuple(str(p.ID) for p in PATTERNS)
#: Each big hand's Chinese name by id.
BIG_HAND_NAMES: Final[dict[str, str]] = {str(p.ID): str(p.NAME) for p in PATTERNS}

__all__ = ["BIG_HAND_IDS", "BIG_HAND_NAMES", "PATTERNS"]
