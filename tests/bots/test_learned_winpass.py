"""``learned`` with the win-pass rule (stop 59, :mod:`laizi.bots.experimental.learned_winpass`,
the rule of :mod:`laizi.bots.experimental.winpass`): without a rule, or with one that never
passes, it plays exactly as ``learned``; an eager rule passes wins on a discard and the hands
stay zero-sum."""

from __future__ import annotations

from typing import Any

from laizi.arena import play_deal
from laizi.bots import make_bot
from laizi.bots.experimental.learned_winpass import NARROW, WinPassLearned
from laizi.bots.experimental.winpass import WinPass
from laizi.rules import RuleSet

RULES = RuleSet.preset("kaikoufan")
DEALS = range(8)
LINEUP = ["rule", "expert", "expert", "expert"]


def _play(rule: WinPass | None) -> tuple[list[Any], list[WinPassLearned]]:
    made: list[WinPassLearned] = []

    def factory(name: str, seed: int | None = None) -> Any:
        if name == "rule":
            bot = WinPassLearned(seed, win_pass=rule)
            made.append(bot)
            return bot
        return make_bot(name, seed)

    return [play_deal(RULES, LINEUP, "learned-winpass", d, bot_factory=factory)
            for d in DEALS], made


def _learned() -> list[Any]:
    return [play_deal(RULES, ["learned", "expert", "expert", "expert"], "learned-winpass", d)
            for d in DEALS]


def test_the_narrow_rule_is_the_one_raced() -> None:
    assert WinPassLearned(3).win_pass == NARROW == WinPass(ratio=1.0, min_wall=0, big_only=False, loss=0.0)


def test_no_rule_or_a_rule_that_never_passes_plays_as_learned() -> None:
    base = _learned()
    off, made_off = _play(None)
    assert [r.payments for r in off] == [r.payments for r in base]
    never, made = _play(WinPass(ratio=1e9, min_wall=0, big_only=False, loss=0.0))
    assert [r.payments for r in never] == [r.payments for r in base]
    assert sum(b.wins_passed for b in made + made_off) == 0


def test_an_eager_rule_passes_and_stays_zero_sum() -> None:
    eager, made = _play(WinPass(ratio=0.0, min_wall=0, big_only=False, loss=0.0))
    assert sum(b.wins_passed for b in made) > 0
    for r in eager:
        for pays in r.payments:
            assert abs(sum(pays)) < 1e-9
