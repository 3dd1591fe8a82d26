"""``expert`` with the switched-off experiments, each a field of :class:`Experiments`.

:class:`ExperimentalExpert` plays ``expert``'s policy and adds, where its
:class:`Experiments` ask for them: the block mode for hopeless hands
(:mod:`~laizi.bots.experimental.block`), passing a small win for a bigger one
(:mod:`~laizi.bots.experimental.winpass`), always declaring kongs, a wall-dependent
``q``, the claim rule with its own numbers (:mod:`~laizi.bots.experimental.claims`),
exact pricing of ready hands (:mod:`~laizi.bots.experimental.ready`) and the Monte
Carlo search (:mod:`~laizi.bots.experimental.search`). With every field at its
default it plays exactly as ``expert``.

Settings are frozen: a wall-dependent ``q`` builds the ``strong`` core of that
decision afresh instead of changing the bot's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from laizi.bots.base import SeatView
from laizi.bots.experimental.block import block_action, hopeless
from laizi.bots.experimental.claims import RuleParams, claim_choice
from laizi.bots.experimental.ready import ready_choice
from laizi.bots.experimental.search import Search, SearchConfig
from laizi.bots.experimental.winpass import WinPass, passes
from laizi.bots.expert import WIN_TYPES, ExpertBot, ExpertConfig
from laizi.bots.strong import StrongBot
from laizi.game.actions import PASS, Action

__all__ = ["ExperimentalExpert", "Experiments"]

#: The wall after a deal (136 − 53 dealt − the indicator).
FULL_WALL = 82.0


@dataclass(frozen=True, slots=True)
class Experiments:
    """The experiments (all off by default; each measured and left off)."""

    #: The Monte Carlo search (None: no search).
    search: SearchConfig | None = None
    #: Price the discards that leave the hand ready exactly and keep the best priced
    #: when ``expert`` goes ready; ``ready_margin`` / ``ready_loss``: see
    #: :func:`~laizi.bots.experimental.ready.ready_choice`.
    ready_rule: bool = False
    ready_margin: float = 0.0
    ready_loss: float = 0.0
    #: An unopened hand this far from ready (2/5/8-pair shanten) blocks instead of
    #: playing to win. None: never.
    fold_shanten: int | None = None
    #: Declare every concealed/added kong and claim every exposed kong on offer.
    kong_always: bool = False
    #: ``q`` late in the hand (the wall at ``late_wall`` or less), moving linearly from
    #: the config's ``q`` (a full wall). None: the config's ``q``.
    q_late: float | None = None
    late_wall: int = 20
    #: The claim rule with its own numbers (None: ``strong``'s).
    claims: RuleParams | None = field(default=None)
    #: Pass a win on a discard when waiting looks worth more
    #: (:mod:`~laizi.bots.experimental.winpass`; None: every win is taken).
    win_pass: WinPass | None = None


class ExperimentalExpert(ExpertBot):
    """``expert`` plus the experiments of its :class:`Experiments`."""

    name = "expert-experimental"

    def __init__(self, seed: int | None = None, config: ExpertConfig | None = None,
                 experiments: Experiments | None = None) -> None:
        super().__init__(seed, config)
        self.experiments = experiments or Experiments()
        ex = self.experiments
        self.search = (None if ex.search is None
                       else Search(self.seed, ex.search, self.strong))
        self._claims: RuleParams | None = ex.claims
        self.wins_passed = 0  # (statistics: wins on offer passed by ``win_pass``)

    def __repr__(self) -> str:
        return f"ExperimentalExpert(seed={self.seed}, experiments={self.experiments!r})"

    @property
    def searches(self) -> int:
        """Decisions that ran a search (statistics)."""
        return 0 if self.search is None else self.search.searches

    def evaluate(self, view: SeatView, cands: Sequence[Action]) -> list[float]:
        """Mean settlement points of each candidate over the sampled worlds."""
        search = self.search or Search(self.seed, SearchConfig(), self.strong)
        per_world = search.playouts(view, cands)
        n = max(1, len(per_world))
        return [sum(w[i] for w in per_world) / n for i in range(len(cands))]

    def act(self, view: SeatView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        ex = self.experiments
        if (ex.win_pass is not None and view.phase == "claim" and PASS in legal
                and any(a.type == "ron" for a in legal) and passes(view, ex.win_pass)):
            self.wins_passed += 1
            return PASS
        for a in legal:
            if a.type in WIN_TYPES:
                return a
        if ex.fold_shanten is not None and hopeless(view, ex.fold_shanten):
            return block_action(self.strong, view)
        if ex.kong_always:
            for a in legal:
                if a.type in ("ankong", "addkong", "kong"):
                    return a
        strong = self.strong if ex.q_late is None else self.core_at(view.wall_remaining)
        if view.phase == "claim" and self._claims is not None:
            default = claim_choice(strong, view, self._claims)
        else:
            default = self.decide(view, strong)
        if view.phase not in ("turn", "claim"):
            return default
        if view.phase == "turn" and default.type == "discard" and ex.ready_rule:
            default = ready_choice(view, default, margin=ex.ready_margin, loss=ex.ready_loss)
        if self.search is None or not self.search.wants(view):
            return default
        return self.search.choose(view, default)

    def core_at(self, wall: int) -> StrongBot:
        """The ``strong`` core with the wall-dependent ``q`` of this wall size."""
        ex = self.experiments
        assert ex.q_late is not None
        q = self.config.q
        f = max(0.0, min(1.0, (wall - ex.late_wall) / (FULL_WALL - ex.late_wall)))
        return StrongBot(self.seed, self.config.strong_params(q=ex.q_late + f * (q - ex.q_late)))


def expert_search(seed: int | None = None) -> ExperimentalExpert:
    """``expert-search``: the Monte Carlo search of claims and kong turns."""
    return ExperimentalExpert(seed, experiments=Experiments(search=SearchConfig(search="open")))


def expert_ready(seed: int | None = None) -> ExperimentalExpert:
    """``expert-ready``: ready hands priced exactly by the scorer."""
    return ExperimentalExpert(seed, experiments=Experiments(ready_rule=True))


def expert_winpass(seed: int | None = None) -> ExperimentalExpert:
    """``expert-winpass``: a win on a discard passed when waiting prices higher, hoping
    (no loss counted for passing; the best of the rules raced, docs/learned.md)."""
    return ExperimentalExpert(seed, experiments=Experiments(
        win_pass=WinPass(ratio=1.0, min_wall=0, big_only=False, loss=0.0)))


def expert_block(seed: int | None = None) -> ExperimentalExpert:
    """``expert-block``: unopened hands four or more steps from ready block."""
    return ExperimentalExpert(seed, experiments=Experiments(fold_shanten=4))
