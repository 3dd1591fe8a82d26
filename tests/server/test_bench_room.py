"""benchmarks/bench_room.py still measures: a few tables of a real hub on SQLite play whole
hands (continued between them) without sockets, with the figures it reports."""

from __future__ import annotations

import json

import pytest

from support.benchrun import assert_refused, run_benchmark

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


def test_bench_room_plays_a_few_tables() -> None:
    proc = run_benchmark("bench_room.py", "--rooms", "3", "--actions", "400", "--warm", "50", "--json")
    assert proc.returncode == 0, proc.stderr[-2000:]
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    assert res["rooms"] == 3 and res["actions"] == 400
    # 400 actions of 3 tables: hands ended and were continued (a hand is ~30-130 actions)
    assert res["hands"] >= 1
    # each action: a frame to each of the four seats and the ack to its player
    assert 4.5 < res["frames_per_action"] < 6
    assert res["frame_bytes"] > 400 * 300
    assert res["loop_cpu_ms_per_action"] > 0 and res["writer_cpu_ms_per_action"] > 0


def test_bench_room_refuses_a_bad_count() -> None:
    assert_refused(run_benchmark("bench_room.py", "--rooms", "0", timeout=60), "at least 1")
