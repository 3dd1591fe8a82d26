"""Running a script of ``benchmarks/`` as its user does (a subprocess of this interpreter, from
the repository's root), and the one-line refusal a bad argument must end in."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_benchmark(script: str, *args: str, timeout: float = 170) -> subprocess.CompletedProcess[str]:
    """``python benchmarks/{script} {args}``, its output captured."""
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def assert_refused(proc: subprocess.CompletedProcess[str], words: str) -> None:
    """The script refused its arguments as argparse does: exit 2, ``words`` on stderr, no
    traceback."""
    assert proc.returncode == 2 and words in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
