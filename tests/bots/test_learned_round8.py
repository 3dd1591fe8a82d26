"""Round 8 of the ``learned`` bot (``docs/learned.md``): variance-cut labels
(``train_policy.py --label-cv``) and paired variants with their own weights file."""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from laizi.bots.learned import WEIGHTS
from laizi.rules import RuleSet
from support.positions import advance


def _script() -> Any:
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "scripts" / "train_policy.py"
    spec = importlib.util.spec_from_file_location("train_policy", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["train_policy"] = mod
    spec.loader.exec_module(mod)
    return mod


def _pass_all(st: Any) -> None:
    """Every seat with a claim option passes (the window closes)."""
    while not st.over and st.phase != "turn":
        for s in st.to_act():
            acts = [a for a in st.legal_actions(s) if a.type == "pass"]
            assert acts, st.legal_actions(s)
            st.apply(s, acts[0])


def test_draw_luck_has_mean_zero_over_the_wall() -> None:
    """The control variate is unbiased: for a fixed state before a draw, each luck term
    averages to exactly zero over every tile the wall could give (every live position
    swapped to the front), and it is not zero for every tile."""
    tp = _script()
    rules = RuleSet.preset("kaikoufan")
    checked = 0
    for seed in (3, 11, 27):
        st = advance(rules, seed, 12, bot="expert")
        if st.over:
            continue
        seat = st.turn
        discard = next(a for a in st.legal_actions(seat) if a.type == "discard")
        wins: list[float] = []
        imps: list[float] = []
        for j in range(st.front, st.back + 1):
            w = st.clone()
            wall = list(w.wall)
            wall[w.front], wall[j] = wall[j], wall[w.front]
            w.wall = tuple(wall)
            f, b = w.front, w.back
            w.apply(seat, discard)
            if w.phase != "turn":  # a claim window: everyone passes, the next seat draws
                assert tp.draw_luck(w, f, b) is None  # no draw yet
                _pass_all(w)
            r = tp.draw_luck(w, f, b)
            assert r is not None and r[0] == (seat + 1) % 4
            wins.append(r[1])
            imps.append(r[2])
        assert abs(float(np.mean(wins))) < 1e-9 and abs(float(np.mean(imps))) < 1e-9
        assert max(map(abs, imps)) > 0.05  # some tiles improve the hand, some do not
        checked += 1
    assert checked >= 2


def test_label_cv_shards_keep_the_labels_and_add_the_luck(tmp_path: Path) -> None:
    """``--label-cv`` records each candidate's draw luck beside the same labels: the
    shard's features and labels are those of a run without it (the luck consumes no
    randomness)."""
    tp = _script()
    for cv, name in ((False, "plain"), (True, "cv")):
        tp.gen_shard((0, 5, 1, 1, 0.0, "kaikoufan", str(tmp_path / name), cv, False))
    plain = np.load(tmp_path / "plain" / "shards" / "shard_00000.npz")
    cv_z = np.load(tmp_path / "cv" / "shards" / "shard_00000.npz")
    assert "claim_L" not in plain.files and "claim_L" in cv_z.files
    for k in ("claim_X", "claim_Y", "claim_D"):
        assert np.array_equal(plain[k], cv_z[k], equal_nan=True), k
    y, lk = cv_z["claim_Y"], cv_z["claim_L"]
    assert len(y) > 0 and lk.shape == (*y.shape, tp.NLUCK)
    assert np.all(lk[np.isnan(y)] == 0) and np.any(lk[~np.isnan(y)] != 0)


def test_cv_fit_recovers_the_luck_and_cuts_the_spread() -> None:
    """On labels = signal + β·luck (per decision, a shared offset too), the fit recovers
    β and the cut labels are the signal (up to each decision's offset)."""
    tp = _script()
    rng = np.random.default_rng(0)
    n, k = 400, 3
    m = np.ones((n, k), bool)
    m[:, 2] = rng.random(n) < 0.5
    luck = rng.normal(0, 1, (n, k, tp.NLUCK))
    beta = np.array([60.0, 15.0, -80.0, -5.0, 30.0, -40.0])
    signal = rng.normal(0, 5, (n, k))
    y = signal + luck @ beta + rng.normal(0, 200, (n, 1))
    y = np.where(m, y, np.nan)
    luck = np.where(m[..., None], luck, np.nan)
    got = tp.cv_fit(y, luck, m, ridge=0.0)
    assert np.allclose(got, beta, atol=1.0)
    cut = tp.cv_labels(y, luck, got)
    d = np.zeros(n, np.int64)
    before = tp.label_spread(y, d, m)
    after = tp.label_spread(cut, d, m)
    assert after[0] < before[0] / 5 and after[2] == before[2]
    err = tp.centred(np.nan_to_num(cut), m) - tp.centred(signal, m)
    assert float(np.sqrt((err[m] ** 2).mean())) < 1.5  # the signal's sd is 5, the luck's ~100


def test_paired_variant_plays_its_own_weights(tmp_path: Path) -> None:
    """A paired variant naming a weights file plays that file's critic: a file with no
    heads is ``expert`` (the same margins as the shipped critic held to "never
    override"), while the shipped critic at the no-head file's margin (0) plays
    otherwise on the same deals."""
    tp = _script()
    shipped = resources.files("laizi.data").joinpath(WEIGHTS).read_text(encoding="utf-8")
    spec = json.loads(shipped)
    none = {**spec, "heads": {}}
    path = tmp_path / "none.json"
    path.write_text(json.dumps(none), encoding="utf-8")
    tp._tune_init(shipped, {str(path): path.read_text(encoding="utf-8")})
    base = tp.tune_start(spec)
    mine = {**tp.tune_start(none), tp.WEIGHTS_KEY: str(path)}
    assert mine["claim_margin"] == 0.0
    deals = list(range(6))
    job = (tp.knobs_key(mine), "kaikoufan", 2899, deals)
    never = (tp.knobs_key({**base, "claim_margin": 1e9}), "kaikoufan", 2899, deals)
    eager = (tp.knobs_key({**base, "claim_margin": 0.0}), "kaikoufan", 2899, deals)
    got = tp.tune_deals(job)
    assert got == tp.tune_deals(never)
    assert got != tp.tune_deals(eager)


def test_wall_shuffle_keeps_the_hands_and_deals_only_the_draws_to_come() -> None:
    """``--wall-shuffles``: a world is the true one with the undrawn live wall in another
    order — the hands, melds, rivers, drawn and dead-wall tiles and the indicator stay."""
    import random

    tp = _script()
    st = advance(RuleSet.preset("kaikoufan"), 7, 10, bot="expert")
    assert not st.over
    rng = random.Random(1)
    moved = 0
    for _ in range(5):
        w = tp.shuffled_wall(st, rng)
        assert w.hands == st.hands and w.melds == st.melds and w.rivers == st.rivers
        assert (w.front, w.back) == (st.front, st.back)
        f, b = st.front, st.back
        assert w.wall[:f] == st.wall[:f] and w.wall[b + 1:] == st.wall[b + 1:]
        assert sorted(w.wall[f:b + 1]) == sorted(st.wall[f:b + 1])
        moved += w.wall[f:b + 1] != st.wall[f:b + 1]
    assert moved == 5 and st.wall == st.clone().wall  # the true world is left as it was
