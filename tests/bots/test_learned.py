"""The ``learned`` bot: shipped weights, seat-view-only decisions, legal play, the
critic's override rule. (No training here: ``scripts/train_policy.py`` does that.)"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from dataclasses import replace
from importlib import resources
from pathlib import Path

import pytest

from laizi.bots.base import SeatView
from laizi.bots.expert import ExpertBot
from laizi.bots.learned import (
    CLAIM_FEATURES,
    DISCARD_FEATURES,
    WEIGHTS,
    Knobs,
    LearnedBot,
    Model,
    candidates,
    laizi_timing,
    load_model,
    special_timing,
    tuned_expert,
)
from laizi.bots.registry import make_bot
from laizi.game.actions import Action
from laizi.game.state import HandState
from laizi.game.wall import hand_seed
from laizi.rules import RuleSet
from laizi.scoring.model import Meld
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


def test_tuned_knobs_reach_the_expert_and_stay_in_their_preset() -> None:
    """The weights file's ``tuned.knobs`` set the ``expert`` the critic plays with —
    under the weights' preset only; under another the bot plays as ``expert`` itself."""
    nc = len(CLAIM_FEATURES)
    spec = {"heads": {"claim": _head(nc, [0.0] * nc, 3.0)},
            "trained": {"preset": "kaikoufan"},
            "tuned": {"knobs": {"q": 0.3, "big_weight": 0.7, "kong_max_distance": 2,
                                "claim_margin": 12.0, "pass_bias": -4.0}}}
    model = Model(spec)
    assert model.knobs == Knobs(q=0.3, big_weight=0.7, kong_max_distance=2,
                                claim_margin=12.0, pass_bias=-4.0)
    bot = LearnedBot(3, model)
    p = bot.expert.strong.p
    assert (p.q, p.big_weight, p.kong_max_distance) == (0.3, 0.7, 2)
    assert bot.plain.strong.p == ExpertBot(3).strong.p
    with pytest.raises(ValueError, match="unknown tuned knobs"):
        Knobs.from_dict({"q": 0.3, "nonsense": 1.0})
    assert Knobs.from_dict(Knobs(q=0.35).to_dict()) == Knobs(q=0.35)
    # a bold setting changes some decision of expert's under both presets; the bot
    # follows it under kaikoufan only
    bold = Knobs(big_weight=0.1)
    bold_bot = Model({**spec, "tuned": {"knobs": bold.to_dict()}})
    differs = {p: [0, 0] for p in ("kaikoufan", "jiayu")}
    for preset, counts in differs.items():
        for seed in range(24):
            st = advance(RuleSet.preset(preset), seed, 6 + seed % 12, bot="expert")
            if st.over:
                continue
            v = SeatView.from_state(st, st.turn)
            plain = ExpertBot(3).act(v)
            counts[0] += tuned_expert(3, bold).act(v) != plain
            counts[1] += LearnedBot(3, bold_bot).act(v) != plain
    assert differs["kaikoufan"][0] >= 1 and differs["jiayu"][0] >= 1
    assert differs["kaikoufan"][1] >= 1 and differs["jiayu"][1] == 0


def test_round5_kong_knobs_reach_the_strong_core() -> None:
    """Round 5's knobs (laizi kong, 红中/皮子 kong, concealed and added kongs) survive the
    weights file and set the ``strong`` core the critic plays with; at their defaults the
    bot plays with ``expert`` itself."""
    k = Knobs(laizi_policy="kong", keep_two_for_big=False, special_policy="when_close",
              special_shanten=1, rob_risk_scale=0.0, kong_eager=True)
    assert Knobs.from_dict(json.loads(json.dumps(k.to_dict()))) == k
    bot = tuned_expert(3, k)
    p = bot.strong.p
    assert (p.laizi_policy, p.keep_two_for_big, p.special_policy, p.special_shanten,
            p.rob_risk_scale, p.kong_eager) == ("kong", False, "when_close", 1, 0.0, True)
    assert tuned_expert(3, Knobs(laizi_policy="smart")).strong.p.kong_eager is False
    assert tuned_expert(3, Knobs()).strong.p == ExpertBot(3).strong.p


