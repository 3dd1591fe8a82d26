"""Benchmark laizi.analysis.fast against the ``mahjong`` package (pure Python).

Run: ``.venv/bin/python benchmarks/bench_analysis.py [--n 20000] [--seed 1] [--json]``

Hands (fixed seed): half random 14-tile draws from a 136-tile wall, half built from
random sets + a pair (so many are complete).  The 13-tile hands for ``waits`` drop
one random tile from each 14-tile hand.  Every function sees each hand once.

* ``can_win``  vs ``Agari().is_agari(tiles34)``
* ``waits``    vs ``is_agari`` on each of the 34 kinds added (count < 4)
* ``shanten``  vs ``Shanten().calculate_shanten_for_regular_hand``

Each timing is the best of ``--repeat`` rounds (ours and the reference alternate,
which damps noise from other processes).  The input checks of the public functions
(:mod:`laizi.analysis.checked`) are timed against the unchecked ones as well.  Table loading is timed separately
(first call); ``--build`` also times building the tables from scratch.

Pure vs compiled, side by side: when both the pure build (``.venv/bin/python``) and
the mypyc-compiled build (``.venv-compiled/bin/python``, made by
``bash scripts/build_compiled.sh``) are there, this script runs itself once in each
(``--pure`` / ``--compiled`` name other interpreters, ``--no-builds`` skips it) and
prints both builds' figures in one table, with the compiled targets ×6 / ×40 / ×20
against the reference.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from mahjong.agari import Agari
from mahjong.shanten import Shanten

from laizi.analysis import _tables, checked, fast
from laizi.tiles import NUM_KINDS

try:
    MAHJONG = metadata.version("mahjong")
except metadata.PackageNotFoundError:  # pragma: no cover
    MAHJONG = "?"

Counts = list[int]

ROOT = Path(__file__).resolve().parent.parent
BUILD_PYTHONS = {"pure": ROOT / ".venv" / "bin" / "python",
                 "compiled": ROOT / ".venv-compiled" / "bin" / "python"}
COMPILED_TARGETS = {"can_win": 6.0, "waits": 40.0, "shanten": 20.0}

SETS = [(k, k, k) for k in range(NUM_KINDS)] + [(k, k + 1, k + 2) for k in range(27) if k % 9 <= 6]


def random_hand(rng: random.Random, wall: Sequence[int]) -> Counts:
    counts = [0] * NUM_KINDS
    for k in rng.sample(wall, 14):
        counts[k] += 1
    return counts


def winning_hand(rng: random.Random) -> Counts:
    while True:
        counts = [0] * NUM_KINDS
        for s in rng.choices(SETS, k=4):
            for k in s:
                counts[k] += 1
        counts[rng.randrange(NUM_KINDS)] += 2
        if max(counts) <= 4:
            return counts


def make_hands(n: int, seed: int) -> tuple[list[Counts], list[Counts]]:
    rng = random.Random(seed)
    wall = [k for k in range(NUM_KINDS) for _ in range(4)]
    hands14 = [random_hand(rng, wall) if i % 2 else winning_hand(rng) for i in range(n)]
    hands13 = []
    for h in hands14:
        c = h[:]
        c[rng.choice([k for k in range(NUM_KINDS) if c[k]])] -= 1
        hands13.append(c)
    return hands14, hands13


def time_loop(fn: Callable[[Counts], object], hands: Sequence[Counts]) -> tuple[float, list[object]]:
    out: list[object] = []
    append = out.append
    start = time.perf_counter()
    for h in hands:
        append(fn(h))
    return time.perf_counter() - start, out


def ref_waits(counts: Counts, is_agari: Callable[[Counts], bool] = Agari.is_agari) -> list[int]:
    res = []
    for k in range(NUM_KINDS):
        if counts[k] < 4:
            c = counts[:]
            c[k] += 1
            if is_agari(c):
                res.append(k)
    return res


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20000, help="hands per benchmark")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5,
                        help="timing rounds (ours and reference alternate); the best is kept")
    parser.add_argument("--build", action="store_true",
                        help="also time building the tables from scratch (several seconds)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--pure", default=str(BUILD_PYTHONS["pure"]),
                        help="interpreter with the pure build (default .venv/bin/python)")
    parser.add_argument("--compiled", default=str(BUILD_PYTHONS["compiled"]),
                        help="interpreter with the compiled build "
                             "(default .venv-compiled/bin/python)")
    parser.add_argument("--no-builds", action="store_true",
                        help="only this interpreter's build (no pure-vs-compiled table)")
    args = parser.parse_args(argv)
    if not args.no_builds and Path(args.pure).exists() and Path(args.compiled).exists():
        return compare_builds(args)

    start = time.perf_counter()
    fast.load_tables()
    load_s = time.perf_counter() - start
    build_s: float | None = None
    if args.build:
        start = time.perf_counter()
        _tables.build()
        build_s = time.perf_counter() - start

    hands14, hands13 = make_hands(args.n, args.seed)
    agari = Agari().is_agari
    shanten_ref = Shanten().calculate_shanten_for_regular_hand

    targets = {"can_win": 3.0, "waits": 15.0, "shanten": 4.0}
    rows: list[dict[str, object]] = []
    mismatches: list[str] = []

    def bench(name: str, ours: Callable[[Counts], object], ref: Callable[[Counts], object],
              hands: Sequence[Counts]) -> None:
        t_ref = t_ours = float("inf")
        r_ref: list[object] = []
        r_ours: list[object] = []
        for _ in range(args.repeat):
            t, r_ref = time_loop(ref, hands)
            t_ref = min(t_ref, t)
            t, r_ours = time_loop(ours, hands)
            t_ours = min(t_ours, t)
        # (the reference also knows seven pairs / thirteen orphans, which the
        # regular-hand functions do not: any such hand would show up here)
        differ = sum(1 for a, b in zip(r_ours, r_ref, strict=True) if a != b)
        if differ:
            mismatches.append(f"{name}: {differ} results differ from the reference")
        speedup = t_ref / t_ours
        rows.append({
            "function": name,
            "hands": len(hands),
            "ours_us": t_ours / len(hands) * 1e6,
            "ref_us": t_ref / len(hands) * 1e6,
            "speedup": speedup,
            "target": targets[name],
            "met": speedup >= targets[name],
        })

    bench("can_win", fast.can_win, agari, hands14)
    bench("waits", fast.waits, lambda c: ref_waits(c, agari), hands13)
    bench("shanten", fast.shanten, shanten_ref, hands14)

    checks: list[dict[str, object]] = []
    for name, unchecked, public, hands in (
        ("can_win", fast.can_win, checked.can_win, hands14),
        ("waits", fast.waits, checked.waits, hands13),
        ("shanten", fast.shanten, checked.shanten, hands14),
    ):
        t_fast = t_checked = float("inf")
        for _ in range(args.repeat):
            t_fast = min(t_fast, time_loop(unchecked, hands)[0])
            t_checked = min(t_checked, time_loop(public, hands)[0])
        checks.append({"function": name, "unchecked_us": t_fast / len(hands) * 1e6,
                       "checked_us": t_checked / len(hands) * 1e6})

    result = {
        "n": args.n,
        "repeat": args.repeat,
        "seed": args.seed,
        "table_load_s": load_s,
        "table_build_s": build_s,
        "results": rows,
        "input_checks": checks,
        "mismatches": mismatches,
        "python": sys.version.split()[0],
        "build": _build(),
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        built = "" if build_s is None else f", build from scratch {build_s:.2f} s"
        print(f"tables: load {load_s * 1000:.1f} ms (package data){built}")
        print(f"{args.n} hands, best of {args.repeat} rounds (reference = mahjong {MAHJONG})")
        print(f"{'function':<10}{'ours us':>10}{'ref us':>10}{'speedup':>9}{'target':>8}")
        for r in rows:
            print(f"{r['function']!s:<10}{r['ours_us']:>10.2f}{r['ref_us']:>10.2f}"
                  f"{r['speedup']:>8.1f}x{r['target']:>7.0f}x  {'ok' if r['met'] else 'MISSED'}")
        print("input checks (laizi.analysis.* vs laizi.analysis.fast.*):")
        for r in checks:
            print(f"  {r['function']!s:<10}{r['checked_us']:>8.2f} us checked, "
                  f"{r['unchecked_us']:.2f} us unchecked")
        for m in mismatches:
            print("NOTE:", m)
    return 0


def _build() -> str:
    from laizi.compiled import BUILD

    return BUILD


def compare_builds(args: argparse.Namespace) -> int:
    """Run this benchmark in the pure and the compiled build; print them side by side."""
    runs: dict[str, dict[str, Any]] = {}
    for label in ("pure", "compiled"):
        python = getattr(args, label)
        cmd = [python, str(Path(__file__).resolve()), "--no-builds", "--json",
               "--n", str(args.n), "--seed", str(args.seed), "--repeat", str(args.repeat)]
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=str(ROOT / "benchmarks"))
        if proc.returncode != 0:
            raise SystemExit(f"{label} build ({python}) failed:\n{proc.stderr}")
        runs[label] = json.loads(proc.stdout)
        if runs[label]["build"] != label:
            raise SystemExit(f"{python} runs the {runs[label]['build']} build, not the {label} one")
    rows = []
    for p, c in zip(runs["pure"]["results"], runs["compiled"]["results"], strict=True):
        name = p["function"]
        rows.append({
            "function": name, "pure_us": p["ours_us"], "compiled_us": c["ours_us"],
            "ref_us": c["ref_us"], "speedup_pure": p["speedup"], "speedup_compiled": c["speedup"],
            "compiled_over_pure": p["ours_us"] / c["ours_us"],
            "target_compiled": COMPILED_TARGETS[name],
            "met": c["speedup"] >= COMPILED_TARGETS[name],
        })
    mismatches = runs["pure"]["mismatches"] + runs["compiled"]["mismatches"]
    if args.json:
        print(json.dumps({"n": args.n, "repeat": args.repeat, "rows": rows,
                          "mismatches": mismatches, "runs": runs}, indent=2))
        return 0
    print(f"{args.n} hands, best of {args.repeat} rounds; reference = mahjong {MAHJONG} "
          f"(pure Python), timed in each build's process")
    print(f"{'function':<10}{'pure us':>9}{'compiled us':>13}{'ref us':>9}{'c/p':>7}"
          f"{'pure vs ref':>13}{'compiled vs ref':>17}{'target':>8}")
    for r in rows:
        print(f"{r['function']:<10}{r['pure_us']:>9.2f}{r['compiled_us']:>13.2f}{r['ref_us']:>9.2f}"
              f"{r['compiled_over_pure']:>6.2f}x{r['speedup_pure']:>12.1f}x"
              f"{r['speedup_compiled']:>16.1f}x{r['target_compiled']:>7.0f}x  "
              f"{'ok' if r['met'] else 'MISSED'}")
    for m in mismatches:
        print("NOTE:", m)
    return 0


if __name__ == "__main__":
    sys.exit(main())
