"""Issue 28, stop 68: the ceiling of defence (``benchmarks/ab_defence_oracle.py``) and the
experimental danger model learned from exact labels (``laizi.bots.experimental.danger``,
``scripts/fit_danger.py``)."""

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
from laizi.bots.experimental.danger import N_FEATURES, DangerModel, DangerVeto, features
from laizi.rules import RuleSet
from support.positions import advance, hidden_shuffled

ROOT = Path(__file__).resolve().parents[2]


def _model(seed: int = 3) -> DangerModel:
    rng = np.random.default_rng(seed)
    return DangerModel({"w1": rng.normal(0, 0.5, (N_FEATURES, 8)).tolist(),
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


def test_the_race_refuses_a_model_without_weights() -> None:
    out = subprocess.run([sys.executable, "benchmarks/ab_defence_oracle.py", "--variant", "model"],
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
                         capture_output=True, text=True, timeout=120)
    assert out.returncode != 0 and "needs --weights" in out.stderr
    assert "Traceback" not in out.stderr