def test_round5_variants_file_names_real_knobs() -> None:
    """``benchmarks/results/learned_round5_variants.json`` (``--tune-variants``) loads."""
    tp: object = _load_script("train_policy")
    path = Path(__file__).resolve().parents[2] / "benchmarks/results/learned_round5_variants.json"
    variants = tp.load_variants(str(path))  # type: ignore[attr-defined]
    assert len(variants) == 9 and all(v["knobs"] for v in variants)


def _load_script(name: str) -> object:
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def test_tune_neighbours_stay_in_bounds() -> None:
    tp: object = _load_script("train_policy")
    space = tp.TUNE_SPACE  # type: ignore[attr-defined]
    start = tp.tune_start(load_model().spec)  # type: ignore[attr-defined,union-attr]
    assert set(space) <= set(start) and start["kong_max_distance"] == 99
    assert start["laizi_policy"] == "keep_one" and start["kong_eager"] is False
    rng, again = random.Random(1), random.Random(1)
    k = dict(start)
    for _ in range(200):
        n = tp.perturb(k, rng)  # type: ignore[attr-defined]
        assert n == tp.perturb(k, again)  # type: ignore[attr-defined]  # seeded
        assert sum(n[x] != k[x] for x in k) <= 2  # (a knob at its bound may not move)
        for name, (lo, hi, _step) in space.items():
            v = n[name]
            assert lo <= v <= hi or (name == "kong_max_distance" and v == 99), (name, v)
        k = n


@pytest.mark.slow
def test_tune_phase_is_resumable_and_deterministic(tmp_path: Path) -> None:
    """``train_policy.py --phase tune``: real duplicate deals; a run stopped part-way
    (its cache cut) and rerun ends exactly as the uninterrupted run, playing only what was
    missing; the incumbent is written into the weights file as ``tuned``."""
    script = Path(__file__).resolve().parents[2] / "scripts" / "train_policy.py"
    weights = tmp_path / "w.json"
    weights.write_text(resources.files("laizi.data").joinpath(WEIGHTS).read_text())
    cmd = [sys.executable, str(script), "--phase", "tune", "--out", str(tmp_path / "run"),
           "--export", str(weights), "--workers", "1", "--seed", "3", "--tune-generations", "1",
           "--tune-candidates", "2", "--tune-deals", "1", "--tune-confirm", "2",
           "--tune-plot", ""]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    cache = tmp_path / "run" / "tune_cache.jsonl"
    lines = cache.read_text().splitlines()
    assert len(lines) == 5  # 3 knob settings on the race block, 2 on the confirmation
    first = json.loads((tmp_path / "run" / "tune_summary.json").read_text())
    assert first["hands"] == 4 * (3 * 1 + 2 * 2) and first["generations"] == 1
    tuned = json.loads(weights.read_text())["tuned"]
    assert tuned["knobs"] == first["knobs"] and Model(json.loads(weights.read_text())).knobs
    cache.write_text(lines[0] + "\n")  # stopped after the first setting's block
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    again = json.loads((tmp_path / "run" / "tune_summary.json").read_text())
    assert again == first
    assert sorted(cache.read_text().splitlines()) == sorted(lines)


