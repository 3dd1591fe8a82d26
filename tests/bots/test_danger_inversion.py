"""Issue 28, round 13: ``benchmarks/danger_inversion.py`` reads opponents' hands by inverting
``expert``'s last discard. Its judge (an ``expert`` of its own seed, put in the opponent's seat
at that discard) must pass the opponent's true hand, or the inversion measures nothing; the
inverted worlds must be a real filter of the uniform ones; bad input is refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = str(ROOT / "benchmarks" / "danger_inversion.py")
pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, SCRIPT, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=280)


@pytest.mark.parametrize("ready", [False, True])
def test_inversion_measures(ready: bool) -> None:
    proc = _run("--hands", "2", "--samples", "3", "--trials", "60", "--workers", "1",
                "--weights", "benchmarks/results/danger_model_d68.json", "--json",
                *(["--ready"] if ready else []))
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["discards"] > 20 and out["rows"] > out["discards"]
    # the judge reproduces the opponents' discards from their true hands
    assert out["true_accepted"] >= 0.95, out
    # ... and refuses most dealt hands (a real filter), some of the ready hands built
    assert 0.0 < out["acceptance"] < (1.0 if ready else 0.5), out
    names = {"ready", "ready_inverted"} if ready else {"uniform", "inverted"}
    assert set(out["readers"]) == names | {"model"}
    for r in out["readers"].values():
        assert 0.0 <= r["auc_rows"] <= 1.0 and r["pairs"]["positions"] > 0


@pytest.mark.parametrize("args", [["--hands", "0"], ["--samples", "5", "--trials", "2"],
                                  ["--preset", "nope"], ["--weights", "/nonexistent.json"]])
def test_inversion_refuses_bad_input(args: list[str]) -> None:
    proc = _run(*args)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr


def test_ready_hands_are_ready_and_from_the_copies() -> None:
    """The hands ``--ready`` builds: drawn from the copies given, and one tile from complete
    (a 2/5/8 pair and sets), so ready."""
    import random

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from danger_inversion import _ready_hand

    from laizi.analysis.profiles import shanten258

    rng = random.Random(7)
    pool = [4] * 27 + [0] * 7
    pool[4] = 1  # one copy of 5m left: never its pair, nor two of it
    for n in (13, 10, 7, 4, 1):
        for _ in range(30):
            h = _ready_hand(pool, n, rng)
            assert h is not None and sum(h) == n
            assert all(h[k] <= pool[k] for k in range(34))
            assert shanten258(h, 0, (n - 1) // 3) == 0
    assert _ready_hand(pool, 12, rng) is None  # 13 tiles cannot be a pair and sets
