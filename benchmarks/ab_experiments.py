"""The experiments as main's ``ExpertConfig`` options (before issue 22) and as
``laizi.bots.experimental`` (after): every action and payment of a few hands, printed as
JSON — run it with each tree on ``PYTHONPATH`` and compare the two outputs.

    PYTHONPATH=/work/main/src .venv/bin/python benchmarks/ab_experiments.py > a.json
    PYTHONPATH=src .venv/bin/python benchmarks/ab_experiments.py > b.json; cmp a.json b.json
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from laizi.bots import Bot, SeatView
from laizi.bots.registry import make_bot
from laizi.game import HandState
from laizi.rules import RuleSet

VARIANTS: dict[str, dict[str, Any]] = {
    "search": {"search": "open", "worlds": 4, "max_candidates": 3},
    "ready": {"ready_rule": True},
    "block": {"fold_shanten": 3},
    "q_late": {"q_late": 0.3},
    "kong_always": {"kong_always": True},
    "claims": {"unopened_discount": 0.3, "claim_min_gain": 1.05},
}
LINEUP = ("x", "strong", "greedy", "strong")  # x: the expert with the variant


def _maker(variant: str) -> Callable[[int], Bot]:
    kw = VARIANTS[variant]
    try:  # after: laizi.bots.experimental
        from laizi.bots.experimental.claims import RuleParams
        from laizi.bots.experimental.expert import (
            ExperimentalExpert,
            Experiments,
        )
        from laizi.bots.experimental.search import SearchConfig
    except ImportError:  # before: options of ExpertConfig
        from laizi.bots.expert import ExpertBot, ExpertConfig

        def before(seed: int) -> Bot:
            return ExpertBot(seed, ExpertConfig(**kw))
        return before
    ex: dict[str, Any] = dict(kw)
    if "search" in kw:
        ex = {"search": SearchConfig(**kw)}
    elif "unopened_discount" in kw:
        ex = {"claims": RuleParams(unopened_discount=kw["unopened_discount"],
                                   min_gain=kw["claim_min_gain"])}

    def after(seed: int) -> Bot:
        return ExperimentalExpert(seed, experiments=Experiments(**ex))
    return after


def play(variant: str, hands: int) -> list[Any]:
    """Each hand's actions and payments with the variant at seat 0."""
    make = _maker(variant)
    rules = RuleSet.preset("kaikoufan")
    log: list[Any] = []
    for h in range(hands):
        st = HandState.new(rules, h % 4, seed=bytes([h + 1]) * 32)
        bots = [make(h * 4) if n == "x" else make_bot(n, h * 4 + i) for i, n in enumerate(LINEUP)]
        acts: list[str] = []
        while not st.over:
            for seat in st.to_act():
                a = bots[seat].act(SeatView.from_state(st, seat, st.legal_actions(seat)))
                acts.append(str(a))
                st.apply(seat, a)
                if st.over:
                    break
        log.append([acts, list(st.payments or [])])
    return log


def main() -> int:
    out = {v: play(v, 3 if v == "search" else 16) for v in VARIANTS}
    print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
