"""benchmarks/bench_ws_floor.py still measures: a few rooms of picows clients against the bare
stack (uvicorn, Starlette, wsdirect) move in turn, each action taking the frames asked for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]


def test_bench_ws_floor_plays_a_few_rooms() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_ws_floor.py"), "--rooms", "3",
         "--seconds", "2", "--think", "0.02", "--frames", "7", "--json"],
        capture_output=True, text=True, timeout=110, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    assert res["rooms"] == 3 and res["actions"] >= 20
    # six updates and the ack, every one arrived (counted over the whole run, in-flight ones let land)
    assert res["frames_per_action"] == pytest.approx(7, abs=0.05)
    assert res["server_cpu_ms_per_action"] > 0 and res["p99_ms"] > 0


@pytest.mark.parametrize("args", [["--rooms", "0"], ["--rooms", "a,b"], ["--frames", "1"]])
def test_bench_ws_floor_refuses_bad_input(args: list[str]) -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_ws_floor.py"), *args],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr


def test_bench_ws_floor_lean_tables_play_real_matches() -> None:
    """The lean table (events only, one journal row per action on a private PostgreSQL) and
    the same with the views: rooms play real moves, none refused, each action's frames
    arrive (an update to each seat and the ack; a new hand adds a round of updates)."""
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_ws_floor.py"), "--table", "lean,views",
         "--rooms", "3", "--seconds", "2", "--think", "0.02", "--hand-pause", "0.05", "--json"],
        capture_output=True, text=True, timeout=110, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [json.loads(line) for line in proc.stdout.strip().splitlines()]
    assert [r["table"] for r in rows] == ["lean", "views"]
    for r in rows:
        assert r["rooms"] == 3 and r["actions"] >= 20 and r["errors"] == 0, r
        assert 5 <= r["frames_per_action"] < 6, r
        assert r["server_cpu_ms_per_action"] > 0 and r["pg_cpu_ms_per_action"] > 0, r


def test_bench_ws_floor_refuses_an_unknown_table() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_ws_floor.py"), "--table", "fat"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "--table" in proc.stderr, proc.stderr
