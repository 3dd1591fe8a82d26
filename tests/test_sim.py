"""Simulator: statistics, reproducibility across worker counts, logs, CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from laizi.cli import main
from laizi.sim import simulate

TIMING = ("seconds", "hands_per_second", "workers")


def _cli_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(args) == 0
    out = capsys.readouterr().out
    data: dict[str, Any] = json.loads(out)
    return data


def test_sim_json_is_reproducible_for_any_worker_count(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["sim", "--hands", "120", "--seed", "42", "--bots", "strong,greedy,random,greedy",
            "--json", "--no-progress"]
    one = _cli_json([*base, "--workers", "1"], capsys)
    two = _cli_json([*base, "--workers", "2"], capsys)
    for key in ("hands", "seconds", "hands_per_second", "zero_sum", "win_rate", "draw_rate",
                "big_hands", "seats"):
        assert key in one
    assert one["hands"] == 120 and one["zero_sum"] is True
    assert {k: v for k, v in one.items() if k not in TIMING} == \
        {k: v for k, v in two.items() if k not in TIMING}
    assert len(one["seats"]) == 4
    assert abs(sum(s["points"] for s in one["seats"])) < 1e-6


def test_simulate_statistics_are_consistent() -> None:
    res = simulate(60, bots=["greedy", "greedy", "greedy", "greedy"], seed=5)
    d = res.to_json()
    assert d["wins"] == sum(s["wins"] for s in d["seats"])
    assert d["wins"] == d["self_draw_wins"] + d["discard_wins"] + d["rob_kong_wins"]
    assert abs(d["win_rate"] + d["draw_rate"] - 1.0) < 1e-9
    assert d["small_hands"] + sum(1 for r in res.records if r.big_hands) == d["wins"]
    assert sum(d["payment_histogram"].values()) == d["wins"]
    assert d["liability_events"] == sum(s["liable"] for s in d["seats"])


def test_sim_log_replays_and_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "hands.jsonl"
    assert main(["sim", "--hands", "8", "--seed", "3", "--log", str(log), "--no-progress",
                 "--json", "--workers", "2"]) == 0
    capsys.readouterr()
    lines = log.read_text().splitlines()
    assert sum(1 for ln in lines if json.loads(ln)["type"] == "start_hand") == 8
    assert main(["verify", str(log)]) == 0
    assert main(["replay", "--check", str(log)]) == 0


def test_sim_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "p.png"
    assert main(["sim", "--hands", "20", "--plot", str(out), "--no-progress"]) == 0
    assert out.stat().st_size > 1000
    assert "zero-sum: yes" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["--bots", "strong,genius,greedy,random"], "unknown bot"),
    (["--bots", "strong,greedy"], "four names"),
    (["--workers", "0"], "--workers"),
    (["--preset", "nope"], "unknown preset"),
    # checked before the hands are played (it failed after them, the results lost)
    (["--plot", "/nonexistent-folder/p.png"], "--plot: cannot write /nonexistent-folder/p.png: no folder"),
    (["--plot", "/tmp"], "it is a folder"),
])
def test_sim_bad_arguments(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--hands", "2", "--no-progress", *args]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("command", [["sim", "--hands"], ["arena", "--deals"]])
def test_a_plot_format_is_checked_before_the_work(command: list[str], tmp_path: Path) -> None:
    """`--plot x.txt` played every hand, then matplotlib refused the format: a million
    hands here would take far longer than the timeout."""
    pytest.importorskip("matplotlib")
    r = subprocess.run([sys.executable, "-m", "laizi", *command, "1000000", "--no-progress",
                        "--plot", str(tmp_path / "x.txt")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert f"--plot: cannot draw {tmp_path / 'x.txt'}: .txt is not a picture format" in r.stderr
    assert not (tmp_path / "x.txt").exists()


def test_sim_progress_goes_to_stderr() -> None:
    r = subprocess.run([sys.executable, "-m", "laizi", "sim", "--hands", "30", "--json"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0
    data = json.loads(r.stdout)
    assert data["hands"] == 30


def test_ctrl_c_with_workers_ends_in_one_line_and_stops_the_workers(tmp_path: Path) -> None:
    from support.interrupt import interrupt

    log = tmp_path / "hands.jsonl"
    r = interrupt(["sim", "--hands", "100000", "--workers", "2", "--no-progress",
                   "--log", str(log)], workers=2,
                  working=lambda: log.exists() and log.stat().st_size > 0)
    assert r.returncode == 130, r.stderr
    assert r.stderr.strip() == "interrupted"  # no worker's KeyboardInterrupt traceback
    assert len(r.workers) == 2 and r.left == []


def _first_worker(pid: int) -> bool:
    from support.interrupt import children

    return len(children(pid)) >= 1  # the pool is starting: that worker is milliseconds old


def _both_workers(pid: int) -> bool:
    from support.interrupt import children

    return len(children(pid)) >= 2


def _a_worker_ran(pid: int) -> bool:
    from support.interrupt import children, cpu_ticks

    kids = children(pid)
    return len(kids) >= 2 and any(cpu_ticks(k) > 0 for k in kids)


@pytest.mark.parametrize("moment", [_first_worker, _both_workers, _a_worker_ran] * 3,
                         ids=lambda f: f.__name__.strip("_"))
def test_ctrl_c_as_the_workers_start_ends_in_one_line(moment: Any) -> None:
    """A Ctrl-C in a worker's first milliseconds (before it ignores SIGINT) printed its
    KeyboardInterrupt traceback; in the parent, one that came during a fork was dropped by a
    fork handler (logging's ``_releaseLock``: "Exception ignored in …") and the parent went on
    waiting, for ever. Sent at each moment (a condition, watched every half millisecond, not
    a fixed time), it ends in the parent's one line, exit 130, no worker left."""
    from support.interrupt import interrupt_when

    r = interrupt_when(["sim", "--hands", "100000", "--workers", "2", "--no-progress"], moment,
                       moment.__name__, timeout=60, poll=0.0005)
    assert r.returncode == 130, r.stderr
    assert "Traceback" not in r.stderr and r.stderr.strip() == "interrupted", r.stderr
    assert r.left == []
