"""Scaling of ``laizi sim --ray``: hands per wall second on a local Ray instance with 1 and
with 2 CPUs, against the one-process simulator in the same run.

Runs, in one process and alternating in ``--rounds`` rounds (the machine is shared):

1. reference: ``--hands`` kaikoufan hands with four ``greedy`` bots, in this process
   (the ``--workers 1`` path);
2. the same hands on a fresh local Ray instance started with ``num_cpus=1``;
3. the same on one started with ``num_cpus=2``.

Every run must give the same statistics (timing aside): the script checks it. Prints
hands per wall second and the ratios ray(2)/ray(1) (the scaling figure) and
ray(2)/reference. Ray's start-up (a few seconds) is outside the timed part.

    .venv/bin/python benchmarks/bench_ray.py [--hands 1500] [--rounds 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any


def _stats(res: Any) -> str:
    return json.dumps(res.to_json(timing=False), sort_keys=True)


def _ray_run(hands: int, cpus: int, seed: str) -> tuple[float, str]:
    import ray

    from laizi.sim import simulate

    ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    try:
        simulate(50, seed="warm-up", ray=True)  # workers up and tables loaded
        t0 = time.perf_counter()
        res = simulate(hands, seed=seed, ray=True)
        return hands / (time.perf_counter() - t0), _stats(res)
    finally:
        ray.shutdown()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=1500)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seed", default="bench-ray")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    from laizi.sim import simulate

    simulate(50, seed="warm-up")
    figures: dict[str, list[float]] = {"reference": [], "ray1": [], "ray2": []}
    digests: set[str] = set()
    for _ in range(args.rounds):
        t0 = time.perf_counter()
        res = simulate(args.hands, seed=args.seed)
        figures["reference"].append(args.hands / (time.perf_counter() - t0))
        digests.add(_stats(res))
        for cpus in (1, 2):
            rate, digest = _ray_run(args.hands, cpus, args.seed)
            figures[f"ray{cpus}"].append(rate)
            digests.add(digest)
    if len(digests) != 1:
        raise SystemExit("the runs disagree: Ray changed the statistics")
    med = {k: statistics.median(v) for k, v in figures.items()}
    out = {
        "hands": args.hands, "rounds": args.rounds,
        "hands_per_wall_second": {k: [round(x, 1) for x in v] for k, v in figures.items()},
        "median": {k: round(v, 1) for k, v in med.items()},
        "scaling_2cpu_over_1cpu": round(med["ray2"] / med["ray1"], 2),
        "ray2_over_reference": round(med["ray2"] / med["reference"], 2),
        "identical_statistics": True,
    }
    if args.json:
        print(json.dumps(out))
        return
    print(f"{args.hands} greedy×4 hands, {args.rounds} rounds (hands per wall second):")
    for k in ("reference", "ray1", "ray2"):
        print(f"  {k:10s} {out['hands_per_wall_second'][k]}  median {out['median'][k]}")
    print(f"scaling with 2 CPUs over 1: ×{out['scaling_2cpu_over_1cpu']}; "
          f"ray(2) over one process: ×{out['ray2_over_reference']}; statistics identical")


if __name__ == "__main__":
    main()
