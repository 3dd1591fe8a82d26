#!/usr/bin/env python
"""Fit the experimental danger model (issue 28, stop 68: :mod:`laizi.bots.experimental.danger`).

Plays ``--hands`` hands of four ``expert`` (seeded), and at every turn where a seat may
discard two kinds or more, asks the true table, for each kind it may discard and each
opponent, whether that opponent may win on it at once: exact labels, no playouts. A small
MLP learns them from :func:`~laizi.bots.experimental.danger.features` (the seat's view
only); the weights go to ``--out`` as JSON, with the held-out log loss beside a constant
model's.

    python scripts/fit_danger.py --hands 3000 --seed d68 --workers 2 --out /tmp/danger.json

``--cuts`` fits on the 手切/摸切 marks of the rivers too (round 11:
:func:`~laizi.bots.experimental.danger.cut_features`, the marks kept from the true table's
moves by :class:`CutTracker`, since the view does not carry them); ``--river`` on the whole
pattern of the opponent's table in the tile's suit (round 12:
:func:`~laizi.bots.experimental.danger.river_features`); ``--rows FILE`` keeps the generated
rows (all features, marks and pattern included) so another fit reuses them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from laizi.analysis.profiles import shanten258
from laizi.bots.base import SeatView
from laizi.bots.experimental.danger import (
    N_CUT,
    N_FEATURES,
    N_RIVER,
    cut_features,
    features,
    river_features,
)
from laizi.bots.expert import ExpertBot
from laizi.bots.toolkit import natural
from laizi.distributed import local_pool
from laizi.game.actions import Action
from laizi.game.play import play_hand
from laizi.game.state import HandState
from laizi.rules import RuleSet
from laizi.sim import bot_seed, sim_hand_seed

CHUNK = 20
N_ORACLE = 3  # --oracle-shanten: the opponent's true distance from ready (0, 1, 2 or more)


class CutTracker:
    """Per seat, whether each tile of its river was cut from the hand (手切, True) or
    discarded as drawn (摸切, False): a public fact of the table that the seat view does not
    carry yet, kept here from the true table's moves (round 11)."""

    def __init__(self) -> None:
        self.cuts: list[list[bool]] = [[], [], [], []]

    def sync(self, state: HandState) -> None:
        """Drop the marks of river tiles that were claimed since (a claim takes the last)."""
        for s in range(4):
            del self.cuts[s][len(state.rivers[s]):]

    def record(self, state: HandState, seat: int, a: Action) -> None:
        if (a.type == "discard" and a.tile is not None and a.tile != state.setup.laizi
                and a.tile not in state.setup.special):
            self.cuts[seat].append(state.after_claim or state.last_draw != a.tile)


def true_distance(state: HandState, view: SeatView) -> list[list[float]]:
    """Per seat, its true distance from ready (0, 1, 2 or more; one-hot), read from the true
    hands: the ``--oracle-shanten`` columns, a measurement only."""
    far = []
    for o in range(4):
        nat, wilds = natural(view, state.hands[o])
        sh = shanten258(nat, wilds, 4 - len(state.melds[o]))
        far.append([float(sh <= 0), float(sh == 1), float(sh >= 2)])
    return far


