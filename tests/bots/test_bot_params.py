"""Bots are configured by frozen parameter objects and change nothing per decision; the
experiments left off live apart (laizi.bots.experimental) under their own names."""

from __future__ import annotations

import ast
import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from laizi.bots import SeatView, make_bot
from laizi.bots.experimental.expert import ExperimentalExpert, Experiments
from laizi.bots.expert import ExpertBot, ExpertConfig
from laizi.bots.registry import ALL_BOT_NAMES, BOT_NAMES, EXPERIMENTAL_BOT_NAMES
from laizi.bots.strong import StrongBot, StrongParams
from laizi.game import HandState
from laizi.rules import RuleSet

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "src" / "laizi" / "bots"


@pytest.mark.parametrize("cls", [StrongParams, ExpertConfig, Experiments])
def test_parameter_objects_are_frozen(cls: type) -> None:
    obj = cls()
    name = dataclasses.fields(obj)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(obj, name, 0.1)


def test_strong_has_no_class_level_knobs() -> None:
    knobs = {f.name for f in dataclasses.fields(StrongParams)}
    assert not knobs & set(vars(StrongBot))
    slow = StrongBot(1, StrongParams(q=0.3))
    assert slow.p.q == 0.3 and StrongBot(1).p.q != 0.3
    assert repr(slow).startswith("StrongBot(seed=1, params=StrongParams(q=0.3, ")
    assert slow.p.changed() == {"q": 0.3}


def _state(bot: object) -> str:
    """Everything a bot holds, as text (its ``strong`` core's knobs too; a compiled
    ``StrongBot`` has no ``__dict__``: its seed and knobs are all it holds)."""
    parts = [repr(bot)]
    d = getattr(bot, "__dict__", None)
    if d is not None:
        parts.append(repr(sorted((k, repr(v)) for k, v in d.items() if k != "strong")))
    # (not isinstance(bot, StrongBot): in the compiled build the native subclasses of the
    # ABC Bot share its instance cache, and a negative answer there poisons isinstance(x, Bot))
    core = bot if type(bot) is StrongBot else getattr(bot, "strong", None)
    if core is not None:
        parts.append(f"{core.seed!r}|{core.p!r}")
    return "|".join(parts)


@pytest.mark.parametrize("bot", [
    ExpertBot(3),
    ExperimentalExpert(3, experiments=Experiments(q_late=0.3, ready_rule=True, fold_shanten=5)),
    StrongBot(3),
])
def test_nothing_changes_per_decision(bot: ExpertBot | StrongBot) -> None:
    """A whole hand of decisions leaves the bot as it was (the wall-dependent ``q``
    builds a core per decision instead of changing the bot's)."""
    rules = RuleSet.preset("kaikoufan")
    st = HandState.new(rules, 0, seed=b"frozen".ljust(32, b"\0"))
    others = [make_bot("strong", s) for s in range(4)]
    before = _state(bot)
    decisions = 0
    while not st.over:
        for seat in st.to_act():
            legal = st.legal_actions(seat)
            v = SeatView.from_state(st, seat, legal)
            if seat == 0:
                a = bot.act(v)
                decisions += 1
                assert _state(bot) == before
            else:
                a = others[seat].act(v)
            st.apply(seat, a)
            if st.over:
                break
    assert decisions > 5


def test_production_bots_do_not_import_the_experiments() -> None:
    importers = []
    for path in BOTS.rglob("*.py"):
        rel = path.relative_to(BOTS)
        if rel.parts[0] == "experimental" or rel.name == "registry.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            mods = ([a.name for a in node.names] if isinstance(node, ast.Import)
                    else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(m.startswith("laizi.bots.experimental") for m in mods):
                importers.append(str(rel))
    assert importers == []


def test_experimental_bots_have_their_own_names() -> None:
    assert not set(EXPERIMENTAL_BOT_NAMES) & set(BOT_NAMES)
    assert ALL_BOT_NAMES == BOT_NAMES + EXPERIMENTAL_BOT_NAMES
    for name in EXPERIMENTAL_BOT_NAMES:
        bot = make_bot(name, 1)
        assert isinstance(bot, ExperimentalExpert)
    assert make_bot("expert-search", 1).search is not None
    assert make_bot("expert-ready", 1).experiments.ready_rule
    assert make_bot("expert-block", 1).experiments.fold_shanten == 4
    with pytest.raises(ValueError, match="expert-search"):
        make_bot("expert-nothing")


def test_the_cli_runs_an_experimental_bot() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "laizi", "arena", "--bots", "expert-block,expert,strong,greedy",
         "--deals", "2", "--seed", "5", "--json", "--no-progress"],
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert [b["bot"] for b in data["bots"]] == ["expert-block", "expert", "strong", "greedy"]
    assert data["zero_sum"]


def test_the_expert_still_samples_worlds_for_the_training_script() -> None:
    """``scripts/train_policy.py`` samples worlds through ``ExpertBot._sample``: a world
    the seat cannot tell from its own (same view), the hidden tiles dealt anew."""
    import random

    rules = RuleSet.preset("kaikoufan")
    st = HandState.new(rules, 0, seed=b"worlds".ljust(32, b"\0"))
    bots = [make_bot("greedy", s) for s in range(4)]
    for _ in range(30):
        seat = st.to_act()[0]
        st.apply(seat, bots[seat].act(SeatView.from_state(st, seat)))
    seat = st.to_act()[0]
    view = SeatView.from_state(st, seat)
    world = ExpertBot(1)._sample(view, random.Random(4))
    assert world is not None
    again = SeatView.from_state(world, seat)
    assert again.hand == view.hand and again.legal == view.legal
    assert again.unseen() == view.unseen() and again.wall_remaining == view.wall_remaining
    assert world.tile_total() == [4] * 34
    assert world.hands != st.hands or world.wall != st.wall
