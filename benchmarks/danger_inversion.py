#!/usr/bin/env python
"""Reading an opponent's hand by inverting its policy (issue 28, round 13; a measurement).

Rounds 10–12 found that no model of the seat's view reads the table precisely enough to
avoid feeds (AUC ~0.90 on ``expert``'s discards). The road they left: the opponents are
``expert``, so what each one discarded says something of the hand it kept. This asks how
much, before anything is built on it.

At every discard ``expert`` makes (not a laizi or a 红中/皮子), for each opponent:

- **uniform**: ``--samples`` worlds consistent with the seat's view
  (:func:`laizi.bots.worlds.sample_world`), the opponent's concealed tiles dealt at random
  from the unseen copies;
- **inverted**: only the worlds in which ``expert``, put in the opponent's seat at its last
  discard with that sampled hand (the hand it kept plus the tile it threw; the drawn tile
  as the table showed it, 摸切 or 手切), would have thrown the same tile: rejection
  sampling, up to ``--trials`` worlds per opponent for ``--samples`` accepted. The
  ``expert`` that judges is seeded on its own (the opponents' seeds are not known);
  ``true_accepted`` says how often the opponent's true hand passes that judge;

and per kind the seat may discard, the share of those worlds in which the opponent may win
on it (the opponents taken as independent) against the true table (does some opponent win
on it, what does the discarder pay: ``ab_defence_oracle.feed_loss``). ``--weights`` adds
the danger model (:class:`laizi.bots.experimental.danger.DangerModel`) on the same
discards. Reported per reader: the AUC of ``expert``'s discards (does a feeding discard
rate above a safe one) and, as ``danger_calibration.py --pairs`` does, what switching to
the kind as near to ready that the reader rates safer by more than δ would save and cause
(per seat and hand; the hand's own value aside), beside a perfect reader (the oracle).

    python benchmarks/danger_inversion.py --hands 120 --seed inv13 --workers 2 \\
        --weights benchmarks/results/danger_model_d68.json --json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
from ab_defence_oracle import feed_loss, shanten_after  # noqa: E402
from danger_calibration import _pairs  # noqa: E402
from fit_danger import true_distance  # noqa: E402

from laizi.bots.base import SeatView  # noqa: E402
from laizi.bots.experimental.danger import DangerModel, features  # noqa: E402
from laizi.bots.expert import ExpertBot  # noqa: E402
from laizi.bots.toolkit import natural  # noqa: E402
from laizi.bots.worlds import sample_world  # noqa: E402
from laizi.distributed import local_pool  # noqa: E402
from laizi.game.actions import Action  # noqa: E402
from laizi.game.play import play_hand  # noqa: E402
from laizi.game.state import HandState, Phase  # noqa: E402
from laizi.rules import PRESETS, RuleSet  # noqa: E402
from laizi.sim import bot_seed, sim_hand_seed  # noqa: E402

READERS = ("uniform", "inverted", "ready", "ready_inverted", "model")
JUDGE_SEED = 913  # the judge's own seed (not any opponent's)


def _may_ron(world: HandState, seat: int, k: int, o: int) -> bool:
    st = world.clone()
    st.apply(seat, Action("discard", k))
    # a win on the discard is offered in the claim window only (no window: nobody may win on it;
    # a built hand's world is not put right, so the turn that follows is not asked)
    return (not st.over and st.phase == Phase.CLAIM and o in st.to_act()
            and any(a.type == "ron" for a in st.legal_actions(o)))


def _as_then(then: HandState, o: int, kept: list[int], thrown: int, drawn: bool,
             rng: random.Random) -> HandState:
    """The table at opponent ``o``'s last discard, with ``kept`` + ``thrown`` as its hand."""
    st = then.clone()
    hand = list(kept)
    hand[thrown] += 1
    if not st.after_claim:
        if drawn:
            st.last_draw = thrown
        else:  # 手切: the drawn tile is one it kept (which one, the table does not show)
            st.last_draw = rng.choice([k for k, c in enumerate(kept) for _ in range(c)])
    return _with_hand(st, o, hand)


