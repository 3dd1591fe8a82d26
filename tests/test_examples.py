"""The scripts in examples/ run and print what they say (each in its own process)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from laizi.sim import simulate

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(name: str, *args: str) -> str:
    proc = subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True,
                          text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return proc.stdout


def test_every_example_is_tested() -> None:
    tested = {"score_hand.py", "simulate.py", "replay_log.py", "custom_bot.py"}
    assert {p.name for p in EXAMPLES.glob("*.py")} == tested


def test_score_hand() -> None:
    out = run("score_hand.py")
    assert "ok: True hard: True big hands: []" in out
    assert "payments: [-32, 96, -32, -32]" in out
    assert "自摸 self-draw ×2" in out


def test_simulate_matches_the_library() -> None:
    out = run("simulate.py", "30")
    stats = simulate(30, preset="kaikoufan", bots=["strong", "greedy", "greedy", "random"],
                     seed=1).to_json(timing=False)
    assert f"30 hands, {stats['wins']} wins, zero-sum: True" in out
    for seat in stats["seats"]:
        assert re.search(rf"seat {seat['seat']} +{seat['bot']}: +{seat['wins']} wins, +"
                         rf"{seat['points']} points", out), out


def test_replay_own_match() -> None:
    out = run("replay_log.py")
    assert "same state as the original: True" in out
    assert "fair deals: True - 3 hands checked" in out


def test_replay_a_given_log(tmp_path: Path) -> None:
    lines: list[str] = []
    simulate(4, preset="jiayu", bots=["greedy"] * 4, seed=5, log_lines=lines)
    log = tmp_path / "hands.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = run("replay_log.py", str(log))
    assert out.count("HandState(hand=1") == 4
    assert "fair deals: True - 4 hands checked" in out
    assert "same state" not in out


def test_custom_bot() -> None:
    out = run("custom_bot.py", "12")
    found = dict(re.findall(r"^ *(\w+): ([+-][\d.]+) points per hand$", out, re.M))
    assert set(found) == {"cautious", "greedy", "random"}
    assert "zero-sum: True" in out
