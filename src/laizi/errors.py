"""Exception classes. Every error a user can cause is a specific ``ValueError`` subclass."""

from __future__ import annotations


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
    """An unknown rule option or preset, or a bad option value."""


class MeldParseError(LaiziError):
    """Bad meld notation such as ``peng 9p from 3``."""


class IllegalHandError(LaiziError):
    """A hand description that cannot exist (too many copies, wrong tile count...)."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")