def test_run_budget_bounds_every_phase(tmp_path: Path) -> None:
    """``--budget-minutes``: generation ends early enough for training and tuning, a
    tuning generation past the deadline stops before its next block, a budget with no room
    to generate is refused plainly, and the run logs and records its phases' times."""
    import argparse

    tp: object = _load_script("train_policy")
    ns = argparse.Namespace
    plan = tp.plan_deadlines  # type: ignore[attr-defined]
    reserve = tp.TRAIN_RESERVE_MINUTES  # type: ignore[attr-defined]
    base = {"gen_minutes": 55.0, "tune_minutes": 20.0}
    assert plan(ns(phase="all", budget_minutes=None, **base), 0.0) == (3300.0, float("inf"))
    gen, end = plan(ns(phase="all", budget_minutes=60.0, **base), 0.0)
    assert end == 3600.0 and gen == 60 * (60 - 20 - reserve)
    assert plan(ns(phase="all", budget_minutes=120.0, **base), 0.0) == (3300.0, 7200.0)
    assert plan(ns(phase="gen", budget_minutes=30.0, **base), 0.0) == (1800.0, 1800.0)
    with pytest.raises(ValueError, match="no time to generate"):
        plan(ns(phase="all", budget_minutes=20.0, **base), 0.0)
    # a tuner past its deadline plays nothing (no pool: any block would fail)
    a = ns(seed=3, tune_candidates=2, tune_deals=1, tune_confirm=2, tune_z=1.0,
           preset="kaikoufan", out=str(tmp_path / "tune"))
    tuner = tp.Tuner(a, load_model().spec, None, deadline=0.0)  # type: ignore[attr-defined,union-attr]
    start = tp.tune_start(load_model().spec)  # type: ignore[attr-defined,union-attr]
    assert tuner.generation(0, start) is None and tuner.hands_played == 0
    script = Path(__file__).resolve().parents[2] / "scripts" / "train_policy.py"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = tmp_path / "run"
    r = subprocess.run([sys.executable, str(script), "--phase", "all", "--out", str(out),
                        "--budget-minutes", "10", "--tune-minutes", "20"],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 2 and "no time to generate" in r.stderr
    assert "Traceback" not in r.stderr and not out.exists()
    r = subprocess.run([sys.executable, str(script), "--phase", "gen", "--out", str(out),
                        "--shards", "0", "--workers", "1", "--budget-minutes", "5"],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    assert "run: phase gen took" in r.stdout and "run: total" in r.stdout
    assert "budget 5)" in r.stdout
    rec = json.loads((out / "run_times.jsonl").read_text().splitlines()[-1])
    assert rec["budget_minutes"] == 5.0 and set(rec["phase_seconds"]) == {"gen"}
    assert 0 <= rec["phase_seconds"]["gen"] <= rec["total_seconds"] < 120


def _laizi_view(natural_hand: dict[int, int], laizi: int, wall: int) -> tuple[SeatView, Action]:
    """A kaikoufan turn view whose own hand is ``natural_hand`` plus ``laizi`` laizi, with
    a laizi kong and one discard legal (the discard is the returned action)."""
    st = advance(RuleSet.preset("kaikoufan"), 5, 0, bot="expert")
    v = SeatView.from_state(st, st.turn)
    lz = v.setup.laizi
    hand = [0] * 34
    for k, c in natural_hand.items():
        hand[k] += c
    hand[lz] += laizi
    d = Action("discard", max(natural_hand))
    v = replace(v, hand=hand, legal=[Action("laizi_kong", lz), d], wall_remaining=wall,
                melds=[[] for _ in range(4)], _visible=None)
    return v, d


def _plain_suit(v: SeatView) -> int:
    bad = {v.setup.laizi, *v.setup.special}
    return next(s for s in range(3) if not any(s * 9 + i in bad for i in range(9)))


def test_round6_laizi_timing_moves_only_its_decision() -> None:
    """Round 6's ``laizi_timing``: "ready" lays a single laizi aside when the natural
    tiles alone are ready (``expert`` keeps it), "hopeless" keeps a second laizi that
    ``expert`` lays aside in a hand far from ready late; at "expert" nothing changes."""
    probe, _d = _laizi_view({0: 1}, 0, 50)
    s = _plain_suit(probe) * 9
    # 123456789 + 22 + 55 in one plain suit: ready (2 or 5), a 2/5/8 pair
    ready = {s + i: 1 for i in range(9)}
    ready[s + 1] += 2
    ready[s + 4] += 2
    v, d = _laizi_view(ready, 1, 50)
    assert ExpertBot(3).act(v) == d  # expert keeps its single laizi
    assert laizi_timing(v, Knobs(), d) is None
    assert laizi_timing(v, Knobs(laizi_timing="ready"), d) is True
    assert LearnedBot(3, knobs=Knobs(laizi_timing="ready")).act(v).type == "laizi_kong"
    assert laizi_timing(v, Knobs(laizi_timing="ready", laizi_wall=60), d) is None  # wall short
    assert LearnedBot(3).act(v) == d
    # a scattered hand with two laizi, late: expert lays the second aside, "hopeless" keeps it
    o = (s + 9) % 27
    far = {s: 1, s + 3: 1, s + 7: 1, o: 1, o + 4: 1, o + 8: 1, 27: 1, 28: 1, 29: 1, 30: 1}
    far = {k: c for k, c in far.items() if k not in (probe.setup.laizi, *probe.setup.special)}
    far[s + 5] = 12 - sum(far.values())  # 12 natural tiles + 2 laizi
    v2, d2 = _laizi_view(far, 2, 10)
    assert ExpertBot(3).act(v2).type == "laizi_kong"
    hopeless = Knobs(laizi_timing="hopeless", laizi_steps=3, laizi_wall=20)
    assert laizi_timing(v2, hopeless, ExpertBot(3).act(v2)) is False
    assert LearnedBot(3, knobs=hopeless).act(v2) == d2
    assert LearnedBot(3, knobs=Knobs(laizi_timing="ready")).act(v2).type == "laizi_kong"
    assert Knobs.from_dict(hopeless.to_dict()) == hopeless
    with pytest.raises(ValueError):
        laizi_timing(v2, Knobs(laizi_timing="sometimes"), d2)


def test_round6_variants_file_names_real_knobs() -> None:
    """``benchmarks/results/learned_round6_variants.json`` loads into real knobs."""
    tp: object = _load_script("train_policy")
    path = Path(__file__).resolve().parents[2] / "benchmarks/results/learned_round6_variants.json"
    variants = tp.load_variants(str(path))  # type: ignore[attr-defined]
    assert len(variants) == 5
    for v in variants:
        assert Knobs.from_dict(v["knobs"]).laizi_timing in ("ready", "big", "hopeless")


def _special_view(natural_hand: dict[int, int], wall: int,
                  opened: int = 0) -> tuple[SeatView, Action, Action]:
    """A kaikoufan turn view whose own hand is ``natural_hand`` plus one 红中/皮子, with
    its kong, its discard and the discard of the highest natural tile legal (returned:
    the special kong and that discard); the next seat has ``opened`` pengs."""
    st = advance(RuleSet.preset("kaikoufan"), 5, 0, bot="expert")
    v = SeatView.from_state(st, st.turn)
    sp = min(v.setup.special)
    hand = [0] * 34
    for k, c in natural_hand.items():
        hand[k] += c
    hand[sp] += 1
    kong, d = Action("special_kong", sp), Action("discard", max(natural_hand))
    melds: list[list[Meld]] = [[] for _ in range(4)]
    nxt = (v.seat + 1) % 4
    melds[nxt] = [Meld("peng", 27 + i, v.seat) for i in range(opened)]
    v = replace(v, hand=hand, legal=[kong, Action("discard", sp), d], wall_remaining=wall,
                melds=melds, _visible=None)
    return v, kong, d


def _far_hand(tiles: int) -> tuple[dict[int, int], int]:
    """A hand of ``tiles`` natural tiles far from ready (scattered suits and honours, no
    laizi nor special tile), and the plain suit's first kind."""
    probe, _k, _d = _special_view({0: 1}, 50)
    bad = {probe.setup.laizi, *probe.setup.special}
    s = _plain_suit(probe) * 9
    o = (s + 9) % 27
    far = {s: 1, s + 3: 1, s + 7: 1, o: 1, o + 4: 1, o + 8: 1, 27: 1, 28: 1, 29: 1, 30: 1}
    far = {k: c for k, c in far.items() if k not in bad}
    far[s + 5] = tiles - sum(far.values())
    return far, s


def test_round7_special_timing_moves_only_its_decision() -> None:
    """Round 7's ``special_timing``: "hopeless" keeps a 红中/皮子 that ``expert`` lays
    aside, only in a hand far from ready with a short wall (and, with
    ``special_threat``, a seat that has opened that often); at "expert" nothing changes."""
    far, s = _far_hand(13)  # 13 natural tiles + the special tile
    v, kong, d = _special_view(far, 10)
    assert ExpertBot(3).act(v) == kong  # expert lays the special tile aside
    assert special_timing(v, Knobs(), kong) is None
    assert LearnedBot(3).act(v) == kong
    idle = Knobs(special_steps=3, special_wall=20)  # the rule off: its numbers do nothing
    assert special_timing(v, idle, kong) is None and LearnedBot(3, knobs=idle).act(v) == kong
    hopeless = Knobs(special_timing="hopeless", special_steps=3, special_wall=20)
    assert special_timing(v, hopeless, kong) is False
    assert LearnedBot(3, knobs=hopeless).act(v) == d  # kept: neither laid aside nor discarded
    assert special_timing(replace(v, wall_remaining=30), hopeless, kong) is None  # wall long
    assert special_timing(v, replace(hopeless, special_steps=9), kong) is None  # not so far
    assert special_timing(v, hopeless, d) is None  # only when expert gives the tile up
    # the laizi rule of round 6 does not touch it, nor it the laizi rule
    assert LearnedBot(3, knobs=Knobs(laizi_timing="hopeless", laizi_steps=3,
                                     laizi_wall=20)).act(v) == kong
    # with a threat condition: only once another seat has opened that often
    threat = replace(hopeless, special_threat=2)
    assert special_timing(v, threat, kong) is None
    v2, kong2, d2 = _special_view(far, 10, opened=2)
    assert special_timing(v2, threat, kong2) is False
    assert LearnedBot(3, knobs=threat).act(v2) == d2
    # a ready hand keeps expert's choice even late: 123456789 + 22 + 55 in one suit
    ready = {s + i: 1 for i in range(9)}
    ready[s + 1] += 2
    ready[s + 4] += 2
    v3, _kong3, _d3 = _special_view(ready, 10)
    assert special_timing(v3, hopeless, ExpertBot(3).act(v3)) is None
    assert LearnedBot(3, knobs=hopeless).act(v3) == ExpertBot(3).act(v3)
    assert Knobs.from_dict(hopeless.to_dict()) == hopeless
    assert Knobs.from_dict({"special_timing": "hopeless", "special_wall": 40.0}).special_wall == 40
    with pytest.raises(ValueError):
        special_timing(v, Knobs(special_timing="sometimes"), kong)


def test_round7_variants_files_name_real_knobs() -> None:
    """``benchmarks/results/learned_round7_variants.json``, ``…_fold_variants.json`` and
    ``…_fold_wide_variants.json`` load into real knobs."""
    tp: object = _load_script("train_policy")
    res = Path(__file__).resolve().parents[2] / "benchmarks/results"
    variants = tp.load_variants(str(res / "learned_round7_variants.json"))  # type: ignore[attr-defined]
    assert len(variants) == 6
    for v in variants:
        assert Knobs.from_dict(v["knobs"]).special_timing == "hopeless"
    folds = tp.load_variants(str(res / "learned_round7_fold_variants.json"))  # type: ignore[attr-defined]
    wide = tp.load_variants(str(res / "learned_round7_fold_wide_variants.json"))  # type: ignore[attr-defined]
    assert len(folds) == 5 and len(wide) == 3
    for v in folds + wide:
        assert Knobs.from_dict(v["knobs"]).fold_distance < 99


def test_round7_fold_moves_only_late_hopeless_discards() -> None:
    """Round 7's ``fold_distance``/``fold_wall`` (``strong``'s late fold, off in
    ``expert``): at the default the tuned ``expert`` is ``expert`` itself; on, only the
    discard scores of a far hand late with an opened seat move."""
    assert tuned_expert(3, Knobs()).strong.p == ExpertBot(3).strong.p
    assert tuned_expert(3, Knobs(fold_wall=20)).strong.p.fold_distance is None
    far, s = _far_hand(14)
    st = advance(RuleSet.preset("kaikoufan"), 5, 0, bot="expert")
    v = SeatView.from_state(st, st.turn)
    hand = [0] * 34
    for k, c in far.items():
        hand[k] += c
    melds: list[list[Meld]] = [[] for _ in range(4)]
    nxt = (v.seat + 1) % 4
    melds[nxt] = [Meld("peng", 31, v.seat), Meld("peng", 32, v.seat)]
    rivers: list[list[int]] = [[] for _ in range(4)]
    rivers[nxt] = [s + 3]
    legal = [Action("discard", k) for k in sorted(far)]
    fold = Knobs(fold_distance=3, fold_wall=40)

    def scores(knobs: Knobs, wall: int) -> list[float]:
        w = replace(v, hand=hand, legal=legal, wall_remaining=wall, melds=melds,
                    rivers=rivers, _visible=None)
        nat, wilds = w.hand[:], 0
        bot = tuned_expert(3, knobs).strong
        return [sc for sc, _a in sorted(((sc, a.tile or 0) for sc, a in
                                         bot.rank_discards_strong(w, legal, nat, wilds)),
                                        key=lambda x: x[1])]

    assert scores(fold, 60) == scores(Knobs(), 60)  # wall long: no fold
    assert scores(fold, 10) != scores(Knobs(), 10)  # late and far: the danger weighs more
    assert scores(Knobs(fold_distance=9), 10) == scores(Knobs(), 10)  # not so far
    assert Knobs.from_dict(fold.to_dict()) == fold
    assert tuned_expert(3, fold).strong.p.fold_distance == 3


def test_ctrl_c_during_generation_ends_in_one_line_and_keeps_the_shards(tmp_path: Path) -> None:
    """``train_policy.py`` used ``multiprocessing.Pool``, whose ``terminate`` could hang for
    ever after a Ctrl-C (a worker writing a result while holding the result queue's lock, the
    fault CI met in ``laizi sim``). On ``laizi.distributed.local_pool`` a Ctrl-C while shards
    are in flight ends in one line, exit 130, no worker left; the finished shards stay and the
    same command goes on from them."""
    from support.interrupt import children, interrupt_when

    script = Path(__file__).resolve().parents[2] / "scripts" / "train_policy.py"
    out = tmp_path / "run"
    shards = out / "shards"
    args = ["--phase", "gen", "--out", str(out), "--shards", "400", "--games", "1",
            "--worlds", "1", "--workers", "2"]

    def working(pid: int) -> bool:  # both workers up and a shard already written
        return len(children(pid)) >= 2 and any(shards.glob("shard_*[0-9].npz"))

    r = interrupt_when(args, working, "a shard to be written", program=[sys.executable, str(script)])
    assert r.returncode == 130, r.stderr
    assert "Traceback" not in r.stderr
    assert r.stderr.strip().startswith("train_policy: interrupted")
    assert len(r.stderr.strip().splitlines()) == 1
    assert len(r.workers) == 2 and r.left == []
    kept = sorted(shards.glob("shard_*[0-9].npz"))
    assert kept and len(kept) < 400
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    n = max(int(f.stem.split("_")[1]) for f in kept) + 2  # (one past them: to go, at least 1)
    again = subprocess.run([sys.executable, str(script), *args[:4], "--shards", str(n), *args[6:]],
                           capture_output=True, text=True, timeout=120, env=env)
    assert again.returncode == 0, again.stderr
    assert f"gen: {len(kept)} shards done, {n - len(kept)} to go" in again.stdout
    assert len(list(shards.glob("shard_*[0-9].npz"))) == n