def _ready_hand(pool: list[int], n: int, rng: random.Random) -> list[int] | None:
    """A ready hand of ``n`` tiles drawn from the copies ``pool`` (laizi and 红中/皮子 taken
    out): a complete hand of ``n + 1`` (a 2/5/8 pair and sets: a third triplets, the rest
    sequences, each picked at random among those the copies allow) less one tile at random.
    None when ``n + 1`` tiles cannot be a pair and sets, or 20 tries found none."""
    if n < 1 or (n - 1) % 3:
        return None
    for _ in range(20):
        c = list(pool)
        hand = [0] * len(pool)
        pairs = [k for k in range(27) if k % 9 in (1, 4, 7) and c[k] >= 2]
        if not pairs:
            return None
        k = rng.choice(pairs)
        c[k] -= 2
        hand[k] += 2
        for _ in range((n - 1) // 3):
            if rng.random() < 1 / 3:
                opts = [(k, k, k) for k in range(27) if c[k] >= 3]
            else:
                opts = [(k, k + 1, k + 2) for k in range(27)
                        if k % 9 <= 6 and c[k] and c[k + 1] and c[k + 2]]
            if not opts:
                break
            for t in rng.choice(opts):
                c[t] -= 1
                hand[t] += 1
        else:
            out = rng.choice([k for k, m in enumerate(hand) for _ in range(m)])
            hand[out] -= 1
            return hand
    return None


def _with_hand(world: HandState, o: int, hand: list[int]) -> HandState:
    """``world`` with ``hand`` as seat ``o``'s concealed tiles, the caches of the hand it had
    dropped (the wall is not put right: whether ``o`` may win on a discard does not read it)."""
    world.hands[o] = list(hand)
    world._turn_cache = None
    world._tsumo = None
    world._ron_results = {}
    return world


def _sampled(draw: Callable[[], list[int] | None], judge: ExpertBot,
             rec: tuple[HandState, int, bool] | None, o: int, samples: int, trials: int,
             rng: random.Random, out: dict[str, Any]) -> tuple[list[list[int]], list[list[int]]]:
    """Up to ``samples`` hands of opponent ``o`` from ``draw`` as they come, and as many that
    the judge passes at its last discard ``rec`` (all of them when it has none yet), from at
    most ``trials`` draws."""
    plain: list[list[int]] = []
    passed: list[list[int]] = []
    for _ in range(trials):
        h = draw()
        if h is None:
            break
        if len(plain) < samples:
            plain.append(h)
        if rec is None:  # no discard yet: nothing to invert
            passed.append(h)
        else:
            then, thrown, drawn = rec
            out["trials"] += 1
            if _judged(judge, _as_then(then, o, h, thrown, drawn, rng), o, thrown):
                out["accepted"] += 1
                passed.append(h)
        if len(passed) >= samples and len(plain) >= samples:
            break
    if len(passed) < samples:
        out["short"] += 1
    return plain, passed


def _judged(judge: ExpertBot, st: HandState, o: int, thrown: int) -> bool:
    a = judge.act(SeatView.from_state(st, o, st.legal_actions(o)))
    return a.type == "discard" and a.tile == thrown


def _hand(args: tuple[str, str, int, int, int, str | None, bool]) -> dict[str, Any]:
    preset, seed, i, samples, trials, weights, ready = args
    rules = RuleSet.preset(preset)
    model = DangerModel.load(weights) if weights else None
    bots = [ExpertBot(bot_seed(seed, i, s)) for s in range(4)]
    judge = ExpertBot(JUDGE_SEED)
    rng = random.Random(f"{seed}:{i}")
    last: list[tuple[HandState, int, bool] | None] = [None] * 4
    out: dict[str, Any] = {"chances": {r: [] for r in READERS}, "loss": [],
                           "rows": {r: [] for r in READERS}, "row_y": [], "row_ready": [],
                           "pairs": {r: [] for r in READERS}, "trials": 0, "accepted": 0,
                           "short": 0, "true_judged": 0, "true_accepted": 0}

    def policy(state: HandState, seat: int, legal: list[Action]) -> Action:
        if len(legal) == 1:
            a = legal[0]
        else:
            v = SeatView.from_state(state, seat, legal, copy=False)
            a = bots[seat].act(v)
            lz, special = v.setup.laizi, v.setup.special
            if a.type == "discard" and a.tile is not None and a.tile != lz and a.tile not in special:
                _measure(state, seat, v, a, lz, special)
        if a.type == "discard" and a.tile is not None:
            last[seat] = (state.clone(), a.tile, not state.after_claim and state.last_draw == a.tile)
        return a

    def _measure(state: HandState, seat: int, v: SeatView, a: Action, lz: int,
                 special: Any) -> None:
        assert a.tile is not None
        kinds = sorted({x.tile for x in v.legal if x.type == "discard" and x.tile is not None
                        and x.tile != lz and x.tile not in special} | {a.tile})
        view = SeatView.from_state(state, seat, v.legal)  # a copy: sample_world keeps it
        far = true_distance(state, v)
        unseen = view.unseen()
        pool = list(unseen)
        pool[lz] = 0
        for k in special:
            pool[k] = 0
        names = ("ready", "ready_inverted") if ready else ("uniform", "inverted")
        safe = {r: {k: 1.0 for k in kinds} for r in names}  # per reader and kind: no opponent wins
        base = sample_world(view, rng)
        assert base is not None
        for o in range(4):
            if o == seat:
                continue
            rec = last[o]
            if rec is not None:  # the true hand before the judge (is the judge the opponent?)
                then, thrown, drawn = rec
                out["true_judged"] += 1
                out["true_accepted"] += _judged(
                    judge, _as_then(then, o, list(state.hands[o]), thrown, drawn, rng), o, thrown)
            if ready:
                def draw(o: int = o) -> list[int] | None:
                    return _ready_hand(pool, view.hand_sizes[o], rng)
            else:
                def draw(o: int = o) -> list[int] | None:
                    w = sample_world(view, rng)
                    return None if w is None else list(w.hands[o])
            plain, passed = _sampled(draw, judge, rec, o, samples, trials, rng, out)
            for r, hands in zip(names, (plain, passed or plain), strict=True):
                for k in kinds:
                    p = sum(_may_ron(_with_hand(base, o, h), seat, k, o)
                            for h in hands) / max(1, len(hands))
                    safe[r][k] *= 1.0 - p
                    out["rows"][r].append(p)
            out["row_y"].extend(_may_ron(state, seat, k, o) for k in kinds)
            out["row_ready"].extend([far[o][0] == 1.0] * len(kinds))
            if model is not None:
                out["rows"]["model"].extend(
                    model.prob(np.asarray([features(view, k, o, unseen) for k in kinds])).tolist())
        chance = {r: {k: 1.0 - safe[r][k] for k in kinds} for r in safe}
        if model is not None:
            chance["model"] = model.feed_chance(v, kinds)
        losses = {k: feed_loss(state, seat, Action("discard", k)) for k in kinds}
        out["loss"].append(losses[a.tile])
        nat, wilds = natural(v)
        sh_a = shanten_after(v, nat, wilds, a.tile)
        alts = [k for k in kinds if k != a.tile and shanten_after(v, nat, wilds, k) <= sh_a]
        for r, c in chance.items():
            out["chances"][r].append(c[a.tile])
            if alts:
                alt = min(alts, key=lambda k: c[k])
                out["pairs"][r].append((c[a.tile], c[alt], losses[a.tile], losses[alt]))

    play_hand(HandState.new(rules, i % 4, seed=sim_hand_seed(seed, i), hand_no=1), policy)
    return out


def _auc(p: np.ndarray, y: np.ndarray) -> float:
    pos, neg = np.sort(p[y]), np.sort(p[~y])
    lo = np.searchsorted(neg, pos, side="left")
    hi = np.searchsorted(neg, pos, side="right")
    return float((lo + 0.5 * (hi - lo)).sum() / max(1, len(pos) * len(neg)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=120)
    ap.add_argument("--seed", default="inv13")
    ap.add_argument("--preset", default="kaikoufan")
    ap.add_argument("--samples", type=int, default=12, help="worlds per opponent and reader")
    ap.add_argument("--trials", type=int, default=400, help="worlds tried per opponent at most")
    ap.add_argument("--weights", default="", help="a danger model to read the same discards")
    ap.add_argument("--ready", action="store_true",
                    help="read with ready hands built from the unseen copies (uniform, and "
                         "inverted at the last discard) in place of dealt worlds")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if a.hands < 1 or a.samples < 1 or a.trials < a.samples or a.workers < 1:
        ap.error("--hands, --samples and --workers at least 1; --trials at least --samples")
    if a.preset not in PRESETS:
        ap.error(f"--preset: one of {', '.join(PRESETS)}")
    if a.weights:
        try:
            DangerModel.load(a.weights)
        except (OSError, ValueError, KeyError) as exc:
            ap.error(f"--weights: cannot read {a.weights}: {exc}")
    jobs = [(a.preset, a.seed, i, a.samples, a.trials, a.weights or None, a.ready)
            for i in range(a.hands)]
    t0 = time.time()
    done: list[dict[str, Any]] = []
    with local_pool(a.workers) as pool:  # (Ctrl-C: one line, the workers stopped)
        for res in pool.imap(_hand, jobs):
            done.append(res)
            if len(done) % 10 == 0 or len(done) == a.hands:
                print(f"  {len(done)}/{a.hands} hands, {time.time() - t0:.0f} s", file=sys.stderr,
                      flush=True)
    loss = np.array([x for d in done for x in d["loss"]])
    fed = loss > 0
    readers = [r for r in READERS if (r == "model" and a.weights)
               or (r != "model" and r.startswith("ready") == a.ready)]
    row_y = np.array([x for d in done for x in d["row_y"]], dtype=bool)
    ready_rows = np.array([x for d in done for x in d["row_ready"]], dtype=bool)
    out: dict[str, Any] = {
        "hands": a.hands, "seed": a.seed, "preset": a.preset, "samples": a.samples,
        "trials": a.trials, "discards": int(len(loss)), "feeds": int(fed.sum()),
        "rows": int(len(row_y)), "rows_winning": int(row_y.sum()),
        "rows_of_ready_opponents": int(ready_rows.sum()),
        "feed_rate": round(float(fed.mean()), 4) if len(loss) else None,
        "acceptance": round(sum(d["accepted"] for d in done) / max(1, sum(d["trials"] for d in done)), 4),
        "short_of_samples": sum(d["short"] for d in done),
        "true_accepted": round(sum(d["true_accepted"] for d in done)
                               / max(1, sum(d["true_judged"] for d in done)), 4),
        "readers": {}, "seconds": round(time.time() - t0, 1),
        "command": " ".join(["python", "benchmarks/danger_inversion.py", *sys.argv[1:]])}
    for r in readers:
        p = np.array([x for d in done for x in d["chances"][r]])
        pairs = [x for d in done for x in d["pairs"][r]]
        rows = np.array([x for d in done for x in d["rows"][r]])
        out["readers"][r] = {"auc": round(_auc(p, fed), 4), "auc_rows": round(_auc(rows, row_y), 4),
                             # which tiles, when the opponent is truly ready
                             "auc_ready_rows": round(_auc(rows[ready_rows], row_y[ready_rows]), 4),
                             "pairs": _pairs(pairs, a.hands)}
    if a.json:
        print(json.dumps(out))
    else:
        print(f"{out['discards']} discards of expert, {out['feeds']} feeds; acceptance "
              f"{out['acceptance']}, the true hand accepted {out['true_accepted']}")
        for r in readers:
            best = max(out["readers"][r]["pairs"]["rules"], key=lambda x: x["feed_points_saved"])
            print(f"  {r:9s} AUC {out['readers'][r]['auc']:.4f} (rows {out['readers'][r]['auc_rows']:.4f}, "
                  f"ready opponents' rows {out['readers'][r]['auc_ready_rows']:.4f}); best switch rule δ={best['delta']}: "
                  f"{best['feed_points_saved']} feed points saved per seat and hand, "
                  f"{best['switches']} switches, feeds avoided {best['feeds_avoided']} caused "
                  f"{best['feeds_caused']}")
        print(f"  oracle: {out['readers'][readers[0]]['pairs']['oracle_feed_points_saved']} feed "
              "points saved per seat and hand")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
