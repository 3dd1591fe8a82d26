#!/usr/bin/env python
"""How well the experimental danger model reads the table (issue 28, stop 68).

Plays ``--hands`` hands of four ``expert`` on a seed of their own and, at every discard
``expert`` makes (not a laizi or a 红中/皮子), asks the model
(:class:`laizi.bots.experimental.danger.DangerModel`) the chance that the discard feeds a
win and the true table whether it does, and what it costs the discarder
(``ab_defence_oracle.feed_loss``). Prints the feed rate, the mean loss of a feed, the
observed rate by band of the predicted chance, each band's share of all feeds, and the
AUC (the chance that a feeding discard is rated above a safe one).

A model fitted with ``--cuts`` is given the 手切/摸切 marks of every river, kept from the
true table's moves (``fit_danger.CutTracker``); one fitted ``--oracle-shanten``, each
opponent's true distance from ready (a measurement). ``--pairs`` adds, per threshold δ,
what switching to the kind as near to ready that the model rates safer by more than δ
would do to feeds (round 11).

    python benchmarks/danger_calibration.py --weights benchmarks/results/danger_model_d68.json \\
        --hands 300 --seed diag --json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
from ab_defence_oracle import feed_loss, shanten_after  # noqa: E402
from fit_danger import N_ORACLE, CutTracker, true_distance  # noqa: E402

from laizi.bots.base import SeatView  # noqa: E402
from laizi.bots.experimental.danger import (  # noqa: E402
    N_CUT,
    N_FEATURES,
    DangerModel,
    cut_features,
    features,
)
from laizi.bots.expert import ExpertBot  # noqa: E402
from laizi.bots.toolkit import natural  # noqa: E402
from laizi.game.actions import Action  # noqa: E402
from laizi.game.play import play_hand  # noqa: E402
from laizi.game.state import HandState  # noqa: E402
from laizi.rules import RuleSet  # noqa: E402
from laizi.sim import bot_seed, sim_hand_seed  # noqa: E402

DELTAS = (0.0, 0.01, 0.02, 0.05, 0.1, 0.2)


def _same_step_alternative(view: SeatView, a: Action, chance: dict[int, float]) -> int | None:
    """Among the other kinds ``view``'s seat may discard that leave its hand as near to
    ready as ``a`` does, the one the model rates least likely to feed (None: there is none)."""
    nat, wilds = natural(view)
    assert a.tile is not None
    sh_a = shanten_after(view, nat, wilds, a.tile)
    alts = [k for k in chance if k != a.tile and shanten_after(view, nat, wilds, k) <= sh_a]
    return min(alts, key=lambda k: chance[k]) if alts else None


def _chances(model: DangerModel, view: SeatView, kinds: list[int], cuts: list[list[bool]],
             state: HandState) -> dict[int, float]:
    """The model's chances; a model fitted ``--oracle-shanten`` is also given each opponent's
    true distance from ready (a measurement of what knowing it is worth, not a player)."""
    n = int(model.w1.shape[0])
    if n not in (N_FEATURES + N_ORACLE, N_FEATURES + N_CUT + N_ORACLE):
        return model.feed_chance(view, kinds, cuts)
    unseen = view.unseen()
    opps = [o for o in range(4) if o != view.seat]
    far = true_distance(state, view)
    rows = [features(view, k, o, unseen)
            + (cut_features(view.rivers[o], cuts[o], k) if n > N_FEATURES + N_ORACLE else [])
            + far[o] for k in kinds for o in opps]
    p = model.prob(np.asarray(rows)).reshape(len(kinds), len(opps))
    return {k: float(1.0 - np.prod(1.0 - p[i])) for i, k in enumerate(kinds)}


BANDS = ((0.0, 0.01), (0.01, 0.03), (0.03, 0.06), (0.06, 0.1), (0.1, 0.2), (0.2, 0.4), (0.4, 1.01))


def _pairs(pairs: list[tuple[float, float, float, float]], hands: int) -> dict[str, Any]:
    """What switching to the safest discard as near to ready would do, by threshold, per
    seat and hand (the unit of the races' margins)."""
    n = 4 * hands
    arr = np.array(pairs) if pairs else np.zeros((0, 4))
    pa, pb, la, lb = arr.T
    fa, fb = la > 0, lb > 0
    rules = []
    for d in DELTAS:
        sw = pa - pb > d
        rules.append({"delta": d, "switches": round(float(sw.sum()) / n, 4),
                      "feeds_avoided": round(float((sw & fa & ~fb).sum()) / n, 4),
                      "feeds_caused": round(float((sw & fb & ~fa).sum()) / n, 4),
                      "feed_points_saved": round(float((la - lb)[sw].sum()) / n, 3)})
    oracle = fa & ~fb
    return {"positions": int(len(arr)), "unit": "per seat and hand",
            "oracle_switches": round(float(oracle.sum()) / n, 4),
            "oracle_feed_points_saved": round(float(la[oracle].sum()) / n, 3),
            "rules": rules}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--weights", required=True)
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--seed", default="diag")
    ap.add_argument("--preset", default="kaikoufan")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--pairs", action="store_true",
                    help="also: at each discard, the kind as near to ready that the model rates "
                         "safest; for a switch threshold delta, the feeds (and their points) a "
                         "switch would avoid and cause (the hand's own value aside)")
    args = ap.parse_args(argv)
    try:
        model = DangerModel.load(args.weights)
    except (OSError, ValueError, KeyError) as exc:
        raise SystemExit(f"danger_calibration: cannot read {args.weights}: {exc}") from None
    rules = RuleSet.preset(args.preset)
    chances: list[float] = []
    fed: list[bool] = []
    losses: list[float] = []
    pairs: list[tuple[float, float, float, float]] = []  # p(a), p(alt), loss(a), loss(alt)
    for i in range(args.hands):
        bots = [ExpertBot(bot_seed(args.seed, i, s)) for s in range(4)]
        tracker = CutTracker()

        def policy(state: HandState, seat: int, legal: list[Action],
                   bots: list[ExpertBot] = bots, tracker: CutTracker = tracker) -> Action:
            tracker.sync(state)
            if len(legal) == 1:
                tracker.record(state, seat, legal[0])
                return legal[0]
            v = SeatView.from_state(state, seat, legal, copy=False)
            a = bots[seat].act(v)
            if (a.type == "discard" and a.tile is not None and a.tile != v.setup.laizi
                    and a.tile not in v.setup.special):
                kinds = sorted({x.tile for x in v.legal if x.type == "discard" and x.tile is not None
                                and x.tile != v.setup.laizi and x.tile not in v.setup.special}
                               | {a.tile})
                chance = _chances(model, v, kinds if args.pairs else [a.tile], tracker.cuts,
                                  state)
                chances.append(chance[a.tile])
                loss = feed_loss(state, seat, a)
                alt = _same_step_alternative(v, a, chance) if args.pairs else None
                if alt is not None:
                    pairs.append((chance[a.tile], chance[alt], loss,
                                  feed_loss(state, seat, Action("discard", alt))))
                fed.append(loss > 0)
                losses.append(loss)
            tracker.record(state, seat, a)
            return a

        play_hand(HandState.new(rules, i % 4, seed=sim_hand_seed(args.seed, i), hand_no=1), policy)
        if (i + 1) % 50 == 0:
            print(f"  {i + 1}/{args.hands} hands", file=sys.stderr, flush=True)
    p, y, loss_arr = np.array(chances), np.array(fed), np.array(losses)
    pos, neg = np.sort(p[y]), np.sort(p[~y])
    auc = float(np.searchsorted(neg, pos).sum() / max(1, len(pos) * len(neg)))
    bands: list[dict[str, Any]] = []
    for lo, hi in BANDS:
        sel = (p >= lo) & (p < hi)
        bands.append({"band": [lo, min(hi, 1.0)], "discards": int(sel.sum()),
                      "feed_rate": round(float(y[sel].mean()), 4) if sel.any() else None,
                      "share_of_feeds": round(float(y[sel].sum() / max(1, y.sum())), 4)})
    out = {"weights": args.weights, "hands": args.hands, "seed": args.seed, "preset": args.preset,
           "discards": int(len(p)), "feed_rate": round(float(y.mean()), 4),
           "mean_loss_when_fed": round(float(loss_arr[y].mean()), 1) if y.any() else None,
           "auc": round(auc, 4), "bands": bands,
           **({"pairs": _pairs(pairs, args.hands)} if args.pairs else {}),
           "command": " ".join(["python", "benchmarks/danger_calibration.py", *sys.argv[1:]])}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['discards']} discards, feed rate {out['feed_rate']}, mean loss when fed "
              f"{out['mean_loss_when_fed']}, AUC {out['auc']}")
        for b in bands:
            print(f"  chance {b['band'][0]:.2f}-{b['band'][1]:.2f}: {b['discards']:6d} discards, "
                  f"feed rate {b['feed_rate']}, share of feeds {b['share_of_feeds']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
