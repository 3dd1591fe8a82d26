"""The README's library example runs and gives what its comments say."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _library_block() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    part = text.split("## Using the library", 1)[1]
    m = re.search(r"```python\n(.*?)```", part, flags=re.S)
    assert m, "no python block under 'Using the library'"
    return m.group(1)


def test_library_example_runs_and_its_comments_hold() -> None:
    code = _library_block()
    ns: dict[str, Any] = {}
    exec(compile(code, "README.md", "exec"), ns)  # noqa: S102 - our own README
    waits, can_win, shanten, hand = ns["waits"], ns["can_win"], ns["shanten"], ns["hand"]
    assert "[22, 25]" in code and waits(hand, pair258=True) == [22, 25]
    assert can_win(hand, 1, pair258=True) is True
    assert shanten(hand) == 0
    assert str(ns["setup"].laizi) == "32"  # 发 (6z) under a 北 indicator
    match = ns["match"]
    assert match.over and abs(sum(match.score_values())) < 1e-9
    v = ns["view"](match, 0)
    assert isinstance(v, dict)
