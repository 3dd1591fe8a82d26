"""A/B of the simulator between two source trees: ``bench_sim.py``'s greedy×4 child run
with ``PYTHONPATH`` set to each tree in turn, alternating in ``--rounds`` rounds (so
drift in a shared machine's speed hits both alike), CPU time of the simulation only.

Each child reports a digest of its results: the two trees must play the same hands.

    .venv/bin/python benchmarks/ab_sim.py --a /work/main/src --b src [--hands 2000] [--rounds 6]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent / "bench_sim.py"


def child(src: str, hands: int, seed: int) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(Path(src).resolve()))
    proc = subprocess.run([sys.executable, str(BENCH), "--child", str(hands), "--child-seed",
                           str(seed)], capture_output=True, text=True, env=env, timeout=3600)
    if proc.returncode != 0:
        raise SystemExit(f"{src}: {proc.stderr}")
    out: dict[str, object] = json.loads(proc.stdout)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True, help="source tree A (its src/ directory)")
    ap.add_argument("--b", required=True, help="source tree B (its src/ directory)")
    ap.add_argument("--hands", type=int, default=2000, help="hands per tree (default 2000)")
    ap.add_argument("--rounds", type=int, default=6, help="alternating rounds (default 6)")
    args = ap.parse_args()
    per_round = max(1, args.hands // args.rounds)
    tot = {"a": [0, 0.0], "b": [0, 0.0]}
    rounds = []
    same = True
    for i in range(args.rounds):
        order = ("a", "b") if i % 2 == 0 else ("b", "a")  # who goes first alternates too
        got = {}
        for label in order:
            got[label] = child(getattr(args, label), per_round, 1 + i * 7919)
            tot[label][0] += per_round
            tot[label][1] += float(got[label]["cpu_seconds"])  # type: ignore[arg-type]
        same = same and got["a"]["digest"] == got["b"]["digest"]
        rounds.append({k: round(per_round / float(v["cpu_seconds"]), 1)  # type: ignore[arg-type]
                       for k, v in got.items()})
    res = {label: {"src": getattr(args, label), "hands": h, "cpu_seconds": round(c, 3),
                   "hands_per_cpu_second": round(h / c, 1)} for label, (h, c) in tot.items()}
    print(json.dumps({"a": res["a"], "b": res["b"],
                      "b_over_a": round(res["b"]["hands_per_cpu_second"]
                                        / res["a"]["hands_per_cpu_second"], 3),
                      "per_round_hands_per_cpu_second": rounds,
                      "identical_results": same}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
