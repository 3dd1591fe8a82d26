"""Experiments measured and left off, kept runnable under their own registry names.

None of them beat ``expert`` on the tuning seeds (README, "Duplicate evaluation"); the
production bots (``random``, ``greedy``, ``strong``, ``expert``, ``learned``) do not
import this package. Each is a field of :class:`~laizi.bots.experimental.expert.Experiments`
on :class:`~laizi.bots.experimental.expert.ExperimentalExpert`; four have a name for
``laizi arena`` / ``laizi sim`` (:data:`EXPERIMENTAL_BOTS`):

- ``expert-search`` — determinized Monte Carlo search of claims and kong turns
  (:mod:`~laizi.bots.experimental.search`);
- ``expert-ready`` — ready hands priced exactly by the scorer
  (:mod:`~laizi.bots.experimental.ready`);
- ``expert-block`` — a block mode for hopeless unopened hands
  (:mod:`~laizi.bots.experimental.block`);
- ``expert-winpass`` — a small win on a discard passed for a bigger one
  (:mod:`~laizi.bots.experimental.winpass`).

Also as fields: a claim rule with its own numbers (:mod:`~laizi.bots.experimental.claims`),
a wall-dependent ``q`` and always declaring kongs. And ``learned`` with the win-pass rule
(:mod:`~laizi.bots.experimental.learned_winpass`, raced by ``benchmarks/ab_winpass.py
--baseline learned``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from laizi.bots.base import Bot

__all__ = ["EXPERIMENTAL_BOTS", "experimental_factories"]

EXPERIMENTAL_BOTS: Final[tuple[str, ...]] = ("expert-search", "expert-ready", "expert-block",
                                              "expert-winpass")


def experimental_factories() -> dict[str, Callable[[int | None], Bot]]:
    """The experimental bots by registry name (imported on demand)."""
    from laizi.bots.experimental.expert import (
        expert_block,
        expert_ready,
        expert_search,
        expert_winpass,
    )

    return {"expert-search": expert_search, "expert-ready": expert_ready,
            "expert-block": expert_block, "expert-winpass": expert_winpass}
