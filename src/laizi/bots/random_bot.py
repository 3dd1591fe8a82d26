"""``random``: a uniformly random legal action (seeded)."""

from __future__ import annotations

import random

from laizi.bots.base import Bot, SeatView
from laizi.game.actions import Action

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"

    def act(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal)
