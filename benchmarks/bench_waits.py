"""Time the scored 听 line (``laizi.hints.ready_waits(view, scores=True)``): what the server adds
to a seat's frame whenever its hand is ready (issue 23), with the per-table cache as the server
uses it (every seat's frame at every step) and without it (each ready view scored afresh).

    PYTHONPATH=src python benchmarks/bench_waits.py --hands 40 > benchmarks/results/bench_waits.txt

Prints CPU (process) time percentiles per call in milliseconds, the figure to compare across runs
on a shared machine, and how many waits the ready views had.
"""

from __future__ import annotations

import argparse
import time

from laizi import hints
from laizi.bots import make_bot
from laizi.game import Match
from laizi.rules import RuleSet
from laizi.views import seat_view


def _pct(xs: list[float], q: float) -> float:
    return xs[min(len(xs) - 1, int(len(xs) * q))]


def _line(name: str, xs: list[float]) -> str:
    xs = sorted(xs)
    return (f"{name:>10}: n={len(xs)} median={1000 * _pct(xs, .5):.3f} ms  p95={1000 * _pct(xs, .95):.3f} ms"
            f"  max={1000 * xs[-1]:.3f} ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--preset", default="kaikoufan")
    args = ap.parse_args()
    rules = RuleSet.preset(args.preset)
    cached: list[float] = []
    fresh: list[float] = []
    waits: list[int] = []
    for i in range(args.hands):
        m = Match(rules, seed=b"bench-waits-%d" % i, max_hands=1)
        bots = [make_bot("greedy", s) for s in range(4)]
        while not m.over:
            hand = m.hand
            assert hand is not None
            for s in range(4):
                v = seat_view(hand, s)
                t0 = time.process_time()
                w = hints.ready_waits(v, scores=True)  # as the frames call it
                cached.append(time.process_time() - t0)
                if w:
                    waits.append(len(w))
                    hints._SCORED.clear()
                    t0 = time.process_time()
                    hints.ready_waits(v, scores=True)
                    fresh.append(time.process_time() - t0)
            for seat in m.to_act():
                if m.over or seat not in m.to_act():
                    continue
                m.apply(seat, bots[seat].act(seat_view(hand, seat)))
    print(f"preset {args.preset}, {args.hands} hands of four greedy bots; CPU time per call")
    print(_line("cached", cached))
    print(_line("ready", fresh))
    waits.sort()
    print(f"     waits: ready views {len(waits)}, median {_pct(waits, .5)}, max {waits[-1]} kinds")


if __name__ == "__main__":
    main()
