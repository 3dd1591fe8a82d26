"""The bot interface: a seat's view in, an action out.

A bot never touches the engine's state. It is handed a :class:`SeatView` — what one
seat may know: its own concealed tiles, the public table (melds, rivers, special and
laizi kongs, hand sizes, wall size), the indicator and laizi, and its legal actions —
and returns one of those legal actions.

:class:`SeatView` is the per-seat snapshot of :mod:`laizi.views` (re-exported here):
build it with :meth:`SeatView.from_state` (the simulator's fast path,
:func:`laizi.views.seat_view`) or :meth:`SeatView.from_json` (the JSON view of
:func:`laizi.views.view`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from mypy_extensions import mypyc_attr

from laizi.game.actions import Action
from laizi.views.snapshot import SeatView

__all__ = ["Bot", "SeatView"]


@mypyc_attr(allow_interpreted_subclasses=True)  # bots written in Python subclass it
class Bot(ABC):
    """A player: ``act(view) -> action``, one of ``view.legal``."""

    name: str = "bot"

    @abstractmethod
    def act(self, view: SeatView) -> Action:
        """Choose one of ``view.legal``."""

    def reset(self) -> None:  # noqa: B027 - optional hook
        """Called at the start of each hand."""
