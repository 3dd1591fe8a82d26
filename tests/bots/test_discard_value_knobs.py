"""Round 9 of issue 28: two other shapes of ``strong``'s discard value, off by default
(``StrongParams.advance_far_full``, ``other_targets``), and the script that races them
(``benchmarks/ab_discard_value.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from laizi.bots import SeatView
from laizi.bots.strong import StrongBot, StrongParams
from laizi.bots.toolkit import natural
from laizi.game import HandState
from laizi.game.actions import Action
from laizi.rules import RuleSet

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "ab_discard_value.py"


def _turn_views(n_hands: int = 6) -> list[SeatView]:
    """Views of seats about to discard, from hands ``strong`` plays out."""
    rules = RuleSet.preset("kaikoufan")
    players = [StrongBot(s) for s in range(4)]
    views: list[SeatView] = []
    for h in range(n_hands):
        st = HandState.new(rules, h % 4, seed=f"r9-{h}".encode().ljust(32, b"\0"))
        while not st.over:
            for seat in st.to_act():
                v = SeatView.from_state(st, seat, st.legal_actions(seat))
                if v.phase == "turn" and sum(a.type == "discard" for a in v.legal) > 2:
                    views.append(v)
                st.apply(seat, players[seat].act(v))
                if st.over:
                    break
    return views


def _scores(bot: StrongBot, v: SeatView) -> dict[Action, float]:
    nat, wilds = natural(v)
    lz, special = v.setup.laizi, v.setup.special
    discards = [a for a in v.legal if a.type == "discard" and a.tile != lz
                and a.tile not in special]
    return {a: s for s, a in bot.rank_discards_strong(v, discards, nat, wilds)}


def test_the_knobs_are_off_by_default_and_move_values_the_way_they_say() -> None:
    views = _turn_views()
    assert len(views) > 40
    base = StrongBot(1)
    assert base.p.advance_far_full == 0 and base.p.other_targets == 0
    far = StrongBot(1, StrongParams(advance_far_full=40.0, advance_far_floor=0.2))
    others = StrongBot(1, StrongParams(other_targets=0.3))
    lower = higher = 0
    for v in views:
        b, f, o = _scores(base, v), _scores(far, v), _scores(others, v)
        assert b.keys() == f.keys() == o.keys()
        for a, s in b.items():
            # a factor in [floor, 1] on the small hand's value: never more than before
            assert f[a] <= s + 1e-9
            # a share of the other targets added: never less than before
            assert o[a] >= s - 1e-9
            lower += f[a] < s - 1e-9
            higher += o[a] > s + 1e-9
    # each knob acts on real hands (not only in principle)
    assert lower > 0 and higher > 0


def test_the_race_script_reports_a_margin_and_expert_against_itself_is_zero() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    cmd = [sys.executable, str(SCRIPT), "--deals", "3", "--seed", "t9-test", "--workers", "1",
           "--variant", "same=", "--variant", "others=other_targets:0.5", "--json"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [row["variant"] for row in rows] == ["same", "others"]
    same, others = rows
    assert same["knobs"] == {} and same["margin"] == 0.0 and same["ci95"] == [0.0, 0.0]
    assert others["knobs"] == {"other_targets": 0.5} and others["deals"] == 3
    assert others["zero_sum"] and others["ci95"][0] <= others["margin"] <= others["ci95"][1]


def test_the_race_script_refuses_a_bad_variant_in_one_line() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for bad in ("noequals", "x=nosuchknob:1", "x=other_targets:abc"):
        r = subprocess.run([sys.executable, str(SCRIPT), "--variant", bad], capture_output=True,
                           text=True, timeout=120, env=env)
        assert r.returncode != 0
        assert r.stderr.strip().startswith("ab_discard_value:"), r.stderr
        assert "Traceback" not in r.stderr
