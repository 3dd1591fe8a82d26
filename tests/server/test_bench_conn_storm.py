"""benchmarks/bench_conn_storm.py still measures: the room list of a few open rooms is asked for,
then their clients drop at once and come back as the same players into their rooms, on this checkout and on a reference (here the same
sources, as --ref-src takes another checkout's)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


def test_bench_conn_storm_drops_and_brings_back_every_client() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_conn_storm.py"), "--levels", "2,3",
         "--ref-src", str(ROOT / "src"), "--json"],
        capture_output=True, text=True, timeout=170, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [json.loads(line) for line in proc.stdout.strip().splitlines()]
    levels = [r for r in rows if "rooms" in r]
    assert [(r["rooms"], r["connections"]) for r in levels] == [(2, 8), (2, 8), (3, 12), (3, 12)]
    assert {r["server"] for r in levels} == {"this checkout", str(ROOT / "src")}
    for r in levels:  # every client back in its room, nothing refused
        assert r["back"] == r["connections"] and r["errors"] == {}
        assert r["listed"] == r["rooms"] and r["list_cpu_ms_per_request"] >= 0  # every room open is listed
        assert r["return_cpu_ms_per_conn"] >= 0 and r["drop_cpu_ms_per_conn"] >= 0  # (in clock ticks)
    summaries = [r for r in rows if "growth_per_connection" in r]
    assert len(summaries) == 2 and all(set(s["growth_per_connection"]) == {"drop", "return"}
                                       for s in summaries)


@pytest.mark.parametrize("args", [["--levels", "0"], ["--levels", "a,b"], ["--ref-src", "/nonexistent"]])
def test_bench_conn_storm_refuses_bad_input(args: list[str]) -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_conn_storm.py"), *args],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
