"""Simulator throughput: full-rule hands per second with ``greedy`` bots, against rlcard.

Runs, in one process:

1. laizi: ``--hands`` hands of the ``kaikoufan`` preset, four ``greedy`` bots, one
   core (after a short warm-up), i.e. the simulator's ``--workers 1`` path;
2. rlcard 1.2.0: ``rlcard.make('mahjong')`` games with four random agents for
   ``--seconds`` (skipped with a note if rlcard is not installed:
   ``.venv/bin/pip install rlcard==1.2.0``);
3. laizi again with ``--workers 2`` (processes) for the scaling figure.

Steps 1 and 2 alternate in ``--rounds`` rounds so that drift in the machine's
speed (shared cores) hits both sides alike. Prints the figures and the ratio
laizi / rlcard (target ≥ 10). Single-process
figures are per CPU second of this process (``time.process_time``), so other load
on the machine does not skew the ratio; wall-clock figures are printed too. The
``--workers 2`` figure is wall-clock (it spans processes). ``--json`` prints
everything as one JSON object.

    .venv/bin/python benchmarks/bench_sim.py [--hands 2000] [--seconds 10] [--json]
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from laizi.rules import RuleSet
from laizi.sim import simulate


def bench_laizi(hands: int, workers: int, seed: int = 1) -> dict[str, Any]:
    rules = RuleSet.preset("kaikoufan")
    # warm-up (imports, tables) outside the timing
    simulate(20, rules=rules, bots=["greedy"] * 4, seed=seed + 1000, workers=1)
    t0 = time.perf_counter()
    c0 = time.process_time()
    res = simulate(hands, rules=rules, bots=["greedy"] * 4, seed=seed, workers=workers)
    cpu = time.process_time() - c0
    dt = time.perf_counter() - t0
    out = {"hands": hands, "workers": workers, "seconds": round(dt, 3),
           "wall_hands_per_second": round(hands / dt, 1),
           "win_rate": round(res.to_json()["win_rate"], 3)}
    if workers == 1:
        out["cpu_seconds"] = round(cpu, 3)
        out["hands_per_second"] = round(hands / cpu, 1)
    else:
        out["hands_per_second"] = out["wall_hands_per_second"]
    return out


def bench_rlcard(seconds: float) -> dict[str, Any] | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": 1})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    env.run(is_training=False)  # warm-up
    n = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    while time.perf_counter() - t0 < seconds:
        env.run(is_training=False)
        n += 1
    cpu = time.process_time() - c0
    dt = time.perf_counter() - t0
    version = getattr(rlcard, "__version__", "?")
    return {"games": n, "seconds": round(dt, 3), "cpu_seconds": round(cpu, 3),
            "games_per_second": round(n / cpu, 1),
            "wall_games_per_second": round(n / dt, 1), "version": version}


def bench_interleaved(hands: int, seconds: float, rounds: int) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """laizi (1 worker) and rlcard measured in alternating rounds, CPU time summed."""
    rules = RuleSet.preset("kaikoufan")
    simulate(20, rules=rules, bots=["greedy"] * 4, seed=1001, workers=1)  # warm-up
    try:
        import rlcard
        from rlcard.agents import RandomAgent
        env: Any = rlcard.make("mahjong", config={"seed": 1})
        env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
        env.run(is_training=False)  # warm-up
    except ImportError:
        env = None
    per_round = max(1, hands // rounds)
    l_cpu = l_wall = 0.0
    l_hands = 0
    wins = 0.0
    r_cpu = r_wall = 0.0
    r_games = 0
    for i in range(rounds):
        t0, c0 = time.perf_counter(), time.process_time()
        res = simulate(per_round, rules=rules, bots=["greedy"] * 4, seed=1 + i * 7919, workers=1)
        l_cpu += time.process_time() - c0
        l_wall += time.perf_counter() - t0
        l_hands += per_round
        wins += res.to_json()["win_rate"] * per_round
        if env is not None:
            t0, c0 = time.perf_counter(), time.process_time()
            while time.perf_counter() - t0 < seconds / rounds:
                env.run(is_training=False)
                r_games += 1
            r_cpu += time.process_time() - c0
            r_wall += time.perf_counter() - t0
    one = {"hands": l_hands, "workers": 1, "seconds": round(l_wall, 3), "cpu_seconds": round(l_cpu, 3),
           "hands_per_second": round(l_hands / l_cpu, 1),
           "wall_hands_per_second": round(l_hands / l_wall, 1),
           "win_rate": round(wins / l_hands, 3)}
    rl = None
    if env is not None:
        import rlcard

        rl = {"games": r_games, "seconds": round(r_wall, 3), "cpu_seconds": round(r_cpu, 3),
              "games_per_second": round(r_games / r_cpu, 1),
              "wall_games_per_second": round(r_games / r_wall, 1),
              "version": getattr(rlcard, "__version__", "?")}
    return one, rl


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000, help="laizi hands per run (default 2000)")
    ap.add_argument("--seconds", type=float, default=10.0, help="rlcard timing (default 10 s)")
    ap.add_argument("--rounds", type=int, default=5,
                    help="alternate laizi and rlcard in this many rounds (default 5), so "
                         "drift in the machine's speed hits both alike")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    one, rl = bench_interleaved(args.hands, args.seconds, args.rounds)
    two = bench_laizi(args.hands, 2)
    out: dict[str, Any] = {"laizi_1_worker": one, "laizi_2_workers": two, "rlcard": rl}
    out["scaling_2_workers"] = round(two["hands_per_second"] / one["wall_hands_per_second"], 2)
    if rl is not None:
        out["ratio_vs_rlcard"] = round(one["hands_per_second"] / rl["games_per_second"], 1)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"laizi  greedy×4, kaikoufan, 1 worker : {one['hands_per_second']:8.1f} hands per CPU s "
          f"({one['hands']} hands, {one['cpu_seconds']} CPU s, {one['wall_hands_per_second']} "
          f"per wall s; win rate {one['win_rate']})")
    if rl is None:
        print("rlcard not installed: pip install rlcard==1.2.0 for the comparison")
    else:
        print(f"rlcard {rl['version']} mahjong, random agents   : {rl['games_per_second']:8.1f} "
              f"games per CPU s ({rl['games']} games, {rl['cpu_seconds']} CPU s, "
              f"{rl['wall_games_per_second']} per wall s)")
        print(f"ratio laizi / rlcard                   : {out['ratio_vs_rlcard']:8.1f}×  "
              f"(target ≥ 10×)")
    print(f"laizi  greedy×4, kaikoufan, 2 workers: {two['hands_per_second']:8.1f} hands per wall s "
          f"(scaling ×{out['scaling_2_workers']} over 1 worker's wall figure)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
