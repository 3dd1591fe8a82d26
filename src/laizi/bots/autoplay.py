"""托管 auto-play: any seat can be switched to a bot and back at any time.

:class:`SeatControl` keeps, per seat, whether a bot plays it and which bot. A driver
(simulator, terminal game, server room) asks :meth:`SeatControl.pending` which
auto-played seats must act now and applies :meth:`SeatControl.decide`'s action, or
calls :meth:`SeatControl.play_auto` to do both until a human seat must decide.

>>> ctl = SeatControl({1: "strong", 2: "greedy", 3: "greedy"}, seed=7)
>>> ctl.set_auto(0, True)          # the human at seat 0 goes on 托管
>>> ctl.set_auto(0, False)         # and takes the seat back
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from laizi.bots.base import Bot, SeatView
from laizi.bots.registry import make_bot
from laizi.game.actions import Action
from laizi.game.match import Match
from laizi.views import seat_view

if TYPE_CHECKING:
    from laizi.views.project import Game

__all__ = ["SeatControl"]


class SeatControl:
    """Seat → bot mapping with an on/off auto flag per seat."""

    def __init__(self, bots: Mapping[int, str | Bot] | None = None, *, seed: int = 0,
                 default_bot: str = "strong", match: Match | None = None) -> None:
        self.seed = seed
        self.default_bot = default_bot
        self.match = match
        self.bots: dict[int, Bot] = {}
        self.auto = [False] * 4
        for seat, b in (bots or {}).items():
            self.set_auto(seat, True, b)

    def _check(self, seat: int) -> None:
        if not 0 <= seat < 4:
            raise ValueError(f"seat must be 0-3, got {seat}")

    def set_auto(self, seat: int, on: bool = True, bot: str | Bot | None = None) -> None:
        """Switch ``seat`` to a bot (``on``) or back to its player. The bot is kept, so
        switching on again resumes with the same bot unless another is given."""
        self._check(seat)
        if on:
            if isinstance(bot, Bot):
                self.bots[seat] = bot
            elif bot is not None or seat not in self.bots:
                self.bots[seat] = make_bot(bot or self.default_bot, self.seed * 4 + seat)
        self.auto[seat] = on
        if self.match is not None and not self.match.over:
            if self.match.escaped[seat] and not on:
                raise ValueError(f"seat {seat} has escaped and stays auto-played")
            self.match.set_auto(seat, on)

    def is_auto(self, seat: int) -> bool:
        self._check(seat)
        return self.auto[seat]

    def decide(self, view: SeatView) -> Action:
        """The bot's action for the seat of ``view`` (a seat's snapshot: its view only)."""
        seat = view.seat
        bot = self.bots.get(seat)
        if bot is None:
            bot = self.bots[seat] = make_bot(self.default_bot, self.seed * 4 + seat)
        if len(view.legal) == 1:
            return view.legal[0]
        return bot.act(view)

    def pending(self, to_act: Sequence[int]) -> list[int]:
        """Auto-played seats among those that must act now (``to_act``)."""
        return [s for s in to_act if self.auto[s]]

    def play_auto(self, game: Game, *, across_hands: bool = False) -> int:
        """Apply bot actions until a non-auto seat must act or the hand (with
        ``across_hands``: the match) ends; returns the number of actions applied."""
        n = 0
        start = game.hand_no
        while True:
            if isinstance(game, Match):
                if game.over or game.hand is None or game.hand.over:
                    return n
                if game.hand_no != start and not across_hands:
                    return n
                state = game.hand
            else:
                if game.over:
                    return n
                state = game
            seats = self.pending(state.to_act())
            if not seats:
                return n
            seat = seats[0]
            game.apply(seat, self.decide(seat_view(state, seat)))
            n += 1
