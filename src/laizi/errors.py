"""Exception classes. Every error a user can cause is a specific ``ValueError`` subclass.

::

    LaiziError (ValueError)
    ├── TileParseError        bad tile notation
    ├── RuleError             unknown preset or option, bad option value
    ├── MeldParseError        bad meld notation
    ├── IllegalHandError      a hand that cannot exist
    └── GameError             the game engine's errors
        ├── ActionError       an action that cannot exist (unknown type, missing tile)
        │   └── ActionParseError   text or JSON that is not an action
        ├── IllegalActionError     a real action that is not legal now (state unchanged)
        ├── MatchOverError    an action on a finished hand or match
        ├── WallError         a wall that cannot be dealt (wrong tiles, bad arrangement)
        ├── LogError          a log that cannot be read
        └── ReplayError       a log that differs from what the engine produces
"""

from __future__ import annotations

__all__ = [
    "ActionError", "ActionParseError", "GameError", "IllegalActionError", "IllegalHandError",
    "LaiziError", "LogError", "MatchOverError", "MeldParseError", "ReplayError", "RuleError",
    "TileParseError", "WallError",
]


class LaiziError(ValueError):
    """Base class of every laizi input error."""


class TileParseError(LaiziError):
    """Bad tile notation: says what was wrong and at which position."""

    def __init__(self, text: str, position: int, message: str) -> None:
        self.text = text
        self.position = position
        self.message = message
        super().__init__(f"{message} at position {position} in {text!r}")


class RuleError(LaiziError):
    """An unknown rule option or preset, or a bad option value (``option``: its name, if one)."""

    def __init__(self, message: str, option: str | None = None) -> None:
        self.option = option
        super().__init__(message)


class MeldParseError(LaiziError):
    """Bad meld notation such as ``peng 9p from 3``."""


class IllegalHandError(LaiziError):
    """A hand description that cannot exist (too many copies, wrong tile count...).
    ``code`` and ``params``, where given, name the kind of mistake for a program that words it
    in its own language (the web calculator: ``score_tile_count`` with ``{"n": 13}``); the
    message stays the same English."""

    def __init__(self, field: str, message: str, *, code: str | None = None,
                 params: dict[str, object] | None = None) -> None:
        self.field = field
        self.message = message
        self.code = code
        self.params = params
        super().__init__(f"{field}: {message}")


class GameError(LaiziError):
    """Base class of the game engine's errors."""


class ActionError(GameError):
    """An action that cannot exist: an unknown type, a missing or extra tile."""


class ActionParseError(ActionError):
    """Text (``"chi 345m"``) or JSON (``{"type": "peng", "tile": "5m"}``) that is not an action."""

    def __init__(self, text: object, message: str) -> None:
        self.text = text
        self.message = message
        super().__init__(f"bad action {text!r}: {message}")


class IllegalActionError(GameError):
    """An action that is not legal for that seat right now; the state is unchanged."""

    def __init__(self, seat: int, action: object, message: str) -> None:
        self.seat = seat
        self.action = action
        self.message = message
        super().__init__(f"seat {seat}: {message}")


class MatchOverError(GameError):
    """An action on a hand or match that has already ended."""


class WallError(GameError):
    """A wall that cannot be dealt: not four of each kind, or an impossible arrangement."""


class LogError(GameError):
    """A log that cannot be read (bad JSON, unknown event, missing field)."""


class ReplayError(GameError):
    """A log whose recorded events differ from what the engine produces when replaying it."""

    def __init__(self, v: int | None, message: str) -> None:
        self.v = v
        self.message = message
        where = f"event v={v}: " if v is not None else ""
        super().__init__(f"{where}{message}")
