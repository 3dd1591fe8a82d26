"""`--ray`: the simulator and the arena on a local Ray instance give exactly the
statistics of `--workers` for the same seed (timing fields aside)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ray")
pytestmark = pytest.mark.slow

TIMING = ("seconds", "hands_per_second", "workers", "backend")


def _run(tmp: Path, *args: str) -> dict:
    p = subprocess.run([sys.executable, "-m", "laizi", *args, "--json", "--no-progress"],
                       capture_output=True, text=True, timeout=600, cwd=tmp)
    assert p.returncode == 0, p.stderr[-3000:]
    data = json.loads(p.stdout)
    for k in TIMING:
        data.pop(k, None)
    for b in data.get("bots", []):
        if isinstance(b, dict):
            b.pop("decision_ms", None)
    return data


def test_sim_on_ray_equals_workers(tmp_path: Path) -> None:
    args = ("sim", "--hands", "120", "--bots", "strong,greedy,greedy,random", "--seed", "r1")
    ray = _run(tmp_path, *args, "--ray")
    local = _run(tmp_path, *args, "--workers", "2")
    assert ray == local
    assert ray["hands"] == 120 and ray["zero_sum"]


def test_arena_on_ray_equals_workers(tmp_path: Path) -> None:
    args = ("arena", "--deals", "8", "--bots", "strong,greedy,greedy,random", "--seed", "r2")
    ray = _run(tmp_path, *args, "--ray")
    local = _run(tmp_path, *args, "--workers", "2")
    assert ray == local
    assert ray["hands"] == 32


def test_unreachable_cluster_is_a_one_line_error(tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "laizi", "sim", "--hands", "10", "--no-progress",
                        "--ray", "127.0.0.1:1"], capture_output=True, text=True, timeout=300,
                       cwd=tmp_path)
    assert p.returncode == 2, p.stderr[-2000:]
    assert "Traceback" not in p.stderr and "Ray" in p.stderr
