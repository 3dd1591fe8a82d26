#!/usr/bin/env python
"""Train the ``learned`` bot's critic (``laizi/data/learned_policy.json``) from nothing.

Three resumable phases (``--phase all`` runs them in order):

1. ``gen`` — teacher data. Hands of ``expert`` at every seat (kaikoufan, dealt from
   ``sha256("laizi-learned-train|SEED|shard|game")``, never an arena seed). At every
   claim decision with a choice and at a share (``--discard-share``) of the discard
   decisions, the candidates of :func:`laizi.bots.learned.candidates` are each played
   out to the end of the hand in ``--worlds`` worlds — the true one and worlds dealt
   anew from the tiles the seat cannot see — with ``expert`` at every seat afterwards
   (the same world and bot seeds for every candidate: common random numbers). A
   candidate's label is its mean points for the seat. One ``.npz`` per shard in
   ``OUT/shards`` (a finished shard is never redone: stop and rerun to resume).
2. ``train`` — per head (discard, claim) a one-hidden-layer tanh MLP plus a linear
   term, numpy and Adam, on each decision's candidates' points *relative to the
   decision's mean* (the deal's luck cancels). The last ``--val-share`` of the shards
   are held out; the margin by which a candidate must beat ``expert``'s choice is
   chosen on them (the realised teacher points of the policy). Checkpoints after every
   epoch (``OUT/ckpt_HEAD.npz``: rerun to continue).
3. ``export`` — the weights as JSON into the package, the curve as a PNG and a summary.

Two more: ``--phase tune`` (round 3) races the knobs of :class:`laizi.bots.learned.Knobs`
on duplicate deals (``--tune-variants FILE``: generation 0 races those named settings
instead of random neighbours, round 5); ``--phase paired`` plays the ``--export`` file's
setting and each ``--tune-variants`` setting against three ``expert`` on the deals of the
integer arena seeds ``--paired-seeds`` (what ``laizi arena --seed S`` plays) and reports
each one's margin over ``expert`` and its difference to the first on the same deals.

Round 8 (``docs/learned.md``), both off by default: ``--label-cv`` makes ``gen`` record
each playout's wall-draw luck (``LUCK_FEATURES``, mean zero given the past) and ``train``
learn from the variance-cut labels ``y − β · luck``; ``--wall-shuffles`` makes ``gen``'s
worlds after the true one the true world with its undrawn wall shuffled. A
``--tune-variants`` entry of ``--phase paired`` may name its own ``"weights"`` file.

``--data DIR`` (repeatable) trains on the shards of other run directories too (each
directory's last ``--val-share`` held out); ``--phase eval --weights FILE`` measures a
weights file's heads on every shard of ``--out`` and the ``--data`` directories.

Usage (the whole run is seeded; progress goes to stdout)::

    nice -n 19 python scripts/train_policy.py --out runs/learned --workers 2 \
        --gen-minutes 60 --seed 28

``--budget-minutes N`` bounds the whole run's wall time (generation ends early enough
for training and ``--tune-minutes`` of tuning; no tuning block starts after N minutes).
Every phase's wall time and the total are logged and appended to ``OUT/run_times.jsonl``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from laizi.analysis.fast import waits
from laizi.analysis.profiles import shanten258
from laizi.bots.base import SeatView
from laizi.bots.expert import ExpertBot
from laizi.bots.learned import CLAIM_FEATURES, DISCARD_FEATURES, WEIGHTS, candidates
from laizi.bots.outlook import improving_258
from laizi.distributed import local_pool
from laizi.game.actions import Action
from laizi.game.state import HandState
from laizi.rules import RuleSet
from laizi.scoring.tablefan import table_fan

ROOT = Path(__file__).resolve().parents[1]
KMAX = {"discard": 4, "claim": 6}
NFEAT = {"discard": len(DISCARD_FEATURES), "claim": len(CLAIM_FEATURES)}
HEADS = ("discard", "claim")
Y_SCALE = 100.0  # the network learns points / 100 (a hand's points vary by hundreds)
#: round 8, ``--label-cv``: the luck of a playout's wall draws, summed over its draws —
#: for the labelled seat's own draws and for the other seats' (added up): did the drawn
#: tile win (complete a ready hand's waits, or a laizi to a ready hand) and did it lower
#: the drawer's 2/5/8 shanten, each minus its chance over the tiles left in the wall; and
#: the win terms weighted by the size of what a self-draw would pay: for the seat's own
#: draws ``Σ 2^(its table fan + each loser's)``, for another seat's ``2^(its fan + the
#: labelled seat's)`` (each exponent capped at 6, divided by 8). Each term has mean zero
#: given everything before its draw (the undrawn wall is exchangeable and the weights are
#: known before it), so ``label − β · luck`` is an unbiased label for any fixed β (a
#: control variate).
LUCK_FEATURES: tuple[str, ...] = ("own_win", "own_improve", "opp_win", "opp_improve",
                                  "own_win_fan", "opp_win_fan")
NLUCK = len(LUCK_FEATURES)


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


# ----------------------------------------------------------------------------- teacher
def _fans(st: HandState) -> list[int]:
    lz = st.setup.laizi
    return [table_fan(st.rules, lz, st.melds[s], st.special_kongs[s], st.special_discards[s])
            for s in range(4)]


def draw_luck(st: HandState, front: int, back: int) -> tuple[int, float, float] | None:
    """The luck of the one wall draw just made (the wall was ``front..back`` before it):
    (drawer, win luck, improve luck), each ``1[the drawn tile does it] − its chance over
    the tiles then left in the wall``; None unless exactly one tile was drawn."""
    if (st.front - front) + (back - st.back) != 1 or st.last_draw is None:
        return None
    s = st.turn
    t = st.last_draw
    left = st.wall[front:back + 1]
    h = list(st.hands[s])
    h[t] -= 1  # the hand before the draw (3n+1 tiles)
    lz = st.setup.laizi
    wilds = h[lz]
    h[lz] = 0
    for k in st.setup.special:
        h[k] = 0
    n = 4 - len(st.melds[s])
    sh = max(0, shanten258(h, wilds, n))
    win: set[int] = set()
    if sh == 0:
        win = set(waits(h, wilds, pair258=True))
        if win:
            win.add(lz)
        imp = win
    else:
        imp = set(improving_258(h, wilds, n, sh))
        imp.add(lz)
    size = max(1, len(left))
    p_win = sum(1 for k in left if k in win) / size if win else 0.0
    p_imp = sum(1 for k in left if k in imp) / size
    return s, float(t in win) - p_win, float(t in imp) - p_imp


def playout(st: HandState, seat: int, first: Action, seed: int, max_steps: int = 400,
            luck: list[float] | None = None) -> float:
    """Points of ``seat`` after playing ``first`` then ``expert`` everywhere; with
    ``luck`` (``NLUCK`` zeros), the playout's draw luck (``LUCK_FEATURES``) is added
    into it."""

    def step(s: int, a: Action) -> None:
        f, b = st.front, st.back
        st.apply(s, a)
        if luck is not None:
            r = draw_luck(st, f, b)
            if r is not None:
                off = 0 if r[0] == seat else 2
                luck[off] += r[1]
                luck[off + 1] += r[2]
                if r[1]:  # the fans before the draw (a draw changes none)
                    fan = _fans(st)
                    if r[0] == seat:
                        w = sum(2.0 ** min(6, fan[seat] + fan[x]) for x in range(4) if x != seat)
                    else:
                        w = 2.0 ** min(6, fan[r[0]] + fan[seat])
                    luck[4 + (off > 0)] += r[1] * w / 8.0

    step(seat, first)
    bots = [ExpertBot(seed + s) for s in range(4)]
    steps = 0
    while not st.over and steps < max_steps:
        steps += 1
        for s in st.to_act():
            if st.over:
                break
            legal = st.legal_actions(s)
            if not legal:
                continue
            a = legal[0] if len(legal) == 1 else bots[s].act(
                SeatView.from_state(st, s, legal, copy=False))
            step(s, a)
    return float((st.payments or [0.0] * 4)[seat]) if st.over else 0.0


def shuffled_wall(st: HandState, rng: random.Random) -> HandState:
    """The true world with the order of its undrawn live wall shuffled (round 8,
    ``--wall-shuffles``): every hand as it truly is, only the draws to come dealt anew —
    as likely as the true order given everything so far, so its playouts are unbiased
    labels too."""
    w = st.clone()
    live = list(w.wall[w.front:w.back + 1])
    rng.shuffle(live)
    w.wall = (*w.wall[:w.front], *live, *w.wall[w.back + 1:])
    return w


def label(st: HandState, seat: int, view: SeatView, acts: list[Action], worlds: int,
          rng: random.Random, sampler: ExpertBot,
          lucks: list[list[float]] | None = None, shuffles: bool = False) -> list[float] | None:
    """Mean points of each candidate over the true world and ``worlds − 1`` resampled
    (``shuffles``: the true world with its undrawn wall shuffled, :func:`shuffled_wall`);
    with ``lucks`` (one list of ``NLUCK`` zeros per candidate), each candidate's mean
    draw luck too (``--label-cv``)."""
    states = [st.clone()]
    while shuffles and len(states) < worlds:
        states.append(shuffled_wall(st, rng))
    tries = 0
    while len(states) < worlds and tries < 3 * worlds:
        tries += 1
        w = sampler._sample(view, rng)
        if w is not None:
            states.append(w)
    totals = [0.0] * len(acts)
    for w in states:
        pseed = rng.getrandbits(31)
        for i, a in enumerate(acts):
            lk = [0.0] * NLUCK if lucks is not None else None
            totals[i] += playout(w.clone(), seat, a, pseed, luck=lk)
            if lucks is not None and lk is not None:
                lucks[i] = [x + y / len(states) for x, y in zip(lucks[i], lk, strict=True)]
    return [t / len(states) for t in totals]


def gen_shard(job: tuple[int, int, int, int, float, str, str, bool, bool]
              ) -> tuple[int, dict[str, int], float]:
    shard, seed, games, worlds, share, preset, out, cv, shuffles = job
    t0 = time.time()
    rules = RuleSet.preset(preset)
    rng = random.Random(f"laizi-learned-rng|{seed}|{shard}")
    sampler = ExpertBot(seed)
    data: dict[str, dict[str, list[Any]]] = {h: {"X": [], "Y": [], "D": [], "L": []}
                                             for h in HEADS}
    for g in range(games):
        hseed = hashlib.sha256(f"laizi-learned-train|{seed}|{shard}|{g}".encode()).digest()
        st = HandState.new(rules, g % 4, seed=hseed)
        bots = [ExpertBot(rng.getrandbits(31)) for _ in range(4)]
        while not st.over:
            for s in st.to_act():
                if st.over:
                    break
                legal = st.legal_actions(s)
                if not legal:
                    continue
                if len(legal) == 1:
                    st.apply(s, legal[0])
                    continue
                view = SeatView.from_state(st, s, legal)
                a = bots[s].act(view)
                c = candidates(view, bots[s], a)
                if c is not None and (c.kind == "claim" or rng.random() < share):
                    lucks = [[0.0] * NLUCK for _ in c.actions] if cv else None
                    y = label(st, s, view, c.actions, worlds, rng, sampler, lucks, shuffles)
                    if y is not None:
                        k = KMAX[c.kind]
                        x = np.zeros((k, NFEAT[c.kind]), np.float32)
                        yy = np.full(k, np.nan, np.float32)
                        x[: len(c.rows)] = np.asarray(c.rows[:k], np.float32)
                        yy[: len(y)] = np.asarray(y[:k], np.float32)
                        d = data[c.kind]
                        d["X"].append(x)
                        d["Y"].append(yy)
                        d["D"].append(c.default)
                        if lucks is not None:
                            lk = np.zeros((k, NLUCK), np.float32)
                            lk[: len(lucks)] = np.asarray(lucks[:k], np.float32)
                            d["L"].append(lk)
                st.apply(s, a)
    arrays: dict[str, Any] = {}
    counts = {}
    for h in HEADS:
        d = data[h]
        n = len(d["D"])
        counts[h] = n
        arrays[f"{h}_X"] = np.stack(d["X"]) if n else np.zeros((0, KMAX[h], NFEAT[h]), np.float32)
        arrays[f"{h}_Y"] = np.stack(d["Y"]) if n else np.zeros((0, KMAX[h]), np.float32)
        arrays[f"{h}_D"] = np.asarray(d["D"], np.int64)
        if cv:
            arrays[f"{h}_L"] = (np.stack(d["L"]) if n else
                                np.zeros((0, KMAX[h], NLUCK), np.float32))
    arrays["games"] = np.asarray(games)
    arrays["worlds"] = np.asarray(worlds)  # the labels' worlds (1: the true world only)
    arrays["wall_shuffles"] = np.asarray(shuffles)  # worlds: the true one, its wall shuffled
    arrays["seed"] = np.asarray(seed)
    path = Path(out) / "shards" / f"shard_{shard:05d}.npz"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, path)
    return shard, counts, time.time() - t0


def phase_gen(a: argparse.Namespace, deadline: float | None = None) -> None:
    """Generate shards until all are done or ``deadline`` (default: ``--gen-minutes``
    from now) passes; the shards in flight then finish."""
    out = Path(a.out)
    (out / "shards").mkdir(parents=True, exist_ok=True)
    todo = [i for i in range(a.shards) if not (out / "shards" / f"shard_{i:05d}.npz").exists()]
    log(f"gen: {a.shards - len(todo)} shards done, {len(todo)} to go "
        f"({a.games} hands each, {a.worlds} worlds, discard share {a.discard_share})")
    stop = deadline if deadline is not None else time.time() + 60 * a.gen_minutes
    jobs = [(i, a.seed, a.games, a.worlds, a.discard_share, a.preset, str(out), a.label_cv,
             a.wall_shuffles) for i in todo]
    done = 0

    def in_time() -> Iterator[tuple[Any, ...]]:
        # the first two per worker start whatever the clock; later ones only before the deadline
        for k, j in enumerate(jobs):
            if k >= 2 * a.workers and time.time() >= stop:
                return
            yield j

    # (local_pool, not multiprocessing.Pool: its terminate could hang for ever after a Ctrl-C
    # while a worker wrote a result; laizi.distributed says how)
    with local_pool(a.workers, max_tasks=20) as pool:
        for shard, counts, secs in pool.imap(gen_shard, in_time()):
            done += 1
            log(f"gen: shard {shard} in {secs:.0f} s: {counts['discard']} discard, "
                f"{counts['claim']} claim decisions ({done}/{len(todo)})")
    log("gen: stopped (time budget or all shards done)")


# ----------------------------------------------------------------------------- training
def load(dirs: list[Path], val_share: float) -> dict[str, dict[str, np.ndarray]]:
    """Every shard of the run directories ``dirs``; the last ``val_share`` of each
    directory's shards (in shard order) are held out."""
    split: dict[str, list[Path]] = {"train": [], "val": []}
    nfiles = nval = 0
    for d in dirs:
        files = sorted((d / "shards").glob("shard_*[0-9].npz"))
        if not files:
            raise SystemExit(f"train_policy: no shards in {d / 'shards'}")
        k = max(1, int(round(len(files) * val_share)))
        split["train"] += files[:-k]
        split["val"] += files[-k:]
        nfiles += len(files)
        nval += k
    data: dict[str, dict[str, np.ndarray]] = {}
    hands = 0
    for part, fs in split.items():
        for h in HEADS:
            xs, ys, ds, ls = [], [], [], []
            for f in fs:
                z = np.load(f)
                xs.append(z[f"{h}_X"])
                ys.append(z[f"{h}_Y"])
                ds.append(z[f"{h}_D"])
                # the draw luck (--label-cv shards); NaN where a shard has none
                ls.append(z[f"{h}_L"] if f"{h}_L" in z.files else
                          np.full((*z[f"{h}_Y"].shape, NLUCK), np.nan, np.float32))
                if h == "discard":
                    hands += int(z["games"])
            data[f"{part}_{h}"] = {"X": np.concatenate(xs), "Y": np.concatenate(ys),
                                   "D": np.concatenate(ds), "L": np.concatenate(ls)}
    data["meta"] = {"hands": np.asarray(hands), "shards": np.asarray(nfiles),
                    "val_shards": np.asarray(nval)}
    return data


