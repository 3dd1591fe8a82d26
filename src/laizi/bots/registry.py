"""Bots by name: ``make_bot("strong", seed=1)``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from laizi.bots.base import Bot

__all__ = ["ALL_BOT_NAMES", "BOT_NAMES", "EXPERIMENTAL_BOT_NAMES", "make_bot"]

BOT_NAMES: Final[tuple[str, ...]] = ("random", "greedy", "strong", "expert", "learned")
#: Experiments measured and left off (:mod:`laizi.bots.experimental`): for ``laizi arena``
#: and ``laizi sim``, not offered at the table.
EXPERIMENTAL_BOT_NAMES: Final[tuple[str, ...]] = ("expert-search", "expert-ready", "expert-block",
                                                   "expert-winpass")
ALL_BOT_NAMES: Final[tuple[str, ...]] = BOT_NAMES + EXPERIMENTAL_BOT_NAMES


def _factories(name: str) -> dict[str, Callable[[int | None], Bot]]:
    if name in EXPERIMENTAL_BOT_NAMES:
        from laizi.bots.experimental import experimental_factories

        return experimental_factories()
    from laizi.bots.expert import ExpertBot
    from laizi.bots.greedy import GreedyBot
    from laizi.bots.learned import LearnedBot
    from laizi.bots.random_bot import RandomBot
    from laizi.bots.strong import StrongBot

    return {"random": RandomBot, "greedy": GreedyBot, "strong": StrongBot, "expert": ExpertBot,
            "learned": LearnedBot}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot of level ``name`` (one of :data:`ALL_BOT_NAMES`)."""
    factories = _factories(name)
    try:
        factory = factories[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (choose from {', '.join(ALL_BOT_NAMES)})") from None
    return factory(seed)
