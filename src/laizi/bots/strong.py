"""``strong``: placeholder (being written)."""

from __future__ import annotations

from laizi.bots.greedy import GreedyBot

__all__ = ["StrongBot"]


class StrongBot(GreedyBot):
    name = "strong"
