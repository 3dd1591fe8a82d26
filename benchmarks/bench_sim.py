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

4. pure vs compiled, side by side: the same greedy×4 simulation in the pure build
   (``.venv/bin/python``) and the mypyc-compiled build (``.venv-compiled/bin/python``,
   made by ``bash scripts/build_compiled.sh``), one child process per build and
   round, the builds alternating in ``--rounds`` rounds; CPU time of each child's
   simulation only (after its warm-up). Each child reports which build it loaded
   (:mod:`laizi.compiled`) and a digest of its results, which must agree. Targets:
   compiled ≥ 755 hands per CPU second (riichienv's random-bot figure) and ≥ 2× pure.
   ``--pure`` / ``--compiled`` name other interpreters; ``--no-builds`` skips this.

    .venv/bin/python benchmarks/bench_sim.py [--hands 2000] [--seconds 10] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from laizi.rules import RuleSet
from laizi.sim import simulate

ROOT = Path(__file__).resolve().parent.parent
BUILD_PYTHONS = {"pure": ROOT / ".venv" / "bin" / "python",
                 "compiled": ROOT / ".venv-compiled" / "bin" / "python"}
TIMING_FIELDS = ("seconds", "hands_per_second")


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


def run_child(hands: int, seed: int) -> dict[str, Any]:
    """One child of the pure-vs-compiled comparison: time ``hands`` greedy hands here."""
    from laizi.compiled import BUILD

    rules = RuleSet.preset("kaikoufan")
    simulate(20, rules=rules, bots=["greedy"] * 4, seed=seed + 1000, workers=1)  # warm-up
    t0, c0 = time.perf_counter(), time.process_time()
    res = simulate(hands, rules=rules, bots=["greedy"] * 4, seed=seed, workers=1)
    cpu = time.process_time() - c0
    wall = time.perf_counter() - t0
    data = {k: v for k, v in res.to_json().items() if k not in TIMING_FIELDS}
    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()
    return {"build": BUILD, "hands": hands, "cpu_seconds": cpu, "seconds": wall,
            "digest": digest}


def bench_builds(pythons: dict[str, str], hands: int, rounds: int) -> dict[str, Any]:
    """Pure and compiled builds side by side: alternating child processes, CPU time summed."""
    per_round = max(1, hands // rounds)
    tot = {label: {"hands": 0, "cpu_seconds": 0.0, "seconds": 0.0} for label in pythons}
    mismatches: list[str] = []
    for i in range(rounds):
        digests: dict[str, str] = {}
        for label, python in pythons.items():
            proc = subprocess.run(
                [python, str(Path(__file__).resolve()), "--child", str(per_round),
                 "--child-seed", str(1 + i * 7919)],
                capture_output=True, text=True, cwd=str(ROOT / "benchmarks"))
            if proc.returncode != 0:
                raise SystemExit(f"{label} build ({python}) failed:\n{proc.stderr}")
            out = json.loads(proc.stdout)
            if out["build"] != label:
                raise SystemExit(f"{python} runs the {out['build']} build, not the {label} one")
            for key in ("hands", "cpu_seconds", "seconds"):
                tot[label][key] += out[key]
            digests[label] = out["digest"]
        if len(set(digests.values())) > 1:
            mismatches.append(f"round {i + 1}: results differ between builds")
    res: dict[str, Any] = {}
    for label, t in tot.items():
        res[label] = {"python": pythons[label], "hands": t["hands"],
                      "cpu_seconds": round(t["cpu_seconds"], 3),
                      "hands_per_second": round(t["hands"] / t["cpu_seconds"], 1),
                      "wall_hands_per_second": round(t["hands"] / t["seconds"], 1)}
    if "pure" in res and "compiled" in res:
        res["speedup"] = round(res["compiled"]["hands_per_second"]
                               / res["pure"]["hands_per_second"], 2)
        res["targets"] = {"compiled_hands_per_second": 755, "speedup": 2.0}
        res["met"] = (res["compiled"]["hands_per_second"] >= 755 and res["speedup"] >= 2.0)
    res["identical_results"] = not mismatches
    res["mismatches"] = mismatches
    return res


def main() -> int:
    if "--child" in sys.argv:  # a child of the pure-vs-compiled comparison
        i = sys.argv.index("--child")
        seed = int(sys.argv[sys.argv.index("--child-seed") + 1])
        print(json.dumps(run_child(int(sys.argv[i + 1]), seed)))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000, help="laizi hands per run (default 2000)")
    ap.add_argument("--seconds", type=float, default=10.0, help="rlcard timing (default 10 s)")
    ap.add_argument("--rounds", type=int, default=5,
                    help="alternate laizi and rlcard in this many rounds (default 5), so "
                         "drift in the machine's speed hits both alike")
    ap.add_argument("--pure", default=str(BUILD_PYTHONS["pure"]),
                    help="interpreter with the pure build (default .venv/bin/python)")
    ap.add_argument("--compiled", default=str(BUILD_PYTHONS["compiled"]),
                    help="interpreter with the compiled build (default .venv-compiled/bin/python)")
    ap.add_argument("--no-builds", action="store_true",
                    help="skip the pure-vs-compiled comparison")
    ap.add_argument("--only-builds", action="store_true",
                    help="only the pure-vs-compiled comparison (no rlcard, no 2 workers)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    builds: dict[str, Any] | None = None
    note = ""
    if not args.no_builds:
        pythons = {"pure": args.pure, "compiled": args.compiled}
        missing = [f"{k} ({p})" for k, p in pythons.items() if not Path(p).exists()]
        if missing:
            note = (f"pure vs compiled skipped: no {', '.join(missing)} "
                    "(bash scripts/build_compiled.sh makes .venv-compiled)")
        else:
            builds = bench_builds(pythons, args.hands, args.rounds)
    if args.only_builds:
        if args.json:
            print(json.dumps({"builds": builds, "note": note or None}))
        else:
            print_builds(builds, note)
        return 0 if builds is not None else 1

    one, rl = bench_interleaved(args.hands, args.seconds, args.rounds)
    two = bench_laizi(args.hands, 2)
    out: dict[str, Any] = {"laizi_1_worker": one, "laizi_2_workers": two, "rlcard": rl,
                           "builds": builds}
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
    print_builds(builds, note)
    return 0


def print_builds(builds: dict[str, Any] | None, note: str) -> None:
    if builds is None:
        if note:
            print(note)
        return
    print("pure vs compiled (greedy×4, kaikoufan, 1 core, builds alternating):")
    for label in ("pure", "compiled"):
        b = builds[label]
        print(f"  {label:<9}: {b['hands_per_second']:8.1f} hands per CPU s ({b['hands']} hands, "
              f"{b['cpu_seconds']} CPU s, {b['wall_hands_per_second']} per wall s)")
    if "speedup" in builds:
        print(f"  compiled / pure: ×{builds['speedup']} (target ≥ ×2); compiled target ≥ 755 "
              f"hands per CPU s: {'met' if builds['met'] else 'MISSED'}")
    print(f"  results identical between builds: {builds['identical_results']}")


if __name__ == "__main__":
    raise SystemExit(main())
