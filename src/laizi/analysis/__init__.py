"""Hand analysis: win detection with wildcards, waits, shanten, and rule-level decomposition."""

from laizi.analysis.fast import can_win, shanten, waits

__all__ = ["can_win", "shanten", "waits"]
