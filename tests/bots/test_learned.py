"""The ``learned`` bot: shipped weights, seat-view-only decisions, legal play, the
critic's override rule. (No training here: ``scripts/train_policy.py`` does that.)"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from laizi.bots.base import SeatView
from laizi.bots.expert import ExpertBot
from laizi.bots.learned import (
    CLAIM_FEATURES,
    DISCARD_FEATURES,
    WEIGHTS,
    LearnedBot,
    Model,
    candidates,
    load_model,
)
from laizi.bots.registry import make_bot
from laizi.game.state import HandState
from laizi.game.wall import hand_seed
from laizi.rules import RuleSet
from support.positions import advance, hidden_shuffled


def _head(nf: int, lin: list[float], margin: float = 0.0) -> dict[str, object]:
    return {"mu": [0.0] * nf, "sd": [1.0] * nf, "w1": [[0.0] * nf], "b1": [0.0], "w2": [0.0],
            "lin": lin, "margin": margin}


def test_shipped_weights_fit_the_features() -> None:
    path = resources.files("laizi.data").joinpath(WEIGHTS)
    assert path.is_file()
    assert len(path.read_bytes()) <= 10 * 1024 * 1024
    model = load_model()
    assert model is not None
    names = {"discard": DISCARD_FEATURES, "claim": CLAIM_FEATURES}
    assert model.spec["features"] == {k: list(v) for k, v in names.items()}
    assert model.heads, "no head trained"
    for kind, head in model.heads.items():
        nf = len(names[kind])
        assert len(head["mu"]) == len(head["sd"]) == len(head["lin"]) == nf
        assert all(len(row) == nf for row in head["w1"])
        assert len(head["b1"]) == len(head["w2"]) == len(head["w1"])
    trained = model.spec["trained"]
    assert trained["hands"] > 0 and trained["seed"] is not None


@pytest.mark.parametrize("seed", [4, 9, 17, 30, 41])
def test_learned_sees_only_its_view(seed: int) -> None:
    """Dealing every hidden tile (others' hands, the wall) anew changes neither the
    features nor the decision."""
    st = advance(RuleSet.preset("kaikoufan"), seed, 10 + seed % 9, bot="expert")
    if st.over:
        pytest.skip("hand ended early")
    me = st.turn
    other = hidden_shuffled(st, me, random.Random(seed))
    assert other.hands != st.hands or other.wall != st.wall
    v1, v2 = SeatView.from_state(st, me), SeatView.from_state(other, me)
    expert = ExpertBot(7)
    default = expert.act(v1)
    c1, c2 = candidates(v1, expert, default), candidates(v2, expert, default)
    assert (c1 is None) == (c2 is None)
    if c1 is not None and c2 is not None:
        assert c1.actions == c2.actions and c1.rows == c2.rows
    a1, a2 = LearnedBot(7).act(v1), LearnedBot(7).act(v2)
    assert a1 == a2 and a1 in v1.legal


@pytest.mark.parametrize("preset", ["kaikoufan", "jiayu"])
def test_learned_plays_whole_hands_legally(preset: str) -> None:
    rules = RuleSet.preset(preset)
    for i in range(2):
        st = HandState.new(rules, i % 4, seed=hand_seed(b"learned", i))
        bots = [make_bot("learned", 10 * i + s) for s in range(4)]
        steps = 0
        while not st.over:
            for seat in st.to_act():
                if st.over:
                    break
                v = SeatView.from_state(st, seat)
                a = bots[seat].act(v)
                assert a in v.legal
                st.apply(seat, a)
                steps += 1
        assert steps > 10
        assert abs(sum(st.payments or [0.0])) < 1e-9


def _claim_view(seed: int) -> SeatView | None:
    """The first claim decision with a choice (pass or claim) in an expert hand."""
    st = HandState.new(RuleSet.preset("kaikoufan"), seed % 4, seed=hand_seed(b"claim", seed))
    bots = [ExpertBot(seed + s) for s in range(4)]
    while not st.over:
        for seat in st.to_act():
            if st.over:
                break
            v = SeatView.from_state(st, seat)
            if v.phase == "claim" and any(a.type in ("chi", "peng") for a in v.legal) and \
                    not any(a.type == "ron" for a in v.legal):
                return v
            st.apply(seat, bots[seat].act(v))
    return None


def test_critic_overrides_only_past_its_margin() -> None:
    """A head that prefers ``expert``'s second choice overrides it (by a legal action);
    with a huge margin the bot plays exactly as ``expert``."""
    nd, nc = len(DISCARD_FEATURES), len(CLAIM_FEATURES)
    rank = DISCARD_FEATURES.index("is_expert")
    lin_d = [0.0] * nd
    lin_d[rank] = -10.0  # "expert's choice is bad"
    lin_c = [0.0] * nc
    lin_c[CLAIM_FEATURES.index("is_expert")] = -10.0
    contrarian = Model({"heads": {"discard": _head(nd, lin_d), "claim": _head(nc, lin_c)}})
    timid = Model({"heads": {"discard": _head(nd, lin_d, 1e9), "claim": _head(nc, lin_c, 1e9)}})
    changed = 0
    for seed in (5, 12, 23):
        st = advance(RuleSet.preset("kaikoufan"), seed, 12, bot="expert")
        if st.over:
            continue
        v = SeatView.from_state(st, st.turn)
        expert_choice = ExpertBot(3).act(v)
        assert LearnedBot(3, timid).act(v) == expert_choice
        bot = LearnedBot(3, contrarian)
        a = bot.act(v)
        assert a in v.legal
        if candidates(v, ExpertBot(3), expert_choice) is not None:
            assert a != expert_choice and bot.overrides == 1
            changed += 1
    assert changed >= 1
    v = next(x for x in (_claim_view(s) for s in range(40)) if x is not None)
    default = ExpertBot(3).act(v)
    assert LearnedBot(3, timid).act(v) == default
    a = LearnedBot(3, contrarian).act(v)
    assert a in v.legal and a != default


def test_playing_needs_no_numpy() -> None:
    code = ("import sys\n"
            "from laizi.bots.registry import make_bot\n"
            "from laizi.game.state import HandState\n"
            "from laizi.rules import RuleSet\n"
            "from laizi.views import SeatView\n"
            "st = HandState.new(RuleSet.preset('kaikoufan'), 0, seed=b'n' * 32)\n"
            "bots = [make_bot('learned', s) for s in range(4)]\n"
            "while not st.over:\n"
            "    for s in st.to_act():\n"
            "        if not st.over:\n"
            "            st.apply(s, bots[s].act(SeatView.from_state(st, s)))\n"
            "print('numpy' in sys.modules, 'torch' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False False"


def test_critic_keeps_to_its_preset() -> None:
    """Weights trained on one preset leave every decision under another to ``expert``."""
    nd = len(DISCARD_FEATURES)
    lin = [0.0] * nd
    lin[DISCARD_FEATURES.index("is_expert")] = -10.0
    spec = {"heads": {"discard": _head(nd, lin)}, "trained": {"preset": "kaikoufan"}}
    bot = LearnedBot(3, Model(spec))
    for preset in ("jiayu", "kaikoufan"):
        st = advance(RuleSet.preset(preset), 12, 12, bot="expert")
        assert not st.over
        v = SeatView.from_state(st, st.turn)
        expert_choice = ExpertBot(3).act(v)
        if candidates(v, ExpertBot(3), expert_choice) is None:
            continue
        a = bot.act(v)
        assert (a == expert_choice) == (preset == "jiayu")


def test_chunked_arena_resumes_and_combines(tmp_path: Path) -> None:
    """``benchmarks/learned_arena.py``: real arenas per chunk, a finished chunk is not
    rerun, the combined margin is the chunks' mean, a run against itself differs by 0."""
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "learned_arena.py"
    out = tmp_path / "run"
    cmd = [sys.executable, str(script), "--bots", "greedy,random,random,random", "--seed", "5",
           "--chunks", "2", "--chunk-deals", "2", "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    chunks = sorted(out.glob("chunk_*.json"))
    assert [p.name for p in chunks] == ["chunk_001.json", "chunk_002.json"]
    data = [json.loads(p.read_text()) for p in chunks]
    assert [d["seed"] for d in data] == ["5.1", "5.2"] and all(d["deals"] == 2 for d in data)
    stamp = [p.stat().st_mtime_ns for p in chunks]
    r = subprocess.run([*cmd, "--against", str(out)], capture_output=True, text=True,
                       timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    assert [p.stat().st_mtime_ns for p in chunks] == stamp  # nothing rerun
    res = json.loads((out / "combined.json").read_text())
    mean = sum(d["margins"][0]["mean"] for d in data) / 2
    assert res["deals"] == 4 and abs(res["margin"]["mean"] - mean) < 1e-9
    assert res["margin"]["ci95"][0] < mean < res["margin"]["ci95"][1]
    assert res["against"]["mean"] == 0.0 and res["against"]["chunks"] == [1, 2]
