"""Game-engine errors (defined in :mod:`laizi.errors`, re-exported here). Each is a
:class:`ValueError` (via :class:`laizi.errors.LaiziError`)."""

from __future__ import annotations

from laizi.errors import (
    ActionError,
    ActionParseError,
    GameError,
    IllegalActionError,
    LogError,
    MatchOverError,
    ReplayError,
    WallError,
)

__all__ = [
    "ActionError", "ActionParseError", "GameError", "IllegalActionError", "LogError",
    "MatchOverError", "ReplayError", "WallError",
]
