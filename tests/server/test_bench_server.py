"""benchmarks/bench_server.py still measures: a few rooms of picows bot clients against a
real `laizi serve` (SQLite) play actions, all answered, with the figures it reports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("picows")
pytest.importorskip("orjson")

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]


def test_bench_server_plays_a_few_rooms() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_server.py"), "--rooms", "3",
         "--seconds", "4", "--think", "0.1", "--json"],
        capture_output=True, text=True, timeout=100, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    assert res["rooms"] == 3 and res["clients"] == 12
    assert res["actions"] > 20 and res["errors"] == {}
    assert 0 < res["p50_ms"] <= res["p99_ms"] < 1000
    # the frames were counted: a few hundred bytes per action, a snapshot (2 KB) at the start
    # of each client's match, its welcome (the frame tables: 1.9 KB) once per connection
    assert res["wire_bytes_per_action"] > 300 and res["start_bytes_per_client"] > 1000
    assert res["welcome_bytes_per_client"] > 1000
    assert res["server_cpu_ms_per_action"] > 0 and res["client_cpu_ms_per_action"] > 0
    # bytes per hand only when a hand ended (never all bytes over a hand count of zero)
    if res["hands"]:
        assert res["client_bytes_per_hand"] > 1000
    else:
        assert res["client_bytes_per_hand"] is None
