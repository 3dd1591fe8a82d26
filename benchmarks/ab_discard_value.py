#!/usr/bin/env python
"""Race other shapes of ``strong``'s discard value inside ``expert`` (issue 28, round 9).

Each variant is ``expert`` whose ``strong`` core has some :class:`~laizi.bots.strong.StrongParams`
knobs changed — above all the two round 9 added, off by default: ``advance_far_full`` (rate a
small hand two or more steps from ready by the unseen tiles that advance it, as ``strong``
already rates one step from ready) and ``other_targets`` (a discard's value counts a share of
its other targets, not its best alone). For each variant, ``laizi.arena`` plays ``--deals``
duplicate deals × 4 rotations of ``[variant, expert, expert, expert]``; the arena's margin is
the variant's points per hand over the three ``expert`` seats, with its 95 % interval over
deals. A variant with no knob changed plays exactly as ``expert`` (margin 0: a check).

    python benchmarks/ab_discard_value.py --deals 2000 --seed t9a --workers 2 \\
        --variant far=advance_far_full:60,advance_far_floor:0.6 \\
        --variant others=other_targets:0.3 --json

Deals come from the arena's seed (a string seed is a stream apart from every numeric one).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from dataclasses import fields, replace
from typing import Any

from laizi.arena import ArenaResult, DealRecord, play_deal
from laizi.bots.base import Bot
from laizi.bots.expert import ExpertBot
from laizi.bots.registry import make_bot
from laizi.bots.strong import StrongBot, StrongParams
from laizi.distributed import local_pool
from laizi.rules import RuleSet

CHUNK = 25
_KNOBS = {f.name: f for f in fields(StrongParams)}


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    """``name=knob:value,knob:value`` (``name=`` alone: ``expert`` itself)."""
    name, sep, rest = text.partition("=")
    if not sep or not name:
        raise SystemExit(f"ab_discard_value: a variant is NAME=knob:value,..., got {text!r}")
    knobs: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, sep, raw = item.partition(":")
        if not sep or key not in _KNOBS:
            raise SystemExit(f"ab_discard_value: unknown knob {key!r} "
                             f"(StrongParams: {', '.join(_KNOBS)})")
        default = getattr(StrongParams(), key)
        try:
            knobs[key] = (raw.lower() in ("1", "true", "yes") if isinstance(default, bool)
                          else type(default)(raw) if default is not None else int(raw))
        except ValueError:
            raise SystemExit(f"ab_discard_value: bad value {raw!r} for {key}") from None
    return name, knobs


def variant_bot(seed: int | None, knobs: dict[str, Any]) -> Bot:
    """``expert`` with its ``strong`` core's knobs changed."""
    bot = ExpertBot(seed)
    if knobs:
        bot.strong = StrongBot(seed, replace(bot.config.strong_params(), **knobs))
    return bot


def _work(args: tuple[str, dict[str, Any], str, int | str, list[int]]) -> list[tuple[Any, ...]]:
    name, knobs, preset, seed, deals = args

    def factory(level: str, s: int) -> Bot:
        return variant_bot(s, knobs) if level == name else make_bot(level, s)

    rules = RuleSet.preset(preset)
    lineup = [name, "expert", "expert", "expert"]
    return [play_deal(rules, lineup, seed, d, bot_factory=factory).to_tuple() for d in deals]


def race(name: str, knobs: dict[str, Any], *, deals: int, seed: int | str, preset: str,
         workers: int) -> dict[str, Any]:
    """One variant's arena against three ``expert``: its result as JSON."""
    lineup = [name, "expert", "expert", "expert"]
    result = ArenaResult(preset=preset, lineup=lineup, seed=seed, workers=workers,
                         backend="local")
    jobs = [(name, knobs, preset, seed, list(range(i, min(deals, i + CHUNK))))
            for i in range(0, deals, CHUNK)]
    t0 = time.perf_counter()
    with contextlib.ExitStack() as stack:
        stream = (map(_work, jobs) if workers <= 1
                  else stack.enter_context(local_pool(workers)).imap(_work, jobs))
        for tuples in stream:
            result.records.extend(DealRecord(*t) for t in tuples)
    result.seconds = time.perf_counter() - t0
    out = result.to_json(timing=False)
    margin = out["margins"][0]
    return {"variant": name, "knobs": knobs, "preset": preset, "seed": seed, "deals": deals,
            "margin": round(margin["mean"], 3),
            "ci95": [round(x, 3) for x in margin["ci95"]],
            "seconds": round(result.seconds, 1), "zero_sum": out["zero_sum"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", action="append", required=True,
                    help="NAME=knob:value,... (StrongParams knobs; repeat for more)")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", default="t9a", help="the arena seed (digits: a number)")
    ap.add_argument("--preset", default="kaikoufan")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", action="store_true", help="one JSON line per variant")
    args = ap.parse_args(argv)
    if args.deals < 1:
        raise SystemExit("ab_discard_value: --deals must be at least 1")
    seed: int | str = int(args.seed) if args.seed.isdigit() else args.seed
    for text in args.variant:
        name, knobs = parse_variant(text)
        row = race(name, knobs, deals=args.deals, seed=seed, preset=args.preset,
                   workers=args.workers)
        row["command"] = " ".join(["python", "benchmarks/ab_discard_value.py", *sys.argv[1:]])
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            lo, hi = row["ci95"]
            print(f"{name:12s} {row['margin']:+7.2f} [{lo:+.2f}, {hi:+.2f}] points/hand over "
                  f"expert, {row['deals']} deals, {row['seconds']} s  {knobs}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
