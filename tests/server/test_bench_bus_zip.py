"""benchmarks/bench_bus_zip.py still measures: one room's frames of each action, relayed in
one batch, read back whole both ways (text and compressed), with the figures it reports."""

from __future__ import annotations

import json

import pytest

from support.benchrun import assert_refused, run_benchmark

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


def test_bench_bus_zip_measures_a_few_hundred_actions() -> None:
    proc = run_benchmark("bench_bus_zip.py", "--actions", "200", "--bot", "random", "--json")
    assert proc.returncode == 0, proc.stderr[-2000:]
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    assert res["actions"] == 200
    # five frames and an ack per action: hundreds of bytes as text, compressed well below
    assert res["bytes_per_action_text"] > 300
    assert 0 < res["bytes_ratio"] < 0.8
    assert res["bytes_per_action_zipped"] < res["bytes_per_action_text"]
    assert res["sign_us_zipped"] > 0 and res["owner_play_us_per_action"] > 0


def test_bench_bus_zip_refuses_a_bad_count() -> None:
    assert_refused(run_benchmark("bench_bus_zip.py", "--actions", "0", timeout=60), "at least 1")