def _hand(rules: RuleSet, seed: str, i: int) -> tuple[list[list[float]], list[int]]:
    bots = [ExpertBot(bot_seed(seed, i, s)) for s in range(4)]
    xs: list[list[float]] = []
    ys: list[int] = []
    tracker = CutTracker()

    def policy(state: HandState, seat: int, legal: list[Action]) -> Action:
        tracker.sync(state)
        a = choose(state, seat, legal)
        tracker.record(state, seat, a)
        return a

    def choose(state: HandState, seat: int, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        view = SeatView.from_state(state, seat, legal, copy=False)
        lz = view.setup.laizi
        kinds = sorted({a.tile for a in legal if a.type == "discard" and a.tile is not None
                        and a.tile != lz and a.tile not in view.setup.special})
        if len(kinds) >= 2:
            unseen = view.unseen()
            far = true_distance(state, view)
            for k in kinds:
                st = state.clone()
                st.apply(seat, Action("discard", k))
                wins = set() if st.over else {
                    o for o in st.to_act() if any(a.type == "ron" for a in st.legal_actions(o))}
                for o in range(4):
                    if o != seat:
                        xs.append(features(view, k, o, unseen)
                                  + cut_features(view.rivers[o], tracker.cuts[o], k) + far[o]
                                  + river_features(view, k, o, unseen))
                        ys.append(int(o in wins))
        return bots[seat].act(view)

    play_hand(HandState.new(rules, i % 4, seed=sim_hand_seed(seed, i), hand_no=1), policy)
    return xs, ys


def _work(args: tuple[str, str, list[int]]) -> tuple[np.ndarray, np.ndarray]:
    preset, seed, hands = args
    rules = RuleSet.preset(preset)
    xs: list[list[float]] = []
    ys: list[int] = []
    for i in hands:
        x, y = _hand(rules, seed, i)
        xs += x
        ys += y
    return np.asarray(xs, dtype=np.float32), np.asarray(ys, dtype=np.int8)


def fit(x: np.ndarray, y: np.ndarray, *, hidden: int, epochs: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    n = len(y)
    order = rng.permutation(n)
    nval = n // 10
    va, tr = order[:nval], order[nval:]
    w1 = rng.normal(0, 1 / np.sqrt(x.shape[1]), (x.shape[1], hidden))
    b1 = np.zeros(hidden)
    w2 = rng.normal(0, 1 / np.sqrt(hidden), hidden)
    b2 = np.log(y.mean() / (1 - y.mean()))
    params = [w1, b1, w2, np.array(b2)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    lr, b1m, b2m, step = 3e-3, 0.9, 0.999, 0

    def forward(xb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = np.maximum(0.0, xb @ params[0] + params[1])
        return h, 1 / (1 + np.exp(-(h @ params[2] + params[3])))

    def loss(idx: np.ndarray) -> float:
        _h, p = forward(x[idx])
        p = np.clip(p, 1e-7, 1 - 1e-7)
        return float(-np.mean(y[idx] * np.log(p) + (1 - y[idx]) * np.log(1 - p)))

    base = float(y[tr].mean())
    const = float(-np.mean(y[va] * np.log(base) + (1 - y[va]) * np.log(1 - base)))
    curve = []
    for ep in range(epochs):
        perm = rng.permutation(tr)
        for s in range(0, len(perm), 512):
            idx = perm[s:s + 512]
            xb, yb = x[idx], y[idx]
            h, p = forward(xb)
            g = (p - yb) / len(idx)
            grads = [None, None, h.T @ g, np.array(g.sum())]
            gh = np.outer(g, params[2]) * (h > 0)
            grads[0] = xb.T @ gh
            grads[1] = gh.sum(0)
            step += 1
            for j, (pj, gj) in enumerate(zip(params, grads, strict=True)):
                m[j] = b1m * m[j] + (1 - b1m) * gj
                v[j] = b2m * v[j] + (1 - b2m) * gj * gj
                mh = m[j] / (1 - b1m ** step)
                vh = v[j] / (1 - b2m ** step)
                params[j] = pj - lr * mh / (np.sqrt(vh) + 1e-8)
        curve.append({"epoch": ep + 1, "train": round(loss(tr[:50000]), 5), "val": round(loss(va), 5)})
        print(f"  epoch {ep + 1}: train {curve[-1]['train']}, val {curve[-1]['val']} "
              f"(constant {const:.5f})", file=sys.stderr, flush=True)
    _h, pv = forward(x[va])
    # calibration by decile of the prediction
    cal = []
    qs = np.quantile(pv, np.linspace(0, 1, 11))
    for lo, hi in zip(qs[:-1], qs[1:], strict=True):
        sel = (pv >= lo) & (pv <= hi)
        if sel.any():
            cal.append([round(float(pv[sel].mean()), 4), round(float(y[va][sel].mean()), 4)])
    pos, neg = np.sort(pv[y[va] > 0]), np.sort(pv[y[va] == 0])
    auc = float(np.searchsorted(neg, pos).sum() / max(1, len(pos) * len(neg)))
    return {"w1": params[0].tolist(), "b1": params[1].tolist(), "w2": params[2].tolist(),
            "b2": float(params[3]), "rows": int(n), "positives": int(y.sum()),
            "val_logloss": curve[-1]["val"], "val_auc": round(auc, 4), "const_logloss": round(const, 5),
            "curve": curve, "calibration_deciles": cal}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--seed", default="d68")
    ap.add_argument("--preset", default="kaikoufan")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--out", required=True)
    ap.add_argument("--cuts", action="store_true",
                    help="fit on the 手切/摸切 features too (round 11; the view lacks them yet)")
    ap.add_argument("--oracle-shanten", action="store_true",
                    help="fit on each opponent's true distance from ready too: what perfect "
                         "knowledge of who is ready would add (a measurement: such a model "
                         "cannot play)")
    ap.add_argument("--river", action="store_true",
                    help="fit on the whole pattern of the opponent's table in the tile's suit too "
                         "(round 12: river_features)")
    ap.add_argument("--rows", help="an .npz of generated rows: read if it exists, else written")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    if args.rows and Path(args.rows).exists():
        with np.load(args.rows) as z:
            x, y = z["x"], z["y"]
        gen_s = 0.0
    else:
        x, y, gen_s = _generate(args)
        if args.rows:
            np.savez(args.rows, x=x, y=y)
    x, y = x.astype(np.float64), y.astype(np.float64)
    if x.shape[1] != N_FEATURES + N_CUT + N_ORACLE + N_RIVER:
        raise SystemExit(f"fit_danger: {args.rows} holds rows of another layout "
                         f"({x.shape[1]} columns): remove it to generate anew")
    cols = list(range(N_FEATURES))
    cols += list(range(N_FEATURES, N_FEATURES + N_CUT)) if args.cuts else []
    oracle = N_FEATURES + N_CUT
    cols += list(range(oracle, oracle + N_ORACLE)) if args.oracle_shanten else []
    cols += list(range(oracle + N_ORACLE, x.shape[1])) if args.river else []
    x = x[:, cols]
    out = fit(x, y, hidden=args.hidden, epochs=args.epochs, seed=0)
    out.update({"hands": args.hands, "seed": args.seed, "preset": args.preset, "cuts": args.cuts,
                "oracle_shanten": args.oracle_shanten, "river": args.river,
                "gen_seconds": round(gen_s, 1), "seconds": round(time.perf_counter() - t0, 1),
                "command": " ".join(["python", "scripts/fit_danger.py", *sys.argv[1:]])})
    with open(args.out, "w") as fh:
        json.dump(out, fh)
    print(json.dumps({k: v for k, v in out.items() if k not in ("w1", "b1", "w2", "curve")}))
    return 0


def _generate(args: argparse.Namespace) -> tuple[np.ndarray, np.ndarray, float]:
    jobs = [(args.preset, args.seed, list(range(i, min(args.hands, i + CHUNK))))
            for i in range(0, args.hands, CHUNK)]
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    rows = 0
    t0 = time.perf_counter()
    with contextlib.ExitStack() as stack:
        stream = (map(_work, jobs) if args.workers <= 1
                  else stack.enter_context(local_pool(args.workers)).imap(_work, jobs))
        for j, (x, y) in enumerate(stream, 1):
            xs.append(x)
            ys.append(y)
            rows += len(y)
            print(f"  gen: {min(args.hands, j * CHUNK)}/{args.hands} hands, {rows} rows, "
                  f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    gen_s = time.perf_counter() - t0
    return np.concatenate(xs), np.concatenate(ys), gen_s


if __name__ == "__main__":
    raise SystemExit(main())
