"""Hand analysis: win detection with wildcards, waits, shanten, and rule-level decomposition.

:func:`can_win`, :func:`waits` and :func:`shanten` check their input (see
:mod:`laizi.analysis.checked` for the exact contract); :mod:`laizi.analysis.fast` has
the same functions unchecked, for callers that build their counts themselves.
:mod:`laizi.analysis.profiles` has the per-suit shanten profiles and
:class:`~laizi.analysis.profiles.HandEval` the bots build on.
"""

from laizi.analysis.checked import can_win, shanten, waits
from laizi.analysis.profiles import HandEval, suit_keys, suit_profile

__all__ = ["HandEval", "can_win", "shanten", "suit_keys", "suit_profile", "waits"]
