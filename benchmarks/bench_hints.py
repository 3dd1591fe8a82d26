"""Time ``laizi.hints.hints_for`` per call, as the server uses it (one call per decision
of a seat that has a choice), over hands played by four strong bots.

    python benchmarks/bench_hints.py --hands 30

Prints wall-clock and CPU (process) time percentiles per phase; the CPU figure is the
one to compare across runs on a shared, loaded machine.
"""

from __future__ import annotations

import argparse
import time

from laizi.bots import SeatView, make_bot
from laizi.game import HandState
from laizi.hints import hints_for
from laizi.rules import RuleSet
from laizi.sim import sim_hand_seed


def _pct(xs: list[float], q: float) -> float:
    return xs[min(len(xs) - 1, int(len(xs) * q))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=30)
    ap.add_argument("--seed", default="bench-hints")
    args = ap.parse_args()
    rules = RuleSet.preset("kaikoufan")
    wall: dict[str, list[float]] = {"turn": [], "claim": []}
    cpu: dict[str, list[float]] = {"turn": [], "claim": []}
    for i in range(args.hands):
        st = HandState.new(rules, i % 4, seed=sim_hand_seed(args.seed, i))
        bots = [make_bot("strong", s) for s in range(4)]
        while not st.over:
            for seat in st.to_act():
                if st.over:
                    break
                v = SeatView.from_state(st, seat)
                if len(v.legal) > 1:
                    t0, c0 = time.perf_counter(), time.process_time()
                    hints_for(v)
                    t1, c1 = time.perf_counter(), time.process_time()
                    if i > 0:  # the first hand warms the tables and caches
                        ph = "turn" if v.phase == "turn" else "claim"
                        wall[ph].append((t1 - t0) * 1000)
                        cpu[ph].append((c1 - c0) * 1000)
                st.apply(seat, bots[seat].act(v))
    for ph in ("turn", "claim"):
        for name, xs in (("wall", wall[ph]), ("cpu", cpu[ph])):
            xs.sort()
            print(f"{ph:5} {name:4} n={len(xs):5}  p50 {_pct(xs, .5):6.1f}  p90 {_pct(xs, .9):6.1f}  "
                  f"p99 {_pct(xs, .99):6.1f}  max {xs[-1]:6.1f} ms")


if __name__ == "__main__":
    main()
