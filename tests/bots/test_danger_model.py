"""Issue 28, stops 68–69: the ceiling of defence (``benchmarks/ab_defence_oracle.py``) and the
experimental danger model learned from exact labels (``laizi.bots.experimental.danger``,
``scripts/fit_danger.py``), with the 手切/摸切 marks of round 11."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from laizi.bots import SeatView
from laizi.bots.experimental.danger import (
    N_CUT,
    N_FEATURES,
    N_RIVER,
    DangerModel,
    DangerVeto,
    cut_features,
    features,
    river_features,
)
from laizi.bots.expert import ExpertBot
from laizi.game.actions import Action
from laizi.game.play import play_hand
from laizi.game.state import HandState
from laizi.rules import RuleSet
from laizi.sim import bot_seed, sim_hand_seed
from support.positions import advance, hidden_shuffled

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from fit_danger import CutTracker  # noqa: E402


def _model(seed: int = 3, inputs: int = N_FEATURES) -> DangerModel:
    rng = np.random.default_rng(seed)
    return DangerModel({"w1": rng.normal(0, 0.5, (inputs, 8)).tolist(),
                        "b1": rng.normal(0, 0.1, 8).tolist(),
                        "w2": rng.normal(0, 1.0, 8).tolist(), "b2": -2.0})


@pytest.mark.parametrize("seed", [5, 11, 23, 37])
def test_danger_sees_only_the_view(seed: int) -> None:
    """Dealing the hidden tiles anew changes neither the features, the chances nor the
    decision, in every mode of the bot."""
    st = advance(RuleSet.preset("kaikoufan"), seed, 14 + seed % 7, bot="expert")
    if st.over:
        pytest.skip("hand ended early")
    me = st.turn
    other = hidden_shuffled(st, me, random.Random(seed))
    assert other.hands != st.hands or other.wall != st.wall
    v1, v2 = (SeatView.from_state(x, me, x.legal_actions(me)) for x in (st, other))
    unseen = v1.unseen()
    for k in range(34):
        for o in range(4):
            if o != me:
                f = features(v1, k, o, unseen)
                assert len(f) == N_FEATURES
                assert f == features(v2, k, o, v2.unseen())
                r = river_features(v1, k, o, unseen)
                assert len(r) == N_RIVER and r == river_features(v2, k, o, v2.unseen())
    model = _model()
    kinds = sorted({a.tile for a in v1.legal if a.type == "discard" and a.tile is not None})
    c1, c2 = model.feed_chance(v1, kinds), model.feed_chance(v2, kinds)
    assert c1 == c2 and all(0.0 <= p <= 1.0 for p in c1.values())
    for kw in ({"tau": 0.0}, {"tau": 0.05, "keep": 0.2}, {"tau": 0.0, "soft": 50.0},
               {"tau": 0.0, "equiv": 0.3}, {"tau": 0.0, "equiv": 1.0, "ready_only": True},
               {"tau": 0.0, "ev_margin": 0.0}):
        a1 = DangerVeto(7, model, **kw).act(v1)  # type: ignore[arg-type]
        a2 = DangerVeto(7, model, **kw).act(v2)  # type: ignore[arg-type]
        assert a1 == a2 and a1 in v1.legal


def test_cut_features_by_hand() -> None:
    """The marks read as documented: 摸切 at the end, the last tile cut from the hand and
    the kinds beside it."""
    assert cut_features([], [], 4) == [0.0] * N_CUT
    # 1m cut from the hand, then 2m and 3m discarded as drawn; k = 3m: two from 1m
    f = cut_features([0, 1, 2], [True, False, False], 2)
    assert len(f) == N_CUT
    last_drawn, share3, trailing, share, near, far, same, age, recent = f
    assert (last_drawn, trailing, near, far, same) == (1.0, 2 / 6, 1.0, 0.0, 0.0)
    assert share3 == share == 2 / 3 and age == 2 / 6 and recent == 0.0
    f = cut_features([0, 1, 2], [False, False, True], 5)  # 3m just cut; 6m three from it
    assert f[0] == 0.0 and f[2] == 0.0 and f[5] == 1.0 and f[8] == 1.0
    assert cut_features([27], [True], 27)[6] == 1.0  # an honour: the same kind only
    assert cut_features([9], [True], 2)[4:7] == [0.0, 0.0, 0.0]  # another suit


def test_cut_marks_follow_the_river_through_claims() -> None:
    """Played hands: after each sync the marks are exactly as long as each river (a claim
    takes the river's last tile and its mark), and both kinds of mark occur."""
    rules = RuleSet.preset("kaikoufan")
    seen: set[bool] = set()
    claims = 0
    for i in range(6):
        bots = [ExpertBot(bot_seed("cuts", i, s)) for s in range(4)]
        tracker = CutTracker()

        def policy(state: HandState, seat: int, legal: list[Action],
                   bots: list[ExpertBot] = bots, tracker: CutTracker = tracker) -> Action:
            tracker.sync(state)
            assert [len(c) for c in tracker.cuts] == [len(r) for r in state.rivers]
            a = legal[0] if len(legal) == 1 else bots[seat].act(
                SeatView.from_state(state, seat, legal, copy=False))
            tracker.record(state, seat, a)
            return a

        st = HandState.new(rules, i % 4, seed=sim_hand_seed("cuts", i), hand_no=1)
        play_hand(st, policy)
        seen |= {c for cs in tracker.cuts for c in cs}
        claims += sum(1 for m in st.melds for x in m if x.type in ("chi", "peng"))
    assert seen == {True, False} and claims > 0


def test_river_features_by_hand() -> None:
    """Offsets outside the suit are zero, an honour reads its own kind only, and the
    river's copies, its last four discards, the melds and the unseen copies land at
    their offsets."""
    st = advance(RuleSet.preset("kaikoufan"), 5, 16, bot="expert")
    v = SeatView.from_state(st, st.turn, st.legal_actions(st.turn))
    o = (v.seat + 1) % 4
    unseen = v.unseen()
    river = v.rivers[o]
    for k in (0, 4, 8, 13, 27):
        r = river_features(v, k, o, unseen)
        for i, d in enumerate(range(-4, 5)):
            block = r[4 * i:4 * i + 4]
            if (k >= 27 and d) or not 0 <= (k % 9 if k < 27 else 0) + d < 9:
                assert block == [0.0] * 4
            else:
                j = k + d
                assert block[0] == river.count(j) / 2.0 and block[1] == river[-4:].count(j) / 2.0
                assert block[3] == unseen[j] / 4.0
        in_suit = [i for i, t in enumerate(river) if (t // 9 if t < 27 else 3) == (k // 9 if k < 27 else 3)]
        assert r[-1] == float(not in_suit)
        if in_suit:
            assert r[-3] == in_suit[0] / 24.0 and r[-2] == (len(river) - 1 - in_suit[-1]) / 24.0


def test_a_model_that_reads_the_river() -> None:
    st = advance(RuleSet.preset("kaikoufan"), 5, 16, bot="expert")
    v = SeatView.from_state(st, st.turn, st.legal_actions(st.turn))
    kinds = sorted({a.tile for a in v.legal if a.type == "discard" and a.tile is not None})
    model = _model(inputs=N_FEATURES + N_RIVER)
    assert model.reads_river and not model.reads_cuts and not _model().reads_river
    chances = model.feed_chance(v, kinds)
    assert set(chances) == set(kinds) and all(0.0 <= p <= 1.0 for p in chances.values())
    base = _model(inputs=N_FEATURES)
    assert base.feed_chance(v, kinds) != chances
    with pytest.raises(ValueError, match="river"):
        _model(inputs=N_FEATURES + N_RIVER + 1).feed_chance(v, kinds)


def test_a_model_that_reads_cuts_needs_them() -> None:
    st = advance(RuleSet.preset("kaikoufan"), 5, 16, bot="expert")
    me = st.turn
    v = SeatView.from_state(st, me, st.legal_actions(me))
    kinds = sorted({a.tile for a in v.legal if a.type == "discard" and a.tile is not None})
    model = _model(inputs=N_FEATURES + N_CUT)
    assert model.reads_cuts and not _model().reads_cuts
    with pytest.raises(ValueError, match="手切/摸切"):
        model.feed_chance(v, kinds)
    cuts = [[bool(j % 2) for j in range(len(r))] for r in v.rivers]
    chances = model.feed_chance(v, kinds, cuts)
    assert set(chances) == set(kinds) and all(0.0 <= p <= 1.0 for p in chances.values())
    flipped = [[not c for c in cs] for cs in cuts]
    assert model.feed_chance(v, kinds, flipped) != chances  # the marks are read


def _run(*args: str) -> list[dict]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=600, check=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def test_fit_then_race(tmp_path: Path) -> None:
    """The fit writes a model of the features' shape from exact labels; the race's check
    (``expert`` against itself) measures exactly 0; the oracle and the model play."""
    weights = tmp_path / "danger.json"
    (row,) = _run("scripts/fit_danger.py", "--hands", "6", "--workers", "1", "--epochs", "1",
                  "--hidden", "4", "--out", str(weights))
    assert row["rows"] > 100 and 0 < row["positives"] < row["rows"]
    model = json.loads(weights.read_text())
    assert len(model["w1"]) == N_FEATURES and len(model["w1"][0]) == 4 == len(model["w2"])
    rows = _run("benchmarks/ab_defence_oracle.py", "--deals", "3", "--workers", "1", "--json",
                "--variant", "expert", "--variant", "oracle", "--variant", "model",
                "--weights", str(weights), "--tau", "0.2")
    by = {r["variant"]: r for r in rows}
    assert by["expert"]["margin"] == 0.0 and by["expert"]["ci95"] == [0.0, 0.0]
    assert by["oracle"]["deals"] == 3 and by["oracle"]["vetoes_per_hand"] >= 0
    assert by["model"]["tau"] == 0.2
    (kept,) = _run("benchmarks/ab_defence_oracle.py", "--deals", "2", "--workers", "1", "--json",
                   "--variant", "oracle", "--keep-shanten")
    assert kept["keep_shanten"] is True and kept["vetoes_per_hand"] >= 0
    # chances drawn at random: the rule's switches by themselves, with no knowledge behind them
    (rand,) = _run("benchmarks/ab_defence_oracle.py", "--deals", "2", "--workers", "1", "--json",
                   "--variant", "model", "--weights", "random", "--tau", "0.5", "--equiv", "1.0")
    assert rand["weights"] == "random" and rand["vetoes_per_hand"] > 0
    # the model's positions, a random one of the discards its rule admits
    (picked,) = _run("benchmarks/ab_defence_oracle.py", "--deals", "2", "--workers", "1", "--json",
                     "--variant", "model", "--weights", str(weights), "--tau", "0.0", "--equiv",
                     "1.0", "--pick", "random")
    assert picked["pick"] == "random" and picked["deals"] == 2
    bad = subprocess.run([sys.executable, "benchmarks/ab_defence_oracle.py", "--deals", "2",
                          "--variant", "model", "--weights", str(weights), "--tau", "0.1",
                          "--pick", "random"], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, timeout=120)
    assert bad.returncode != 0 and "--pick random needs --equiv" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_fit_with_cuts_from_cached_rows(tmp_path: Path) -> None:
    """``--cuts`` fits on the marks too; ``--rows`` writes the generated rows once and the
    next fit reads them (the same rows, no generation)."""
    rows = tmp_path / "rows.npz"
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    (first,) = _run("scripts/fit_danger.py", "--hands", "4", "--workers", "1", "--epochs", "1",
                    "--hidden", "4", "--cuts", "--rows", str(rows), "--out", str(a))
    assert rows.exists() and first["gen_seconds"] > 0
    (second,) = _run("scripts/fit_danger.py", "--hands", "4", "--workers", "1", "--epochs", "1",
                     "--hidden", "4", "--rows", str(rows), "--out", str(b))
    assert second["gen_seconds"] == 0 and second["rows"] == first["rows"]
    bad = tmp_path / "bad.npz"
    np.savez(bad, x=np.zeros((3, 5), dtype=np.float32), y=np.zeros(3, dtype=np.int8))
    out = subprocess.run([sys.executable, "scripts/fit_danger.py", "--rows", str(bad), "--out",
                          str(b)], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
                         capture_output=True, text=True, timeout=120)
    assert out.returncode != 0 and "another layout" in out.stderr and "Traceback" not in out.stderr
    assert len(json.loads(a.read_text())["w1"]) == N_FEATURES + N_CUT
    river = tmp_path / "river.json"
    (fourth,) = _run("scripts/fit_danger.py", "--hands", "4", "--workers", "1", "--epochs", "1",
                     "--hidden", "4", "--river", "--rows", str(rows), "--out", str(river))
    assert fourth["river"] is True and fourth["gen_seconds"] == 0
    assert len(json.loads(river.read_text())["w1"]) == N_FEATURES + N_RIVER
    assert len(json.loads(b.read_text())["w1"]) == N_FEATURES
    (cal,) = _run("benchmarks/danger_calibration.py", "--weights", str(a), "--hands", "2",
                  "--json", "--pairs")
    assert cal["discards"] > 0 and 0.0 <= cal["auc"] <= 1.0
    assert cal["pairs"]["positions"] > 0 and [r["delta"] for r in cal["pairs"]["rules"]][0] == 0.0
    # the true distance from ready: a measurement the race and the calibration feed, never a player
    c = tmp_path / "c.json"
    (third,) = _run("scripts/fit_danger.py", "--hands", "4", "--workers", "1", "--epochs", "1",
                    "--hidden", "4", "--oracle-shanten", "--rows", str(rows), "--out", str(c))
    assert third["oracle_shanten"] is True and 0.0 <= third["val_auc"] <= 1.0
    assert len(json.loads(c.read_text())["w1"]) == N_FEATURES + 3
    st = advance(RuleSet.preset("kaikoufan"), 5, 16, bot="expert")
    v = SeatView.from_state(st, st.turn, st.legal_actions(st.turn))
    with pytest.raises(ValueError, match="oracle-shanten"):
        DangerModel.load(c).feed_chance(v, [v.legal[0].tile or 0])
    (cal,) = _run("benchmarks/danger_calibration.py", "--weights", str(c), "--hands", "2", "--json")
    assert cal["discards"] > 0
    (race,) = _run("benchmarks/ab_defence_oracle.py", "--deals", "2", "--workers", "1", "--json",
                   "--variant", "model", "--weights", str(c), "--tau", "0.1", "--keep", "0.2")
    assert race["deals"] == 2 and race["vetoes_per_hand"] >= 0


def test_the_race_refuses_a_model_without_weights() -> None:
    out = subprocess.run([sys.executable, "benchmarks/ab_defence_oracle.py", "--variant", "model"],
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
                         capture_output=True, text=True, timeout=120)
    assert out.returncode != 0 and "needs --weights" in out.stderr
    assert "Traceback" not in out.stderr
