"""Fit the hints' outlook model (``src/laizi/data/outlook.json``) on simulated hands.

Four ``strong`` bots play ``--hands`` kaikoufan hands dealt exactly as ``laizi sim
--bots strong --seed SEED`` deals them (hand *i*: wall ``sim_hand_seed(SEED, i)``,
dealer ``i % 4``, bot seeds ``bot_seed(SEED, i, seat)``); every discard is recorded
(:class:`laizi.bots.outlook_fit.Recorder`) and the tables are fitted
(:func:`laizi.bots.outlook_fit.fit`). Reproducible: the same arguments write the same
file. The calibration test checks the model on other seeds.

    python scripts/fit_outlook.py --hands 4000 --seed outlook-fit --workers 2
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from laizi.bots.outlook import DATA_FILE, design
from laizi.bots.outlook_fit import Position, Recorder, fit, settle
from laizi.bots.registry import make_bot
from laizi.rules import RuleSet
from laizi.sim import bot_seed, record_hand, sim_hand_seed

OUT = Path(__file__).resolve().parents[1] / "src" / "laizi" / "data" / DATA_FILE


def recorded_hands(preset: str, seed: str, indices: list[int], *,
                   predict: bool = False) -> list[Position]:
    """Play hands ``indices`` of simulation ``seed`` with four strong bots, recorded."""
    rules = RuleSet.preset(preset)
    out: list[Position] = []
    for i in indices:
        sink: list[Position] = []
        bots = [Recorder(make_bot("strong", bot_seed(seed, i, s)), sink, predict=predict)
                for s in range(4)]
        st, _rec = record_hand(rules, bots, seed=sim_hand_seed(seed, i), dealer=i % 4, index=i,
                             count_refusals=False)
        settle(sink, st.result, st.payments)
        out.extend(sink)
    return out


def _job(args: tuple[str, str, list[int]]) -> list[Position]:
    return recorded_hands(*args)


def smooth_models(positions: list[Position]) -> tuple[list[float], list[float]]:
    """Logistic (win) and least-squares (points) coefficients over :func:`design`."""
    import numpy as np

    x = np.array([design(p.features) for p in positions if p.features is not None])
    y = np.array([float(p.won) for p in positions if p.features is not None])
    pts = np.array([p.points for p in positions if p.features is not None])
    w = np.zeros(x.shape[1])
    ridge = 1e-3 * np.eye(x.shape[1])
    for _ in range(30):  # Newton / IRLS
        mu = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (y - mu) - ridge @ w
        hess = (x * (mu * (1 - mu))[:, None]).T @ x + ridge
        step = np.linalg.solve(hess, grad)
        w += step
        if float(np.abs(step).max()) < 1e-8:
            break
    lin = np.linalg.solve(x.T @ x + ridge, x.T @ pts)
    return [float(v) for v in w], [float(v) for v in lin]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=4000)
    ap.add_argument("--seed", default="outlook-fit")
    ap.add_argument("--preset", default="kaikoufan")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    t0 = time.time()
    chunks = [list(range(a, min(a + 50, args.hands))) for a in range(0, args.hands, 50)]
    positions: list[Position] = []
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as ex:
            for got in ex.map(_job, [(args.preset, args.seed, c) for c in chunks]):
                positions.extend(got)
    else:
        for c in chunks:
            positions.extend(recorded_hands(args.preset, args.seed, c))
    meta = {"hands": args.hands, "seed": args.seed, "preset": args.preset,
            "bots": "strong x4", "positions": len(positions),
            "script": "scripts/fit_outlook.py"}
    logit, linear = smooth_models(positions)
    model = fit(positions, meta, logit, linear)
    args.out.write_text(json.dumps(model, separators=(",", ":"), sort_keys=True) + "\n",
                        encoding="utf-8")
    print(f"{len(positions)} positions from {args.hands} hands in {time.time() - t0:.0f} s "
          f"→ {args.out} ({args.out.stat().st_size} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
