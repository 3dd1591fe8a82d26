"""Bots by name: ``make_bot("strong", seed=1)``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from laizi.bots.base import Bot

__all__ = ["BOT_NAMES", "make_bot"]

BOT_NAMES: Final[tuple[str, ...]] = ("random", "greedy", "strong", "expert", "learned")


def _factories() -> dict[str, Callable[[int | None], Bot]]:
    from laizi.bots.expert import ExpertBot
    from laizi.bots.greedy import GreedyBot
    from laizi.bots.learned import LearnedBot
    from laizi.bots.random_bot import RandomBot
    from laizi.bots.strong import StrongBot

    return {"random": RandomBot, "greedy": GreedyBot, "strong": StrongBot, "expert": ExpertBot,
            "learned": LearnedBot}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot of level ``name`` (one of :data:`BOT_NAMES`)."""
    factories = _factories()
    try:
        factory = factories[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (choose from {', '.join(BOT_NAMES)})") from None
    return factory(seed)
