"""Game-engine errors. Each is a :class:`ValueError` (via :class:`laizi.errors.LaiziError`)."""

from __future__ import annotations

from laizi.errors import LaiziError

__all__ = ["GameError", "IllegalActionError", "LogError", "MatchOverError", "ReplayError"]


class GameError(LaiziError):
    """Base class of the game engine's errors."""


class IllegalActionError(GameError):
    """An action that is not legal for that seat right now; the state is unchanged."""

    def __init__(self, seat: int, action: object, message: str) -> None:
        self.seat = seat
        self.action = action
        self.message = message
        super().__init__(f"seat {seat}: {message}")


class MatchOverError(GameError):
    """An action on a hand or match that has already ended."""


class LogError(GameError):
    """A log that cannot be read (bad JSON, unknown event, missing field)."""


class ReplayError(GameError):
    """A log whose recorded events differ from what the engine produces when replaying it."""

    def __init__(self, v: int | None, message: str) -> None:
        self.v = v
        self.message = message
        where = f"event v={v}: " if v is not None else ""
        super().__init__(f"{where}{message}")
