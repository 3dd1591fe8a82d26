"""Scoring (RULES.md §6-§7): win checks, big hands, fan, caps, minimum, liability.

:func:`table_fan` is a seat's public table 番 (opening, kongs, laid-aside special
tiles and laizi), the one function the scorer, the bots and the table display use.
"""

from laizi.scoring.model import (
    REASONS,
    Meld,
    PlayerTable,
    ScoreResult,
    WinContext,
)
from laizi.scoring.patterns import BIG_HAND_IDS, BIG_HAND_NAMES
from laizi.scoring.score import score, score_variants
from laizi.scoring.tablefan import table_fan, table_fan_items

__all__ = [
    "BIG_HAND_IDS", "BIG_HAND_NAMES", "REASONS", "Meld", "PlayerTable", "ScoreResult",
    "WinContext", "score", "score_variants", "table_fan", "table_fan_items",
]
