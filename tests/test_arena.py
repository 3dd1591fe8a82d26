"""Duplicate evaluation (`laizi arena`): rotations, statistics, reproducibility, CLI."""

from __future__ import annotations

import json
import math
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from laizi.arena import Z95, arena, play_deal, rotation_seats
from laizi.rules import RuleSet

LINEUP = ["strong", "greedy", "greedy", "random"]


def test_every_place_plays_every_seat() -> None:
    seen = [set() for _ in range(4)]
    for r in range(4):
        seats = rotation_seats(r)
        assert sorted(seats) == [0, 1, 2, 3]
        for place, seat in enumerate(seats):
            seen[place].add(seat)
    assert all(s == {0, 1, 2, 3} for s in seen)


def test_deal_is_the_same_wall_in_every_rotation() -> None:
    """The four rotations of a deal share the wall: with one deterministic level in every
    place, the winner's place moves with the rotation only if the bots differ — so check
    the wall directly through the hands' commitments."""
    from laizi.bots.registry import make_bot
    from laizi.sim import record_hand as play_hand
    from laizi.sim import sim_hand_seed

    rules = RuleSet.preset("kaikoufan")
    commits = set()
    for r in range(4):
        bots = [make_bot("greedy", 10 * r + s) for s in range(4)]
        st, _ = play_hand(rules, bots, seed=sim_hand_seed(7, 3), dealer=3, index=3)
        commits.add(st.commitment)
    assert len(commits) == 1


def test_records_are_zero_sum_and_indexed_by_place() -> None:
    rec = play_deal(RuleSet.preset("kaikoufan"), LINEUP, 5, 0)
    assert len(rec.payments) == 4
    for pays in rec.payments:
        assert abs(sum(pays)) < 1e-9
    for w, d, by in zip(rec.winner, rec.dealt_in, rec.by, strict=True):
        if d is not None:
            assert by == "discard" and d != w
    assert sum(len(t) for t in rec.times) == sum(rec.decisions)


def test_statistics_match_a_hand_computation() -> None:
    res = arena(12, lineup=LINEUP, seed=2)
    data = res.to_json(timing=False)
    assert data["deals"] == 12 and data["hands"] == 48 and data["zero_sum"]
    # greedy fills places 1 and 2: its per-deal score is the mean over 2 places × 4 rotations
    per_deal = [sum(rot[p] for rot in r.payments for p in (1, 2)) / 8 for r in res.records]
    g = next(b for b in data["bots"] if b["bot"] == "greedy")
    mean = sum(per_deal) / 12
    half = Z95 * statistics.stdev(per_deal) / math.sqrt(12)
    assert g["points_per_hand"]["mean"] == pytest.approx(mean)
    assert g["points_per_hand"]["ci95"] == pytest.approx([mean - half, mean + half])
    assert g["hands"] == 96
    # levels' means weighted by their places sum to zero (zero-sum game)
    total = sum(b["points_per_hand"]["mean"] * len(b["places"]) for b in data["bots"])
    assert abs(total) < 1e-9
    m = next(x for x in data["margins"] if (x["a"], x["b"]) == ("strong", "random"))
    s = next(b for b in data["bots"] if b["bot"] == "strong")
    r = next(b for b in data["bots"] if b["bot"] == "random")
    assert m["mean"] == pytest.approx(s["points_per_hand"]["mean"] - r["points_per_hand"]["mean"])
    wins = sum(1 for rec in res.records for w in rec.winner if w == 0)
    assert s["win_rate"] == pytest.approx(wins / 48)


def test_workers_give_identical_statistics() -> None:
    one = arena(10, lineup=LINEUP, seed="dup", workers=1).to_json(timing=False)
    two = arena(10, lineup=LINEUP, seed="dup", workers=2).to_json(timing=False)
    assert one == two
    other = arena(10, lineup=LINEUP, seed="other", workers=1).to_json(timing=False)
    assert other != one


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "laizi", "arena", *args], capture_output=True,
                          text=True, timeout=300, cwd=cwd)


def test_cli_json_and_plot(tmp_path: Path) -> None:
    png = tmp_path / "arena.png"
    p = _cli("--deals", "6", "--bots", "strong,greedy,greedy,greedy", "--seed", "4", "--json",
             "--no-progress", "--plot", str(png))
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["hands"] == 24 and data["lineup"] == ["strong", "greedy", "greedy", "greedy"]
    assert [b["bot"] for b in data["bots"]] == ["strong", "greedy"]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    again = json.loads(_cli("--deals", "6", "--bots", "strong,greedy,greedy,greedy", "--seed",
                            "4", "--json", "--no-progress").stdout)
    for d in (data, again):
        for k in ("seconds", "hands_per_second", "workers", "backend"):
            d.pop(k)
        for b in d["bots"]:
            b.pop("decision_ms")
    assert data == again


@pytest.mark.parametrize("args, needle", [
    (["--bots", "strong,greedy"], "four names"),
    (["--bots", "strong,greedy,gredy,random"], "unknown bot 'gredy'"),
    (["--deals", "-1"], "--deals"),
    (["--deals", "0"], "--deals must be >= 1"),  # (was a table of nothing, its interval ±inf)
    (["--workers", "0"], "--workers"),
    (["--preset", "nope"], "nope"),
    (["--plot", "/nonexistent-folder/a.png"], "--plot: cannot write"),  # before the deals are played
])
def test_cli_bad_input_exits_2(args: list[str], needle: str) -> None:
    p = _cli(*args, "--no-progress")
    assert p.returncode == 2
    assert needle in p.stderr and "Traceback" not in p.stderr



def test_ctrl_c_with_workers_ends_in_one_line_and_stops_the_workers() -> None:
    from support.interrupt import interrupt

    r = interrupt(["arena", "--deals", "100000", "--workers", "2", "--no-progress"], workers=2)
    assert r.returncode == 130, r.stderr
    assert r.stderr.strip() == "interrupted"  # no worker's KeyboardInterrupt traceback
    assert len(r.workers) == 2 and r.left == []


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_as_the_workers_start_ends_in_one_line(workers: int) -> None:
    """Sent as soon as the pool has forked its first (or both) workers — milliseconds old —,
    a Ctrl-C ends in the one line too (test_sim.py has the story: local_pool is the same)."""
    from support.interrupt import children, interrupt_when

    r = interrupt_when(["arena", "--deals", "100000", "--workers", "2", "--no-progress"],
                       lambda pid: len(children(pid)) >= workers, f"{workers} worker(s)",
                       timeout=60, poll=0.0005)
    assert r.returncode == 130, r.stderr
    assert "Traceback" not in r.stderr and r.stderr.strip() == "interrupted", r.stderr
    assert r.left == []


def test_help_shows_a_per_cent_sign_once(capsys: pytest.CaptureFixture[str]) -> None:
    """`laizi arena --help` said "95 %% confidence intervals" (its description was not
    %-formatted, its help in `laizi --help` was)."""
    from laizi.cli import SUBCOMMANDS, main

    for argv in ([], *([name] for name in SUBCOMMANDS)):
        with pytest.raises(SystemExit):
            main([*argv, "--help"])
        out = capsys.readouterr().out
        assert "%%" not in out, (argv, out)
        if argv in ([], ["arena"]):
            assert "95 % confidence intervals" in " ".join(out.split()), out
