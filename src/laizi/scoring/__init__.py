"""Scoring (RULES.md §6-§7): win checks, big hands, fan, caps, minimum, liability.

:func:`table_fan` is a seat's public table 番 (opening, kongs, laid-aside special
tiles and laizi), the one function the scorer, the bots and the table display use.
:func:`settlement_bound` is the most one hand can move a seat's points (the caps, §7.3-§7.5).
"""

from laizi.scoring.model import (
    REASONS,
    Meld,
    PlayerTable,
    ScoreResult,
    WinContext,
)
from laizi.scoring.patterns import BIG_HAND_IDS, BIG_HAND_NAMES
from laizi.scoring.score import payer_key, score, score_variants, settlement_bound
from laizi.scoring.tablefan import table_fan, table_fan_items

__all__ = [
    "BIG_HAND_IDS", "BIG_HAND_NAMES", "REASONS", "Meld", "PlayerTable", "ScoreResult",
    "WinContext", "payer_key", "score", "score_variants", "settlement_bound", "table_fan", "table_fan_items",
]
