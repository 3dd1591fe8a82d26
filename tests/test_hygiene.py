"""Project hygiene: ruff (with the C901 complexity limit of 25) and mypy --strict on the
whole package (see pyproject.toml) stay clean."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    exe = BIN / name
    if exe.exists():
        return str(exe)
    found = shutil.which(name)
    if not found:
        pytest.skip(f"{name} is not installed (pip install -e '.[dev]')")
    return found


def test_ruff_clean() -> None:
    proc = subprocess.run([_tool("ruff"), "check", "src", "tests", "benchmarks", "scripts", "examples"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_clean() -> None:
    proc = subprocess.run([_tool("mypy")], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_import_is_cheap() -> None:
    """Importing laizi builds no tables."""
    code = ("import sys, laizi, laizi.analysis, laizi.scoring; "
            "print(sys.modules['laizi.analysis.fast']._tables is not None)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
