"""benchmarks/metered_serve.py's collector meters count each generation's passes, and
``LAIZI_GC_YOUNG`` sets the young threshold (in a child process: both are process-wide)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import gc, json, sys
sys.path.insert(0, sys.argv[1])
import metered_serve as m
m.install_gc()
junk = [[i] for i in range(50_000)]  # young collections on the way
gc.collect(1)
gc.collect(2)
print(json.dumps({"threshold": gc.get_threshold(), "calls": m.CALLS, "seconds": m.TOTALS}))
"""


def test_the_collector_is_metered_by_generation() -> None:
    env = {**os.environ, "LAIZI_GC_YOUNG": "5000"}
    proc = subprocess.run([sys.executable, "-c", CHILD, str(ROOT / "benchmarks")],
                          capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout)
    assert out["threshold"][0] == 5000
    assert out["calls"]["gc.0"] >= 1  # 50,000 lists: at least ten young collections at 5,000
    assert out["calls"]["gc.1"] >= 1 and out["calls"]["gc.2"] >= 1
    assert all(out["seconds"][f"gc.{g}"] >= 0 for g in range(3))
