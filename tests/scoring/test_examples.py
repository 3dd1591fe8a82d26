"""The worked examples of the shared spec (``../shared/spec/examples/*.json``).

Each example has an ``input`` (a SCORE_API.md request) and an ``expect`` object;
every key of ``expect`` is compared with the scorer's answer (``payments`` and
``raw`` as floats).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from laizi.scoring.request import score_json

EXAMPLES = Path(__file__).resolve().parents[2].parent / "shared" / "spec" / "examples"
# A copy kept in the repo, so the examples run even where shared/ is not beside the clone;
# files in shared/ take precedence (the spec may gain examples).
LOCAL = Path(__file__).resolve().parent / "spec_examples"
FLOAT_LISTS = {"payments", "raw"}


def _params() -> list[Any]:
    found = {p.name: p for p in LOCAL.glob("*.json")}
    if EXAMPLES.is_dir():
        found.update({p.name: p for p in EXAMPLES.glob("*.json")})
    files = [found[name] for name in sorted(found)]
    if not files:
        return [pytest.param(None, id="no-examples", marks=pytest.mark.skip(
            reason=f"spec examples folder {EXAMPLES} is absent or empty"))]
    return [pytest.param(p, id=p.stem) for p in files]


@pytest.mark.parametrize("path", _params())
def test_example(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    got = score_json(data["input"])
    expect = data["expect"]
    assert expect, f"{path.name}: empty expect"
    for key, want in expect.items():
        assert key in got, f"{path.name}: scorer output lacks {key!r}"
        if key in FLOAT_LISTS:
            assert [float(x) for x in got[key]] == pytest.approx([float(x) for x in want]), (
                f"{path.name}: {key}")
        else:
            assert got[key] == want, f"{path.name}: {key}: expected {want!r}, got {got[key]!r}"
    if got["ok"]:
        assert sum(float(x) for x in got["payments"]) == pytest.approx(0.0)
