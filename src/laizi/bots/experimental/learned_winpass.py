"""``learned`` that passes a small win on a discard for a bigger one (stop 59, issue 28).

The shipped ``learned`` (:class:`~laizi.bots.learned.LearnedBot`) takes every win on
offer. :class:`WinPassLearned` is ``learned`` with a :class:`~laizi.bots.experimental.winpass.WinPass`
rule asked first at a claim where a win on a discard is on offer (after ``learned``'s own
preset check, before ``expert`` or the critic decide): the rule of ``expert-winpass``, the
same function (:func:`~laizi.bots.experimental.winpass.passes`), reading the seat's view
only. Raced with ``benchmarks/ab_winpass.py --baseline learned`` on the fresh seeds 2910 and
2911 (docs/learned.md, "Win-pass inside learned (stop 59)"): +0.35 [+0.08, +0.62] and +0.16
[−0.11, +0.42] points/hand over ``learned``, the second seed not confirming it, so it is
not shipped and stays here, outside the production bots (which never import this package).
"""

from __future__ import annotations

from typing import Any

from laizi.bots.base import SeatView
from laizi.bots.experimental.winpass import WinPass, passes
from laizi.bots.learned import LearnedBot
from laizi.game.actions import PASS, Action

__all__ = ["NARROW", "WinPassLearned"]

#: the narrow rule raced (later > now, any wait, any wall, no loss counted for passing)
NARROW = WinPass(ratio=1.0, min_wall=0, big_only=False, loss=0.0)


class WinPassLearned(LearnedBot):
    """``learned`` with ``win_pass`` (None: exactly ``learned``); ``wins_passed`` counts."""

    def __init__(self, seed: int | None = None, *, win_pass: WinPass | None = NARROW,
                 **kwargs: Any) -> None:
        super().__init__(seed, **kwargs)
        self.win_pass = win_pass
        self.wins_passed = 0

    def __repr__(self) -> str:
        return f"WinPassLearned(seed={self.expert.seed}, win_pass={self.win_pass!r})"

    def act(self, view: SeatView) -> Action:
        preset = self.model.preset if self.model is not None else None
        if (self.win_pass is not None and (preset is None or view.rules.preset_name == preset)
                and view.phase == "claim" and PASS in view.legal
                and any(a.type == "ron" for a in view.legal) and passes(view, self.win_pass)):
            self.wins_passed += 1
            return PASS
        return super().act(view)
