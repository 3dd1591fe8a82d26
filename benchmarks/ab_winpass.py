#!/usr/bin/env python
"""Race rules for passing a small win on a discard (``laizi.bots.experimental.winpass``,
issue 28) against ``expert`` — or against ``learned`` — on the same duplicate deals.

For each rule, ``laizi.arena`` plays ``--deals`` deals × 4 rotations of the line-up
``[rule, expert, expert, expert]`` (the rule's seat an
:class:`~laizi.bots.experimental.expert.ExperimentalExpert` with ``win_pass``) and of
``[expert] × 4`` with the same seed, so every bot is seeded alike and a deal on which the
rule never passes plays out exactly as the baseline's. Reported per rule: the wins passed,
the deals on which it passed, the deals changed (and, as a check, how many deals without a
pass changed: it must be 0), and the paired margin (the rule's place over the other three,
less the baseline's place 0 over the other three) with its 95 % interval over deals.

With ``--baseline learned`` (stop 59) the baseline line-up is ``[learned, expert, expert,
expert]`` and the rule's seat is ``learned`` with the rule asked first
(:class:`laizi.bots.experimental.learned_winpass.WinPassLearned`); with
``--vs-expert`` it also plays ``[expert] × 4`` on the same deals and reports ``learned``
and ``learned`` with each rule against ``expert`` (as ``laizi arena --bots
learned,expert,expert,expert`` counts it).

    python benchmarks/ab_winpass.py --deals 1000 --seed 2900 \\
        --rule ratio=1.5,min_wall=20 --rule ratio=1.0,min_wall=10,big_only=0 --json
    python benchmarks/ab_winpass.py --baseline learned --vs-expert --deals 8000 \\
        --seed 2910 --rule ratio=1.0,big_only=0,min_wall=0,loss=0
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
from laizi.bots.experimental.learned_winpass import WinPassLearned
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


def _census(view: Any) -> None:
    if view.phase == "claim" and view.pending is not None and any(
            x.type == "ron" for x in view.legal):
        # (the census: every win on offer, priced with no loss for passing — the most
        # hopeful reading of passing)
        price = pass_price(view, view.pending, view.turn, 0.0)
        if price is not None:
            _CENSUS.append((view.wall_remaining, price.now, price.later, price.big_live,
                            hand_outlook(view, list(view.hand)).win_prob))


class _Counting:
    """Adds the census and the count of wins passed to a bot with ``wins_passed``."""

    wins_passed: int

    def act(self, view: Any) -> Any:
        _census(view)
        before = self.wins_passed
        out = super().act(view)  # type: ignore[misc]
        _PASSED[0] += self.wins_passed - before
        return out


class _Counted(_Counting, ExperimentalExpert):
    pass


class _CountedLearned(_Counting, WinPassLearned):
    pass


def margins(records: list[Any]) -> dict[int, float]:
    out = {}
    for rec in records:
        rot = [p[0] - (p[1] + p[2] + p[3]) / 3 for p in rec.payments]
        out[rec.deal] = sum(rot) / len(rot)
    return out


def run(deals: int, seed: str, preset: str, rule: WinPass | None, baseline: str = "expert",
        progress: int = 0, label: str = "") -> tuple[dict[int, float], dict[int, int]]:
    """Per deal: the margin of place 0 and the wins it passed. ``baseline`` plays place 0
    when ``rule`` is None, and carries the rule otherwise."""

    def factory(name: str, seed: int | None = None) -> Any:
        if name == "winpass" and rule is not None:
            if baseline == "learned":
                return _CountedLearned(seed, win_pass=rule)
            return _Counted(seed, experiments=Experiments(win_pass=rule))
        return make_bot(name, seed)

    lineup = ["winpass" if rule is not None else baseline, "expert", "expert", "expert"]
    rules = RuleSet.preset(preset)
    recs = []
    passed: dict[int, int] = {}
    t0 = time.perf_counter()
    for d in range(deals):
        before = _PASSED[0]
        recs.append(play_deal(rules, lineup, seed, d, bot_factory=factory))
        passed[d] = _PASSED[0] - before
        if progress and (d + 1) % progress == 0:
            print(f"[{label or lineup[0]}] {d + 1}/{deals} deals, "
                  f"{time.perf_counter() - t0:.0f} s, passed {sum(passed.values())}",
                  file=sys.stderr, flush=True)
    return margins(recs), passed


def paired(got: dict[int, float], base: dict[int, float]) -> dict[str, Any]:
    """The paired margin ``got − base`` over the deals, with its 95 % interval."""
    diffs = [got[d] - base[d] for d in sorted(base)]
    mean = statistics.fmean(diffs)
    half = Z95 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return {"margin": round(mean, 3), "ci95": [round(mean - half, 3), round(mean + half, 3)],
            "deals_changed": sum(1 for x in diffs if abs(x) > 1e-9)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--seed", default="2900")
    ap.add_argument("--preset", default="kaikoufan")
    ap.add_argument("--rule", action="append", default=[], help="key=value,… (WinPass fields)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--baseline", choices=("expert", "learned"), default="expert",
                    help="the bot at place 0 of the baseline, and the one given the rule")
    ap.add_argument("--vs-expert", action="store_true",
                    help="with --baseline learned: also play [expert] × 4 on the same deals")
    ap.add_argument("--progress", type=int, default=0, metavar="N",
                    help="a line on stderr every N deals")
    a = ap.parse_args(argv)
    if a.deals < 2 or not a.rule:
        ap.error("--deals ≥ 2 and at least one --rule")
    t0 = time.perf_counter()
    base, _ = run(a.deals, a.seed, a.preset, None, a.baseline, a.progress)
    print(json.dumps({"baseline": a.baseline, "deals": len(base), "seed": a.seed,
                      "seconds": round(time.perf_counter() - t0, 1)}), flush=True)
    experts: dict[int, float] | None = None
    if a.vs_expert and a.baseline != "expert":
        t0 = time.perf_counter()
        experts, _ = run(a.deals, a.seed, a.preset, None, "expert", a.progress)
        vs = paired(base, experts)
        print(json.dumps({"bot": a.baseline, "margin_vs_expert": vs["margin"],
                          "ci95": vs["ci95"], "deals_changed": vs["deals_changed"],
                          "seconds": round(time.perf_counter() - t0, 1)}), flush=True)
    for text in a.rule:
        rule = parse_rule(text)
        _PASSED[0] = 0
        _CENSUS.clear()
        t0 = time.perf_counter()
        got, passed = run(a.deals, a.seed, a.preset, rule, a.baseline, a.progress, text)
        res = paired(got, base)
        quiet = [d for d in base if passed[d] == 0]
        out = {"rule": text, "baseline": a.baseline, "passed": _PASSED[0],
               "deals_with_pass": len(base) - len(quiet),
               "deals_changed": res["deals_changed"],
               "deals_changed_without_pass": sum(1 for d in quiet if abs(got[d] - base[d]) > 1e-9),
               f"margin_vs_{a.baseline}": res["margin"], "ci95": res["ci95"]}
        if experts is not None:
            vs = paired(got, experts)
            out["margin_vs_expert"] = vs["margin"]
            out["ci95_vs_expert"] = vs["ci95"]
        out["seconds"] = round(time.perf_counter() - t0, 1)
        print(json.dumps(out), flush=True)
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
