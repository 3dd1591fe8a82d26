"""Scoring (RULES.md §6-§7): win checks, big hands, fan, caps, minimum, liability."""

from laizi.scoring.model import (
    BIG_HAND_IDS,
    BIG_HAND_NAMES,
    REASONS,
    Meld,
    PlayerTable,
    ScoreResult,
    WinContext,
)
from laizi.scoring.score import score

__all__ = [
    "BIG_HAND_IDS", "BIG_HAND_NAMES", "REASONS", "Meld", "PlayerTable", "ScoreResult",
    "WinContext", "score",
]
