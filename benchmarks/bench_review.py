"""Calibrate the 复盘 (``laizi review``): its mean loss per decision for each bot level.

Run: ``.venv/bin/python benchmarks/bench_review.py [--hands 24] [--seed 7] [--out FILE]``

Simulates ``--hands`` stand-alone hands (kaikoufan, :func:`laizi.sim.simulate`, logs
kept) for each of the four seatings of ``random, greedy, strong, expert`` (each bot sits
at every seat once, and the dealer turns with the hand number), reviews every log for all
four seats (:func:`laizi.review.review_events`) and pools, per bot, its decisions: the
mean loss per decision (expected points, the hints' valuation), the accuracy, the share
agreeing with ``expert``, and the review's speed. The review must order the bots
``random > greedy > strong > expert`` and find ``expert``'s own loss near zero (the
tests check both on a small log: ``tests/test_review.py``).

Figures: ``benchmarks/results/review_calibration.json`` and ``.txt`` (docs/review.md).
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path
from typing import Any

from laizi.game.replay import parse_log
from laizi.review import ACCURATE_WITHIN, review_events
from laizi.sim import simulate

BOTS = ("random", "greedy", "strong", "expert")
RESULTS = Path(__file__).resolve().parent / "results"


def calibrate(hands: int, seed: int) -> dict[str, Any]:
    pooled: dict[str, dict[str, float]] = {
        b: {"decisions": 0, "rated": 0, "loss": 0.0, "accurate": 0, "agree": 0} for b in BOTS}
    sim_s = review_s = 0.0
    total_decisions = 0
    for shift in range(4):
        names = [BOTS[(s + shift) % 4] for s in range(4)]
        lines: list[str] = []
        t0 = time.perf_counter()
        simulate(hands, bots=names, seed=f"{seed}-{shift}", log_lines=lines, count_refusals=False)
        t1 = time.perf_counter()
        games = review_events(parse_log("\n".join(lines)))
        t2 = time.perf_counter()
        sim_s += t1 - t0
        review_s += t2 - t1
        for g in games:
            for s, r in g.seats.items():
                p = pooled[names[s]]
                p["decisions"] += len(r.decisions)
                total_decisions += len(r.decisions)
                for d in r.decisions:
                    p["agree"] += d.agrees
                    if d.loss is not None:
                        p["rated"] += 1
                        p["loss"] += d.loss
                        p["accurate"] += d.loss < ACCURATE_WITHIN
    bots = {
        b: {"decisions": int(p["decisions"]), "rated": int(p["rated"]),
            "mean_loss": round(p["loss"] / max(p["rated"], 1), 3),
            "accuracy": round(100 * p["accurate"] / max(p["rated"], 1), 1),
            "agreement": round(100 * p["agree"] / max(p["decisions"], 1), 1)}
        for b, p in pooled.items()}
    losses = [bots[b]["mean_loss"] for b in BOTS]
    return {
        "hands": 4 * hands, "seed": seed, "preset": "kaikoufan", "bots": bots,
        "ordered": all(a > b for a, b in zip(losses, losses[1:], strict=False)),
        "review_seconds": round(review_s, 1), "sim_seconds": round(sim_s, 1),
        "decisions_per_second": round(total_decisions / review_s, 1) if review_s else None,
        "machine": f"{platform.python_implementation()} {platform.python_version()} {platform.machine()}",
    }


def as_text(r: dict[str, Any]) -> str:
    lines = [f"laizi review calibration: {r['hands']} hands (kaikoufan, seed {r['seed']}, each bot at "
             "every seat), all four seats reviewed",
             f"{'bot':8} {'decisions':>9} {'mean loss':>9} {'accuracy':>9} {'= expert':>9}"]
    for b, x in r["bots"].items():
        lines.append(f"{b:8} {x['decisions']:9d} {x['mean_loss']:9.3f} {x['accuracy']:8.1f}% "
                     f"{x['agreement']:8.1f}%")
    lines.append(f"ordered random > greedy > strong > expert: {'yes' if r['ordered'] else 'NO'}")
    lines.append(f"review {r['review_seconds']} s ({r['decisions_per_second']} decisions/s), "
                 f"simulation {r['sim_seconds']} s · {r['machine']}")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=24, help="hands per seating (default 24; 4 seatings)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default=str(RESULTS / "review_calibration"),
                    help="output path without extension (.json and .txt are written)")
    args = ap.parse_args()
    r = calibrate(args.hands, args.seed)
    text = as_text(r)
    print(text, end="")
    Path(args.out + ".json").write_text(json.dumps(r, indent=1) + "\n", encoding="utf-8")
    Path(args.out + ".txt").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
