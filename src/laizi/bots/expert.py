"""The ``expert`` bot: ``strong``'s valuation with better discard choices.

**Policy** (what ``laizi arena`` measures; cheap — decisions of milliseconds):

- every win on offer is taken; forced moves cost nothing;
- discards: ``strong`` values each discard by the best target it keeps (the small
  hand, or a big hand: 碰碰胡, 清一色, 将一色 …) and breaks ties between discards of
  equal value by the discarded tile's connectivity alone. Those ties are frequent —
  whenever a big-hand target sets the value, every discard that keeps it is worth
  the same whatever it does to the small hand. The expert chooses among those ties
  and near-ties (within ``acceptance_tolerance``, 5 %, of the best value) by **tile
  acceptance** instead (:func:`laizi.bots.expert_rules.acceptance_choice`): the one
  that leaves the small hand closest to ready with a 2/5/8 pair, then the most
  unseen tiles improving it — it keeps both roads to a win open;
- claims, kongs, laizi and special tiles as ``strong``, with the core's knobs of
  :class:`ExpertConfig` (re-tuned against ``strong`` itself).

Its settings are a frozen :class:`ExpertConfig`; nothing changes per decision. The
options measured and left off (Monte Carlo search, exact pricing of ready hands, a
block mode, a claim rule of its own, a wall-dependent ``q``, always declaring kongs)
live in :mod:`laizi.bots.experimental`, each under its own registry name.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from laizi.bots import tuning as T
from laizi.bots.base import Bot, SeatView
from laizi.bots.expert_rules import acceptance_choice
from laizi.bots.strong import StrongBot, StrongParams
from laizi.bots.worlds import sample_world
from laizi.game.actions import Action
from laizi.game.state import HandState

__all__ = ["ExpertBot", "ExpertConfig"]


@dataclass(frozen=True, slots=True)
class ExpertConfig:
    """The expert's settings (its default policy, measured in ``laizi arena``)."""

    # The ``strong`` core the expert plays with (its knobs, re-tuned against ``strong``
    # itself in the arena; ``strong``'s own defaults were tuned against ``greedy``).
    q: float = T.Q  # value kept per step of distance (regular hands)
    q_big: float = T.Q  # … for big-hand targets
    keep_two_for_big: bool = True  # keep a second laizi while a big hand is close
    ready_defence: float = T.READY_DEFENCE  # weight of the "looks ready" penalty
    kong_max_distance: int = 99  # kongs only this close to a win
    #: Break ``strong``'s ties between discards by tile acceptance (unseen improving
    #: tiles) instead of connectivity (:func:`laizi.bots.expert_rules.acceptance_choice`).
    acceptance: bool = True
    acceptance_tolerance: float = 0.05  # … among discards valued within this share of the best

    def strong_params(self, q: float | None = None) -> StrongParams:
        """The ``strong`` core's knobs (``q``: another ``q`` than this config's)."""
        return StrongParams(q=self.q if q is None else q, q_big=self.q_big,
                            keep_two_for_big=self.keep_two_for_big,
                            ready_defence=self.ready_defence,
                            kong_max_distance=self.kong_max_distance)

    def core(self, seed: int | None) -> StrongBot:
        """The ``strong`` bot with these knobs."""
        return StrongBot(seed, self.strong_params())


WIN_TYPES = ("tsumo", "ron")


class ExpertBot(Bot):
    """``strong`` with discards broken by tile acceptance (see the module docstring)."""

    name = "expert"

    def __init__(self, seed: int | None = None, config: ExpertConfig | None = None) -> None:
        self.seed = 0 if seed is None else seed
        self.config = config or ExpertConfig()
        self.strong = self.config.core(seed)

    def __repr__(self) -> str:
        return f"ExpertBot(seed={self.seed})"

    def act(self, view: SeatView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        for a in legal:
            if a.type in WIN_TYPES:
                return a
        return self.decide(view, self.strong)

    def decide(self, view: SeatView, strong: StrongBot) -> Action:
        """The default policy's choice (no win on offer): ``strong``'s, its discard ties
        broken by tile acceptance."""
        default = strong.act(view)
        if (view.phase == "turn" and default.type == "discard" and self.config.acceptance):
            default = acceptance_choice(strong, view, default, self.config.acceptance_tolerance)
        return default

    def _sample(self, view: SeatView, rng: random.Random) -> HandState | None:
        """A world consistent with the view (:func:`laizi.bots.worlds.sample_world`); kept
        under this name for ``scripts/train_policy.py``, which samples through the expert."""
        return sample_world(view, rng)
