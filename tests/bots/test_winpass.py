"""The win-passing experiment (laizi.bots.experimental.winpass): off, it plays exactly as
``expert``; on, it passes wins on offer and never one it cannot price."""

from __future__ import annotations

from typing import Any

from laizi.arena import play_deal
from laizi.bots import make_bot
from laizi.bots.experimental.expert import ExperimentalExpert, Experiments
from laizi.bots.experimental.winpass import WinPass
from laizi.rules import RuleSet

RULES = RuleSet.preset("kaikoufan")
DEALS = range(10)


def _play(rule: WinPass | None) -> tuple[list[Any], list[ExperimentalExpert]]:
    made: list[ExperimentalExpert] = []

    def factory(name: str, seed: int | None = None) -> Any:
        if name == "rule":
            bot = ExperimentalExpert(seed, experiments=Experiments(win_pass=rule))
            made.append(bot)
            return bot
        return make_bot(name, seed)

    recs = [play_deal(RULES, ["rule", "expert", "expert", "expert"], "winpass", d,
                      bot_factory=factory) for d in DEALS]
    return recs, made


def test_a_rule_that_never_passes_plays_as_expert() -> None:
    base = [play_deal(RULES, ["expert"] * 4, "winpass", d) for d in DEALS]
    never, made = _play(WinPass(ratio=1e9, big_only=False, min_wall=0))
    assert [r.payments for r in never] == [r.payments for r in base]
    assert sum(b.wins_passed for b in made) == 0


def test_an_eager_rule_passes_wins_on_a_discard_only() -> None:
    base = [play_deal(RULES, ["expert"] * 4, "winpass", d) for d in DEALS]
    eager, made = _play(WinPass(ratio=0.0, big_only=False, min_wall=0, loss=0.0))
    passed = sum(b.wins_passed for b in made)
    assert passed > 0
    # the rule's place (0) wins on a discard less often than expert in its place
    ron = sum(1 for r in eager for w, by in zip(r.winner, r.by, strict=True) if w == 0 and by == "discard")
    ron_base = sum(1 for r in base for w, by in zip(r.winner, r.by, strict=True)
                   if w == 0 and by == "discard")
    assert ron < ron_base
    for r in eager:  # zero-sum, whatever it passed
        for pays in r.payments:
            assert abs(sum(pays)) < 1e-9
