"""The strict JSON reader's fast first reading (orjson) reads exactly what the careful one
does, and leaves every refusal, with its message, to it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laizi.server.common.inputs import MAX_JSON_DEPTH, JSONInputError, careful_loads, loads_strict


def _typed(x: Any) -> Any:
    """A value with its types spelled out (1 and 1.0 and True differ)."""
    if isinstance(x, dict):
        return {k: _typed(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_typed(v) for v in x]
    return (type(x).__name__, x)


def _outcome(read: Any, text: str) -> Any:
    try:
        return ("ok", _typed(read(text)))
    except JSONInputError as exc:
        return ("refused", str(exc))


values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10 ** 25), 10 ** 25)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20)
# Texts a client may send: JSON of those values, and broken or hostile variants of it.
tricks = st.sampled_from(["", "NaN", "Infinity", "-Infinity", "1e999", "-1e400", "1e-400",
                          "[1,]", '{"a":1,"a":2}', '"\\ud800"', "\ufeff[1]", "0" * 31, "9" * 19,
                          "-0", "01", "[" * 40 + "]" * 40, "[" * 32 + "]" * 32, '"\x01"'])


@settings(max_examples=400, deadline=None)
@given(values, tricks, st.integers(0, 3))
def test_the_fast_reading_reads_as_the_careful_one(value: Any, trick: str, how: int) -> None:
    text = json.dumps(value)
    if how == 1:
        text = trick
    elif how == 2:
        text = f"[{text},{trick}]"
    elif how == 3:
        text = text[: len(text) // 2]  # cut short
    assert _outcome(loads_strict, text) == _outcome(careful_loads, text)


def test_the_limits_still_hold() -> None:
    with pytest.raises(JSONInputError, match="NaN"):
        loads_strict("[NaN]")
    with pytest.raises(JSONInputError, match="levels deep"):
        loads_strict("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1))
    with pytest.raises(JSONInputError, match="out of range"):
        loads_strict("1" * 31)
    assert loads_strict("1" * 30) == int("1" * 30)  # (orjson alone would give a float)
    assert type(loads_strict('{"seq": 12, "x": 1.0}')["x"]) is float
