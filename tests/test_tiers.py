"""The tiers: every marker the tests use is registered, and every entry of the heavy list still
names a test (a renamed test would otherwise slip back into the fast tier unnoticed)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from support.tiers import HEAVY

ROOT = Path(__file__).resolve().parents[1]


def test_the_markers_are_registered() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    names = {m.split(":")[0] for m in config["markers"]}
    assert {"slow", "browser", "server", "postgres", "redis", "heavy"} <= names
    fast = re.search(r'-m "([^"]+)"', (ROOT / "scripts" / "test.sh").read_text())
    assert fast is not None
    assert set(re.findall(r"not (\w+)", fast.group(1))) == {"slow", "browser", "server", "postgres",
                                                          "redis", "heavy"}


def test_every_heavy_entry_names_a_test() -> None:
    missing = []
    for entry in sorted(HEAVY):
        path, first = entry.split("::")[:2]
        source = ROOT / path
        if not source.exists() or not re.search(rf"\b(def|class) {first}\b|^{first} = ",
                                                source.read_text(), re.M):
            missing.append(entry)
    assert missing == []