def init_params(nf: int, hidden: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    return {"w1": rng.normal(0, 1 / np.sqrt(nf), (hidden, nf)), "b1": np.zeros(hidden),
            "w2": rng.normal(0, 0.1, hidden), "lin": np.zeros(nf)}


def forward(p: dict[str, np.ndarray], z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    h = np.tanh(z @ p["w1"].T + p["b1"])
    return h @ p["w2"] + z @ p["lin"], h


def centred(y: np.ndarray, m: np.ndarray) -> np.ndarray:
    cnt = m.sum(1, keepdims=True)
    return np.where(m, y - (np.where(m, y, 0).sum(1, keepdims=True) / cnt), 0.0)


def loss_grad(p: dict[str, np.ndarray], z: np.ndarray, yc: np.ndarray, m: np.ndarray,
              l2: float) -> tuple[float, dict[str, np.ndarray]]:
    s, h = forward(p, z)
    r = np.where(m, centred(s, m) - yc, 0.0)
    n = m.sum()
    loss = float((r ** 2).sum() / n)
    g = 2 * r / n  # d loss / d s (the centring drops out: r sums to zero per decision)
    gh = g[..., None] * p["w2"] * (1 - h ** 2)
    grads = {"w2": np.einsum("dk,dkh->h", g, h), "lin": np.einsum("dk,dkf->f", g, z),
             "w1": np.einsum("dkh,dkf->hf", gh, z), "b1": gh.sum((0, 1))}
    for k in ("w1", "w2", "lin"):
        loss += l2 * float((p[k] ** 2).sum())
        grads[k] = grads[k] + 2 * l2 * p[k]
    return loss, grads


def policy_gain(s: np.ndarray, y: np.ndarray, m: np.ndarray, d: np.ndarray,
                margin: float) -> tuple[float, float, float]:
    """(mean teacher points gained per decision over expert's choice, its standard error,
    share of decisions overridden) when the best-scored candidate replaces expert's
    choice by more than ``margin``."""
    idx = np.arange(len(d))
    ss = np.where(m, s, -np.inf)
    best = ss.argmax(1)
    over = (best != d) & (ss[idx, best] - ss[idx, d] > margin)
    pick = np.where(over, best, d)
    gain = np.where(m, y, 0)[idx, pick] - y[idx, d]
    se = float(gain.std() / np.sqrt(max(1, len(gain))))
    return float(gain.mean()), se, float(over.mean())


def cv_fit(y: np.ndarray, luck: np.ndarray, m: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    """The control variate's coefficients β (``NLUCK``): the least-squares fit of the
    candidates' points relative to their decision's mean on their draw luck, likewise
    centred (what differs between the candidates of a decision is what the network
    learns)."""
    yc = centred(np.nan_to_num(y), m)[m]
    lc = np.stack([centred(np.nan_to_num(luck[..., j]), m)[m] for j in range(luck.shape[-1])], 1)
    a = lc.T @ lc + ridge * len(yc) * np.eye(lc.shape[1])
    return np.asarray(np.linalg.solve(a, lc.T @ yc), np.float64)


def cv_labels(y: np.ndarray, luck: np.ndarray, beta: np.ndarray) -> np.ndarray:
    """The variance-cut labels ``y − β · luck`` (NaN stays NaN: no candidate)."""
    return np.asarray(y - np.nan_to_num(luck) @ beta, np.float64)


def label_spread(y: np.ndarray, d: np.ndarray, m: np.ndarray) -> tuple[float, float, int]:
    """(sd of each alternative's label minus ``expert``'s choice's, sd of the labels
    relative to their decision's mean, alternatives)."""
    idx = np.arange(len(d))
    alt = m.copy()
    alt[idx, d] = False
    diff = (np.nan_to_num(y) - np.nan_to_num(y)[idx, d][:, None])[alt]
    rel = centred(np.nan_to_num(y), m)[m]
    return float(diff.std()), float(rel.std()), int(diff.size)


def apply_cv(h: str, tr: dict[str, np.ndarray], va: dict[str, np.ndarray]) -> dict[str, Any]:
    """``--label-cv``: replace both splits' labels by ``y − β · luck``, β fitted on the
    training split; returns what it did (β, the spreads before and after)."""
    mtr, mva = ~np.isnan(tr["Y"]), ~np.isnan(va["Y"])
    if np.isnan(tr["L"][mtr]).any() or np.isnan(va["L"][mva]).any():
        raise SystemExit(f"train_policy: --label-cv needs draw luck in every shard ({h}: "
                         "generate with --label-cv)")
    beta = cv_fit(tr["Y"], tr["L"], mtr)
    before = label_spread(va["Y"], va["D"], mva)
    tr["Y"] = cv_labels(tr["Y"], tr["L"], beta)
    va["Y"] = cv_labels(va["Y"], va["L"], beta)
    after = label_spread(va["Y"], va["D"], mva)
    log(f"train {h}: label-cv β " + ", ".join(f"{n} {b:+.1f}" for n, b in zip(LUCK_FEATURES, beta, strict=True))
        + f"; held-out alternative − expert sd {before[0]:.1f} → {after[0]:.1f}, relative sd "
        f"{before[1]:.1f} → {after[1]:.1f} ({before[2]} alternatives)")
    return {"beta": dict(zip(LUCK_FEATURES, map(float, beta), strict=True)),
            "val_alt_sd_before": before[0], "val_alt_sd_after": after[0],
            "val_rel_sd_before": before[1], "val_rel_sd_after": after[1],
            "val_alternatives": before[2]}


def train_head(a: argparse.Namespace, h: str, data: dict[str, dict[str, np.ndarray]],
               out: Path) -> dict[str, Any]:
    tr, va = data[f"train_{h}"], data[f"val_{h}"]
    cv = apply_cv(h, tr, va) if getattr(a, "label_cv", False) and len(tr["D"]) else None
    mtr, mva = ~np.isnan(tr["Y"]), ~np.isnan(va["Y"])
    n_tr = len(tr["D"])
    log(f"train {h}: {n_tr} decisions ({int(mtr.sum())} candidates), "
        f"validation {len(va['D'])}")
    if n_tr < 50 or len(va["D"]) < 20:
        log(f"train {h}: too few decisions, head skipped")
        return {}
    flat = tr["X"][mtr]
    mu = flat.mean(0)
    sd = flat.std(0) + 1e-3
    ztr = np.where(mtr[..., None], (tr["X"] - mu) / sd, 0.0)
    zva = np.where(mva[..., None], (va["X"] - mu) / sd, 0.0)
    ytr = centred(np.nan_to_num(tr["Y"]), mtr) / Y_SCALE
    yva = centred(np.nan_to_num(va["Y"]), mva) / Y_SCALE
    rng = np.random.default_rng(a.seed)
    ckpt = out / f"ckpt_{h}.npz"
    p = init_params(len(mu), a.hidden, rng)
    adam_m = {k: np.zeros_like(v) for k, v in p.items()}
    adam_v = {k: np.zeros_like(v) for k, v in p.items()}
    curve: list[dict[str, float]] = []
    start = 0
    if ckpt.exists():
        z = np.load(ckpt, allow_pickle=False)
        if int(z["n_train"]) == n_tr:
            p = {k: z[k] for k in p}
            adam_m = {k: z["m_" + k] for k in p}
            adam_v = {k: z["v_" + k] for k in p}
            start = int(z["epoch"])
            curve = json.loads(str(z["curve"]))
            log(f"train {h}: resumed at epoch {start}")
        else:
            log(f"train {h}: checkpoint is for other data, starting over")
    base_va = float((yva[mva] ** 2).mean())
    step = start * -(-n_tr // a.batch)
    best = (min([r["val_mse"] for r in curve], default=np.inf), {k: v.copy() for k, v in p.items()})
    if ckpt.exists() and start:
        best = (best[0], {k: z["best_" + k] for k in p})
    for epoch in range(start, a.epochs):
        order = rng.permutation(n_tr)
        for b in range(0, n_tr, a.batch):
            i = order[b:b + a.batch]
            _l, g = loss_grad(p, ztr[i], ytr[i], mtr[i], a.l2)
            step += 1
            for k in p:
                adam_m[k] = 0.9 * adam_m[k] + 0.1 * g[k]
                adam_v[k] = 0.999 * adam_v[k] + 0.001 * g[k] ** 2
                mh = adam_m[k] / (1 - 0.9 ** step)
                vh = adam_v[k] / (1 - 0.999 ** step)
                p[k] = p[k] - a.lr * mh / (np.sqrt(vh) + 1e-8)
        ltr, _ = loss_grad(p, ztr, ytr, mtr, 0.0)
        lva, _ = loss_grad(p, zva, yva, mva, 0.0)
        sva, _ = forward(p, zva)
        gain, se, share = policy_gain(sva * Y_SCALE, np.nan_to_num(va["Y"]), mva, va["D"], 0.0)
        if lva < best[0]:
            best = (lva, {k: v.copy() for k, v in p.items()})
        curve.append({"epoch": epoch + 1, "train_mse": ltr, "val_mse": lva,
                      "val_mse_zero": base_va, "val_gain": gain, "val_gain_se": se,
                      "val_override": share})
        log(f"train {h}: epoch {epoch + 1}/{a.epochs} train mse {ltr:.4f} val mse {lva:.4f} "
            f"(zero model {base_va:.4f}) val gain {gain:+.3f} ± {se:.3f} pts/decision "
            f"({share:.1%} overridden)")
        state: dict[str, Any] = {**p, **{"m_" + k: v for k, v in adam_m.items()},
                                 **{"v_" + k: v for k, v in adam_v.items()},
                                 **{"best_" + k: v for k, v in best[1].items()},
                                 "epoch": epoch + 1, "n_train": n_tr, "curve": json.dumps(curve)}
        np.savez(ckpt, **state)
    p = best[1]  # early stopping: the epoch with the lowest validation error
    best_epoch = min(curve, key=lambda r: r["val_mse"])["epoch"]
    log(f"train {h}: kept epoch {best_epoch} (lowest validation error)")
    sva, _ = forward(p, zva)
    sva = sva * Y_SCALE
    yv = np.nan_to_num(va["Y"])
    margins: dict[float, tuple[float, float, float]] = {}
    for mg in (0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 1e9):
        margins[mg] = policy_gain(sva, yv, mva, va["D"], mg)
    margin = max(margins, key=lambda k: margins[k][0])
    vgain, vse, vshare = margins[margin]
    log(f"train {h}: margin {margin:g}: val gain {vgain:+.3f} ± {vse:.3f} pts/decision, "
        f"{vshare:.1%} overridden")
    oracle = float((np.where(mva, yv, -np.inf).max(1) - yv[np.arange(len(yv)), va["D"]]).mean())
    return {
        "head": {"mu": mu.tolist(), "sd": sd.tolist(), "w1": p["w1"].tolist(),
                 "b1": p["b1"].tolist(), "w2": (p["w2"] * Y_SCALE).tolist(), "lin": (p["lin"] * Y_SCALE).tolist(),
                 "margin": float(margin) if margin < 1e8 else 1e9},
        "summary": {"train_decisions": n_tr, "val_decisions": int(len(va["D"])),
                    "train_candidates": int(mtr.sum()), "margin": margin if margin < 1e8 else None,
                    "val_gain": vgain, "val_gain_se": vse, "val_override": vshare,
                    "val_oracle_gain": oracle, "best_epoch": best_epoch, "label_cv": cv,
                    "margins": {str(k): v for k, v in margins.items()}},
        "curve": curve,
    }


def phase_train_export(a: argparse.Namespace) -> None:
    out = Path(a.out)
    dirs = [out, *(Path(d) for d in a.data)]
    data = load(dirs, a.val_share)
    meta = {k: int(v) for k, v in data.pop("meta").items()}
    log(f"train: {meta['shards']} shards, {meta['hands']} teacher hands "
        f"({meta['val_shards']} shards held out)")
    heads: dict[str, Any] = {}
    summary: dict[str, Any] = {"heads": a.heads, "seed": a.seed, "preset": a.preset, "worlds": a.worlds,
                               "discard_share": a.discard_share, "games_per_shard": a.games,
                               "hidden": a.hidden, "epochs": a.epochs,
                               "data": [str(d) for d in dirs], **meta}
    curves = {}
    for h in a.heads.split(","):
        r = train_head(a, h, data, out)
        if r:
            heads[h] = r["head"]
            summary[h] = r["summary"]
            curves[h] = r["curve"]
    spec = {"version": 1, "features": {"discard": list(DISCARD_FEATURES),
                                       "claim": list(CLAIM_FEATURES)},
            "heads": heads, "trained": summary}
    target = Path(a.export)
    target.write_text(json.dumps(spec, separators=(",", ":")) + "\n", encoding="utf-8")
    (out / "summary.json").write_text(json.dumps({**summary, "curves": curves}, indent=1) + "\n")
    log(f"export: {target} ({target.stat().st_size} bytes), {out / 'summary.json'}")
    if a.plot:
        plot(curves, Path(a.plot))


def phase_eval(a: argparse.Namespace) -> None:
    """The teacher points a weights file's heads gain over ``expert``'s choices on every
    shard of the run directories (data it was not trained on, e.g. another seed's)."""
    spec = json.loads(Path(a.weights).read_text(encoding="utf-8"))
    dirs = [Path(a.out), *(Path(d) for d in a.data)]
    files = [f for d in dirs for f in sorted((d / "shards").glob("shard_*[0-9].npz"))]
    log(f"eval {a.weights} on {len(files)} shards of {', '.join(map(str, dirs))}")
    for h, head in spec["heads"].items():
        x = np.concatenate([np.load(f)[f"{h}_X"] for f in files])
        y = np.concatenate([np.load(f)[f"{h}_Y"] for f in files])
        d = np.concatenate([np.load(f)[f"{h}_D"] for f in files])
        m = ~np.isnan(y)
        idx = np.arange(len(d))
        alt = m.copy()
        alt[idx, d] = False
        diff = (y - y[idx, d][:, None])[alt]  # each alternative's label minus expert's
        log(f"eval {h}: labels of {diff.size} alternatives minus expert's choice: mean "
            f"{diff.mean():+.1f}, sd {diff.std():.1f}, exactly equal {np.mean(diff == 0):.1%}")
        p = {k: np.asarray(head[k]) for k in ("w1", "b1", "w2", "lin")}
        s, _ = forward(p, (x - np.asarray(head["mu"])) / np.asarray(head["sd"]))
        for mg in sorted({0.0, 1.0, 3.0, 5.0, 10.0, 20.0, float(head["margin"])}):
            g, se, share = policy_gain(s, np.nan_to_num(y), m, d, mg)
            log(f"eval {h}: {len(d)} decisions, margin {mg:g}{' (shipped)' if mg == head['margin'] else ''}: "
                f"{g:+.2f} ± {1.96 * se:.2f} (95 %) points/decision, {share:.1%} overridden")


# ----------------------------------------------------------------------------- tune
#: The knobs the tune phase moves: (low, high, step). ``kong_max_distance`` is an integer;
#: its top value stands for "no limit" (``expert``'s 99).
TUNE_SPACE: dict[str, tuple[float, float, float]] = {
    "claim_margin": (0.0, 40.0, 5.0),
    "pass_bias": (-15.0, 15.0, 4.0),
    "q": (0.25, 0.6, 0.04),
    "q_big": (0.25, 0.6, 0.04),
    "ready_defence": (0.0, 5.0, 0.6),
    "acceptance_tolerance": (0.0, 0.2, 0.03),
    "kong_max_distance": (0, 6, 1),
    "big_weight": (0.5, 1.5, 0.12),
    "defence_scale": (4.0, 20.0, 2.5),
}
KONG_NO_LIMIT = 99
_TUNE_MODEL: list[Any] = []  # the worker's critic (loaded once per process)
_TUNE_MODELS: dict[str, Any] = {}  # round 8: other weights files a variant plays with
#: round 8: the key of a paired variant's setting naming its own weights file (read from
#: the setting before the knobs are)
WEIGHTS_KEY = "__weights__"


def knobs_key(k: dict[str, Any]) -> str:
    return json.dumps({n: k[n] for n in sorted(k)}, separators=(",", ":"))


def tune_start(spec: dict[str, Any]) -> dict[str, Any]:
    """The starting point: the weights file's tuned knobs, else ``expert``'s settings and
    the claim head's margin, every knob explicit."""
    from laizi.bots.learned import Model

    model = Model(spec)
    k = model.knobs.to_dict()
    if k["claim_margin"] is None:
        k["claim_margin"] = model.margin("claim")
    return {n: (v if isinstance(v, (str, bool, int)) else round(float(v), 4))
            for n, v in k.items()}


def load_variants(path: str) -> list[dict[str, Any]]:
    """``--tune-variants``: a JSON list of ``{"name": …, "knobs": {…}}``, each a set of
    knobs moved away from the incumbent (round 5's fixed, named variants)."""
    from laizi.bots.learned import Knobs

    out = json.loads(Path(path).read_text(encoding="utf-8"))
    for v in out:
        Knobs.from_dict(v["knobs"])  # unknown names fail here, before any deal is played
    return list(out)


def perturb(k: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A neighbour of ``k``: one or two knobs moved by about one step, up or down."""
    new = dict(k)
    names = rng.sample(sorted(TUNE_SPACE), rng.choice((1, 1, 2)))
    for n in names:
        lo, hi, step = TUNE_SPACE[n]
        sign = rng.choice((-1, 1))
        if n == "kong_max_distance":
            cur = min(int(hi), int(new[n]))
            d = min(int(hi), max(int(lo), cur + sign))
            new[n] = KONG_NO_LIMIT if d >= hi else d
        else:
            v = float(new[n]) + sign * step * rng.uniform(0.5, 1.5)
            new[n] = round(min(hi, max(lo, v)), 4)
    return new


def _tune_init(spec_text: str, others: dict[str, str] | None = None) -> None:
    from laizi.bots.learned import Model

    _TUNE_MODEL[:] = [Model(json.loads(spec_text))]
    _TUNE_MODELS.clear()
    for path, text in (others or {}).items():
        _TUNE_MODELS[path] = Model(json.loads(text))


def tune_deals(job: tuple[str, str, int | str, list[int]]) -> list[float]:
    """``learned`` with the knobs ``job[0]`` against three ``expert`` on the deals of the
    arena seed ``job[2]``: per deal, its margin over ``expert`` in points per hand (as
    ``laizi arena`` counts it: every deal once per seat rotation)."""
    from laizi.arena import play_deal
    from laizi.bots.learned import Knobs, LearnedBot
    from laizi.bots.registry import make_bot

    knobs_json, preset, block, deals = job
    kd = json.loads(knobs_json)
    wpath = kd.pop(WEIGHTS_KEY, None)
    knobs = Knobs.from_dict(kd)
    model = _TUNE_MODELS[wpath] if wpath else _TUNE_MODEL[0]

    def factory(name: str, seed: int) -> Any:
        return LearnedBot(seed, model, knobs) if name == "learned" else make_bot(name, seed)

    rules = RuleSet.preset(preset)
    out = []
    for d in deals:
        rec = play_deal(rules, ["learned", "expert", "expert", "expert"], block, d,
                        bot_factory=factory)
        mine = sum(p[0] for p in rec.payments) / 4
        others = sum(sum(p[1:]) for p in rec.payments) / 12
        out.append(mine - others)
    return out


class Tuner:
    """Racing (successive halving) of neighbours of the incumbent on duplicate deals.

    Generation *g*: ``--tune-candidates`` neighbours of the incumbent (:func:`perturb`)
    play block after block of ``--tune-deals`` fresh deals beside the incumbent on the
    same deals (common random numbers: the same walls, seat rotations and bot seeds);
    after each block the better half, by mean per-deal difference to the incumbent, goes
    on. The last one left plays a fresh confirmation block of ``--tune-confirm`` deals;
    it becomes the incumbent when its difference there is above zero by
    ``--tune-z`` standard errors. Every (knobs, block) result is cached in
    ``OUT/tune_cache.jsonl``, so a rerun replays the same decisions and plays only what
    is missing (resumable; deterministic given the seed)."""

    def __init__(self, a: argparse.Namespace, spec: dict[str, Any], pool: Any,
                 deadline: float = float("inf")) -> None:
        self.a = a
        self.deadline = deadline  # no block starts after it (a generation may stop part-way)
        self.out = Path(a.out)
        self.pool = pool
        self.cache_path = self.out / "tune_cache.jsonl"
        self.cache: dict[str, list[float]] = {}
        if self.cache_path.exists():
            for line in self.cache_path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    r = json.loads(line)
                    self.cache[r["key"]] = r["margins"]
        self.hands_played = 4 * sum(len(v) for v in self.cache.values())
        self.spec = spec

    def block(self, g: int, r: str) -> str:
        return f"learned-tune|{self.a.seed}|{g}|{r}"

    def evaluate(self, cands: list[dict[str, Any]], block: int | str,
                 n: int) -> list[list[float]]:
        """Per candidate, its per-deal margins on the ``n`` deals of ``block``."""
        keys = [f"{block}|{n}|{knobs_key(k)}" for k in cands]
        todo = [i for i, k in enumerate(keys) if k not in self.cache]
        step = 4
        jobs = [(knobs_key(cands[i]), self.a.preset, block, list(range(d, min(n, d + step))))
                for i in todo for d in range(0, n, step)]
        results = list(self.pool.imap(tune_deals, jobs))
        per = -(-n // step)
        with self.cache_path.open("a", encoding="utf-8") as f:
            for j, i in enumerate(todo):
                ms = [m for part in results[j * per:(j + 1) * per] for m in part]
                self.cache[keys[i]] = ms
                self.hands_played += 4 * n
                f.write(json.dumps({"key": keys[i], "margins": ms}) + "\n")
        return [self.cache[k] for k in keys]

    def generation(self, g: int, inc: dict[str, Any]) -> dict[str, Any] | None:
        """One generation; None when the deadline stopped it part-way (its finished
        blocks stay cached: a rerun continues it)."""
        a = self.a
        rng = random.Random(f"learned-tune-rng|{a.seed}|{g}")
        cands: list[dict[str, Any]] = []
        if getattr(a, "tune_variants", None) and g == 0:  # generation 0: the named variants
            variants = load_variants(a.tune_variants)
            cands = [{**inc, **v["knobs"]} for v in variants]
            log("tune: variants " + ", ".join(f"#{i} {v['name']}" for i, v in enumerate(variants)))
        while len(cands) < a.tune_candidates:
            c = perturb(inc, rng)
            if c != inc and c not in cands:
                cands.append(c)
        diffs: list[list[float]] = [[] for _ in cands]
        alive = list(range(len(cands)))
        r = 0
        while True:
            if time.time() > self.deadline:
                return None
            res = self.evaluate([inc] + [cands[i] for i in alive], self.block(g, str(r)),
                                a.tune_deals)
            for i, ms in zip(alive, res[1:], strict=True):
                diffs[i] += [x - y for x, y in zip(ms, res[0], strict=True)]
            alive.sort(key=lambda i: (-float(np.mean(diffs[i])), i))
            log(f"tune: gen {g} block {r}: " + ", ".join(
                f"#{i} {np.mean(diffs[i]):+.2f}" for i in alive) + " points/hand vs incumbent")
            r += 1
            alive = alive[: max(1, len(alive) // 2)]
            if len(alive) == 1:
                break
        w = alive[0]
        if time.time() > self.deadline:
            return None
        inc_c, win_c = self.evaluate([inc, cands[w]], self.block(g, "confirm"), a.tune_confirm)
        d = np.asarray(win_c) - np.asarray(inc_c)
        mean = float(d.mean())
        se = float(d.std(ddof=1) / np.sqrt(len(d)))
        accept = mean > a.tune_z * se
        changed = {n: cands[w][n] for n in cands[w] if cands[w][n] != inc[n]}
        log(f"tune: gen {g}: winner #{w} {changed} race {np.mean(diffs[w]):+.2f}, confirm "
            f"{mean:+.2f} ± {1.96 * se:.2f} (95 %) points/hand → "
            f"{'ACCEPTED' if accept else 'kept the incumbent'}; {self.hands_played} hands so far")
        return {"generation": g, "candidates": cands, "winner": w, "changed": changed,
                "race": float(np.mean(diffs[w])), "race_deals": len(diffs[w]),
                "confirm": mean, "confirm_se": se, "accepted": bool(accept),
                "hands": self.hands_played, "knobs": cands[w] if accept else inc}


def phase_tune(a: argparse.Namespace, deadline: float | None = None) -> dict[str, Any]:
    """Improve the knobs by racing them whole on duplicate deals; write the incumbent into
    the weights file (``tuned``) and the tuning curve to ``--tune-plot``. No block starts
    after ``--tune-minutes`` from now nor after ``deadline`` (the run's budget)."""
    target = Path(a.export)
    spec = json.loads(target.read_text(encoding="utf-8"))
    start = tune_start(spec)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    deadline = min(time.time() + 60 * a.tune_minutes,
                   deadline if deadline is not None else float("inf"))
    log(f"tune: start {start}; {a.tune_generations} generations at most, "
        f"{a.tune_minutes:g} minutes, {a.workers} workers")
    history: list[dict[str, Any]] = []
    inc = start
    with local_pool(a.workers, initializer=_tune_init, initargs=(json.dumps(spec),),
                    max_tasks=200) as pool:
        tuner = Tuner(a, spec, pool, deadline)
        for g in range(a.tune_generations):
            if time.time() > deadline:
                log("tune: time budget spent")
                break
            h = tuner.generation(g, inc)
            if h is None:
                log(f"tune: time budget spent during generation {g} (its finished blocks are "
                    "cached; a rerun continues it)")
                break
            history.append(h)
            inc = h["knobs"]
        hands = tuner.hands_played
    total = sum(h["confirm"] for h in history if h["accepted"])
    log(f"tune: {len(history)} generations, {sum(h['accepted'] for h in history)} accepted, "
        f"{hands} hands; incumbent {inc}")
    tuned = {"preset": a.preset, "knobs": inc, "start": start, "seed": a.seed,
             "generations": len(history), "accepted": sum(h["accepted"] for h in history),
             "hands": hands, "confirm_gain_sum": total,
             "method": "racing on duplicate deals vs three expert (train_policy.py --phase tune)"}
    summary = {**tuned, "history": history}
    (out / "tune_summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    if a.tune_write:
        spec["tuned"] = tuned
        target.write_text(json.dumps(spec, separators=(",", ":")) + "\n", encoding="utf-8")
        log(f"tune: knobs written to {target}")
    if a.tune_plot and history:
        plot_tune(history, Path(a.tune_plot))
    return summary


def phase_paired(a: argparse.Namespace) -> dict[str, Any]:
    """The incumbent (``--export``'s knobs) and each ``--tune-variants`` setting against
    three ``expert`` on the deals of each integer ``--paired-seeds`` arena seed (the deals
    ``laizi arena --seed S`` plays): per setting its margin over ``expert`` and its
    difference to the incumbent on the same deals, in points/hand with 95 % intervals
    (per-deal, normal). Cached in ``OUT/tune_cache.jsonl`` like the tune phase."""
    spec = json.loads(Path(a.export).read_text(encoding="utf-8"))
    inc = tune_start(spec)
    variants = [{"name": "incumbent", "knobs": {}}, *load_variants(a.tune_variants)]
    # round 8: a variant with "weights" plays that file's critic (its own knobs and claim
    # margin, then the variant's knobs over them) instead of --export's
    others = {str(v["weights"]): Path(v["weights"]).read_text(encoding="utf-8")
              for v in variants if v.get("weights")}
    cands = [({**tune_start(json.loads(others[str(v["weights"])])), **v["knobs"],
               WEIGHTS_KEY: str(v["weights"])} if v.get("weights") else {**inc, **v["knobs"]})
             for v in variants]
    Path(a.out).mkdir(parents=True, exist_ok=True)

    def ci(x: np.ndarray) -> dict[str, float]:
        m, h = float(x.mean()), float(1.96 * x.std(ddof=1) / np.sqrt(len(x)))
        return {"mean": round(m, 3), "lo": round(m - h, 3), "hi": round(m + h, 3)}

    per_seed: dict[str, Any] = {}
    allm: list[list[float]] = [[] for _ in cands]
    with local_pool(a.workers, initializer=_tune_init, initargs=(json.dumps(spec), others),
                    max_tasks=200) as pool:
        tuner = Tuner(a, spec, pool)
        for seed in [int(x) for x in a.paired_seeds.split(",") if x.strip()]:
            res = tuner.evaluate(cands, seed, a.paired_deals)
            rows = {}
            for v, ms in zip(variants, res, strict=True):
                d = np.asarray(ms) - np.asarray(res[0])
                rows[v["name"]] = {"vs_expert": ci(np.asarray(ms)),
                                   "vs_incumbent": ci(d) if v is not variants[0] else None,
                                   "deals_differing": int((d != 0).sum())}
                log(f"paired: seed {seed} {v['name']}: vs expert {rows[v['name']]['vs_expert']}, "
                    f"vs incumbent {rows[v['name']]['vs_incumbent']}")
            for i, ms in enumerate(res):
                allm[i] += ms
            per_seed[str(seed)] = rows
    pooled = {}
    for i, v in enumerate(variants):
        d = np.asarray(allm[i]) - np.asarray(allm[0])
        pooled[v["name"]] = {"vs_expert": ci(np.asarray(allm[i])),
                             "vs_incumbent": ci(d) if i else None}
    summary = {"seeds": a.paired_seeds, "deals_per_seed": a.paired_deals, "incumbent": inc,
               "variants": variants, "per_seed": per_seed, "pooled": pooled,
               "units": "points/hand (a deal's four rotations averaged), 95 % normal interval"}
    (Path(a.out) / "paired_summary.json").write_text(json.dumps(summary, indent=1) + "\n",
                                                     encoding="utf-8")
    return summary


def plot_tune(history: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4))
    hands = [h["hands"] for h in history]
    conf = np.array([h["confirm"] for h in history])
    se = np.array([h["confirm_se"] for h in history])
    acc = [h["accepted"] for h in history]
    ax.errorbar(hands, conf, yerr=1.96 * se, fmt="none", ecolor="0.6", capsize=2)
    ax.scatter([x for x, a in zip(hands, acc, strict=True) if a],
               [c for c, a in zip(conf, acc, strict=True) if a], color="tab:green",
               label="accepted (new incumbent)", zorder=3)
    ax.scatter([x for x, a in zip(hands, acc, strict=True) if not a],
               [c for c, a in zip(conf, acc, strict=True) if not a], color="tab:red",
               marker="x", label="rejected", zorder=3)
    ax.plot(hands, np.cumsum(np.where(acc, conf, 0.0)), color="tab:blue",
            label="sum of accepted gains (confirmation blocks)")
    ax.axhline(0, color="k", lw=0.5)
    ax.set_xlabel("hands played in tuning")
    ax.set_ylabel("points/hand vs incumbent (95 %)")
    ax.set_title("tune: each generation's race winner on its confirmation deals")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    log(f"plot: {path}")


def plot(curves: dict[str, list[dict[str, float]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for h, c in curves.items():
        ep = [r["epoch"] for r in c]
        axes[0].plot(ep, [r["train_mse"] / r["val_mse_zero"] for r in c], label=f"{h} train")
        axes[0].plot(ep, [r["val_mse"] / r["val_mse_zero"] for r in c], "--", label=f"{h} val")
        g = np.array([r["val_gain"] for r in c])
        se = np.array([r["val_gain_se"] for r in c])
        axes[1].plot(ep, g, label=h)
        axes[1].fill_between(ep, g - 1.96 * se, g + 1.96 * se, alpha=0.2)
    axes[0].set_title("relative-points MSE / zero model's")
    axes[0].set_xlabel("epoch")
    axes[0].legend()
    axes[1].axhline(0, color="k", lw=0.5)
    axes[1].set_title("held-out teacher points gained per decision (margin 0)")
    axes[1].set_xlabel("epoch")
    axes[1].legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    log(f"plot: {path}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--phase", choices=("all", "gen", "train", "tune", "eval", "paired"), default="all")
    ap.add_argument("--out", default="runs/learned", help="run directory (shards, checkpoints)")
    ap.add_argument("--seed", type=int, default=28)
    ap.add_argument("--preset", default="kaikoufan")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--shards", type=int, default=100000, help="at most this many shards")
    ap.add_argument("--games", type=int, default=4, help="teacher hands per shard")
    ap.add_argument("--worlds", type=int, default=6)
    ap.add_argument("--discard-share", type=float, default=0.25)
    ap.add_argument("--label-cv", action="store_true",
                    help="round 8: gen records each playout's draw luck (LUCK_FEATURES); "
                         "train learns from the variance-cut labels y − β·luck (β fitted "
                         "on the training split). Off by default")
    ap.add_argument("--wall-shuffles", action="store_true",
                    help="round 8: gen's worlds after the true one are the true world with "
                         "its undrawn wall shuffled (the hands kept) instead of hidden tiles "
                         "dealt anew. Off by default")
    ap.add_argument("--gen-minutes", type=float, default=60.0)
    ap.add_argument("--data", action="append", default=[], metavar="DIR",
                    help="another run directory whose shards are trained on too (repeatable)")
    ap.add_argument("--val-share", type=float, default=0.15)
    ap.add_argument("--hidden", type=int, default=16)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--heads", default="discard,claim",
                    help="the heads trained and shipped (a head left out: expert decides)")
    ap.add_argument("--weights", default=str(ROOT / "src/laizi/data" / WEIGHTS),
                    help="--phase eval: the weights file evaluated")
    ap.add_argument("--export", default=str(ROOT / "src/laizi/data" / WEIGHTS))
    ap.add_argument("--plot", default=str(ROOT / "docs/img/learned_curve.png"))
    ap.add_argument("--tune-minutes", type=float, default=45.0)
    ap.add_argument("--tune-generations", type=int, default=1000)
    ap.add_argument("--tune-candidates", type=int, default=6,
                    help="neighbours of the incumbent raced per generation")
    ap.add_argument("--tune-deals", type=int, default=48, help="deals per racing block")
    ap.add_argument("--tune-confirm", type=int, default=96, help="deals of the confirmation block")
    ap.add_argument("--tune-z", type=float, default=1.0,
                    help="a winner replaces the incumbent when its confirmation margin is "
                         "above zero by this many standard errors")
    ap.add_argument("--tune-write", action=argparse.BooleanOptionalAction, default=True,
                    help="write the tuned knobs into --export")
    ap.add_argument("--tune-plot", default=str(ROOT / "docs/img/learned_tune.png"))
    ap.add_argument("--tune-variants", default=None, metavar="FILE",
                    help="JSON list of {name, knobs}: generation 0 races these (moved from the "
                         "incumbent) instead of random neighbours; --phase paired: the settings "
                         "measured beside the incumbent")
    ap.add_argument("--paired-seeds", default="", help="--phase paired: arena seeds (integers)")
    ap.add_argument("--paired-deals", type=int, default=2000, help="--phase paired: deals per seed")
    ap.add_argument("--budget-minutes", type=float, default=None,
                    help="the whole run's wall time: generation stops early enough for "
                         f"training ({TRAIN_RESERVE_MINUTES:g} minutes kept) and "
                         "--tune-minutes of tuning, and no tuning block starts after it")
    a = ap.parse_args(argv if argv is not None else sys.argv[1:])
    t0 = time.time()
    try:
        gen_deadline, run_deadline = plan_deadlines(a, t0)
    except ValueError as e:
        ap.error(str(e))
    log(f"train_policy {' '.join(argv if argv is not None else sys.argv[1:])}")
    if a.budget_minutes is not None:
        log(f"run: budget {a.budget_minutes:g} minutes: generation until "
            f"{time.strftime('%H:%M:%S', time.localtime(gen_deadline))}, "
            f"nothing started after {time.strftime('%H:%M:%S', time.localtime(run_deadline))}")
    times: dict[str, float] = {}

    def timed(name: str, fn: Any, *args: Any) -> None:
        t = time.time()
        fn(*args)
        times[name] = round(time.time() - t, 1)
        log(f"run: phase {name} took {times[name] / 60:.1f} min")

    if a.phase in ("all", "gen"):
        timed("gen", phase_gen, a, gen_deadline)
    if a.phase in ("all", "train"):
        timed("train", phase_train_export, a)
    if a.phase in ("all", "tune"):
        timed("tune", phase_tune, a, run_deadline)
    if a.phase == "eval":
        timed("eval", phase_eval, a)
    if a.phase == "paired":
        timed("paired", phase_paired, a)
    total = time.time() - t0
    log(f"run: total {total / 60:.1f} min wall ("
        + ", ".join(f"{k} {v / 60:.1f}" for k, v in times.items())
        + (f"; budget {a.budget_minutes:g}" if a.budget_minutes is not None else "") + ")")
    rec = {"argv": list(argv if argv is not None else sys.argv[1:]), "phase": a.phase,
           "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t0)),
           "budget_minutes": a.budget_minutes, "phase_seconds": times,
           "total_seconds": round(total, 1)}
    Path(a.out).mkdir(parents=True, exist_ok=True)
    with (Path(a.out) / "run_times.jsonl").open("a", encoding="utf-8") as f:
        f.write(json.dumps(rec) + "\n")
    return 0


#: minutes the whole-run budget keeps between generation and tuning for training and export
#: (seconds on this machine) and the shards still in flight when generation stops
TRAIN_RESERVE_MINUTES = 3.0


def plan_deadlines(a: argparse.Namespace, t0: float) -> tuple[float, float]:
    """(generation's deadline, the run's deadline) for a run started at ``t0``.

    Without ``--budget-minutes``: ``--gen-minutes`` from ``t0``, and no run deadline.
    With it, the run ends by ``t0 + budget``: generation stops early enough to leave
    ``TRAIN_RESERVE_MINUTES`` and, when the phase tunes, ``--tune-minutes``."""
    gen_deadline = t0 + 60 * a.gen_minutes
    if a.budget_minutes is None:
        return gen_deadline, float("inf")
    after = TRAIN_RESERVE_MINUTES + a.tune_minutes if a.phase == "all" else 0.0
    if a.budget_minutes <= after:
        raise ValueError(f"--budget-minutes {a.budget_minutes:g} leaves no time to generate "
                         f"(training keeps {TRAIN_RESERVE_MINUTES:g}, tuning "
                         f"{a.tune_minutes:g} minutes)")
    run_deadline = t0 + 60 * a.budget_minutes
    if a.phase in ("all", "gen"):
        gen_deadline = min(gen_deadline, run_deadline - 60 * after)
    return gen_deadline, run_deadline


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:  # (the workers are stopped and reaped by then: local_pool)
        print("train_policy: interrupted; what was finished (shards, checkpoints, tuning "
              "blocks) is kept: the same command goes on from there", file=sys.stderr)
        raise SystemExit(130) from None
