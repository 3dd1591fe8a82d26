"""Big hands (大胡), one small module per pattern (RULES.md §6).

Each module defines ``ID`` and ``detect(reading, ctx) -> bool``; :data:`PATTERNS`
lists them in the order of RULES.md, which is also the order of ``big_hands``.
"""

from __future__ import annotations

from types import ModuleType

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

PATTERNS: tuple[ModuleType, ...] = (
    pengpeng, qingyise, fengyise, jiangyise, quanqiuren, gangkai, qianggang, haidi, menqing, qidui,
)

__all__ = ["PATTERNS"]
