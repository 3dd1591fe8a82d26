"""Old import path of the bots' hand evaluation (kept for existing imports).

The evaluation now lives where it belongs: shanten and one-tile changes in
:mod:`laizi.analysis.profiles`, big-hand distances in :mod:`laizi.bots.bighands`.
"""

from __future__ import annotations

from laizi.analysis.profiles import HandEval, Keys, regular_shanten, shanten258, shanten_keys
from laizi.analysis.profiles import suit_keys as keys_of
from laizi.bots.bighands import (
    FENG,
    JIANG,
    fengyise_distance,
    jiangyise_distance,
    pengpeng_distance,
    qingyise_distance,
)

__all__ = [
    "FENG",
    "JIANG",
    "HandEval",
    "Keys",
    "fengyise_distance",
    "jiangyise_distance",
    "keys_of",
    "pengpeng_distance",
    "qingyise_distance",
    "regular_shanten",
    "shanten258",
    "shanten_keys",
]
