#!/usr/bin/env python
"""Race rules for passing a small win on a discard (``laizi.bots.experimental.winpass``,
issue 28) against ``expert`` on the same duplicate deals.

For each rule, ``laizi.arena`` plays ``--deals`` deals × 4 rotations of the line-up
``[rule, expert, expert, expert]`` (the rule's seat an
:class:`~laizi.bots.experimental.expert.ExperimentalExpert` with ``win_pass``) and of ``[expert] × 4`` with the same seed, so every
bot is seeded alike and a deal on which the rule never passes plays out exactly as the
baseline's. Reported per rule: the wins passed, the deals changed, and the paired margin
(the rule's place over the other three, less the baseline's place 0 over the other three)
with its 95 % interval over deals.

    python benchmarks/ab_winpass.py --deals 1000 --seed 2900 \\
        --rule ratio=1.5,min_wall=20 --rule ratio=1.0,min_wall=10,big_only=0 --json
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from typing import Any

from laizi.arena import play_deal
from laizi.bots.experimental.expert import ExperimentalExpert, Experiments
from laizi.bots.experimental.winpass import WinPass, pass_price
from laizi.bots.outlook import hand_outlook
from laizi.bots.registry import make_bot
from laizi.rules import RuleSet

Z95 = 1.959963984540054
_PASSED = [0]


def parse_rule(text: str) -> WinPass:
    fields: dict[str, Any] = {}
    for part in filter(None, text.split(",")):
        key, _, raw = part.partition("=")
        if key in ("ratio", "loss"):
            fields[key] = float(raw)
        elif key == "min_wall":
            fields[key] = int(raw)
        elif key == "big_only":
            fields[key] = raw not in ("0", "false", "no")
        else:
            raise SystemExit(f"ab_winpass: unknown rule field {key!r}")
    return WinPass(**fields)


_CENSUS: list[tuple[int, float, float, int, float]] = []


class _Counted(ExperimentalExpert):
    def act(self, view: Any) -> Any:
        if view.phase == "claim" and view.pending is not None and any(
                x.type == "ron" for x in view.legal):
            # (the census: every win on offer, priced with no loss for passing — the most
            # hopeful reading of passing)
            price = pass_price(view, view.pending, view.turn, 0.0)
            if price is not None:
                _CENSUS.append((view.wall_remaining, price.now, price.later, price.big_live,
                                hand_outlook(view, list(view.hand)).win_prob))
        before = self.wins_passed
        out = super().act(view)
        _PASSED[0] += self.wins_passed - before
        return out


def margins(records: list[Any]) -> dict[int, float]:
    out = {}
    for rec in records:
        rot = [p[0] - (p[1] + p[2] + p[3]) / 3 for p in rec.payments]
        out[rec.deal] = sum(rot) / len(rot)
    return out


def run(deals: int, seed: str, preset: str, rule: WinPass | None) -> dict[int, float]:
    def factory(name: str, seed: int | None = None) -> Any:
        if name == "winpass" and rule is not None:
            return _Counted(seed, experiments=Experiments(win_pass=rule))
        return make_bot(name, seed)

    lineup = ["winpass" if rule is not None else "expert", "expert", "expert", "expert"]
    rules = RuleSet.preset(preset)
    return margins([play_deal(rules, lineup, seed, d, bot_factory=factory) for d in range(deals)])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--seed", default="2900")
    ap.add_argument("--preset", default="kaikoufan")
    ap.add_argument("--rule", action="append", default=[], help="key=value,… (WinPass fields)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if a.deals < 2 or not a.rule:
        ap.error("--deals ≥ 2 and at least one --rule")
    t0 = time.perf_counter()
    base = run(a.deals, a.seed, a.preset, None)
    print(json.dumps({"baseline": "expert", "deals": len(base), "seed": a.seed,
                      "seconds": round(time.perf_counter() - t0, 1)}), flush=True)
    for text in a.rule:
        rule = parse_rule(text)
        _PASSED[0] = 0
        _CENSUS.clear()
        t0 = time.perf_counter()
        got = run(a.deals, a.seed, a.preset, rule)
        diffs = [got[d] - base[d] for d in sorted(base)]
        mean = statistics.fmean(diffs)
        half = Z95 * statistics.stdev(diffs) / math.sqrt(len(diffs))
        print(json.dumps({"rule": text, "passed": _PASSED[0],
                          "deals_changed": sum(1 for x in diffs if abs(x) > 1e-9),
                          "margin_vs_expert": round(mean, 3),
                          "ci95": [round(mean - half, 3), round(mean + half, 3)],
                          "seconds": round(time.perf_counter() - t0, 1)}), flush=True)
        if _CENSUS:  # the wins offered to the rule's seat, priced (passing costs nothing)
            ratios = sorted(later / now for _, now, later, _, _ in _CENSUS if now > 0)
            big = [later / now for _, now, later, b, _ in _CENSUS if b and now > 0]
            print(json.dumps({"rule": text, "census_wins_offered": len(_CENSUS),
                              "later_over_now_max": round(ratios[-1], 3),
                              "later_over_now_p50": round(ratios[len(ratios) // 2], 3),
                              "later_over_now_p90": round(ratios[int(len(ratios) * 0.9)], 3),
                              "share_later_above_now": round(sum(r > 1 for r in ratios) / len(ratios), 4),
                              "with_big_wait": len(big),
                              "with_big_wait_max": round(max(big), 3) if big else None}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
