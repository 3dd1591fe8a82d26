"""Steps of the scoring scenario tests: a request built from tiles and a win, the scorer's answer
checked, a refusal expected."""

from __future__ import annotations

from typing import Any

import pytest


def seat(hand: str = "", *melds: str, sk: str = "", sd: str = "", **extra: Any) -> dict[str, Any]:
    """One seat of ``players``: concealed hand, melds, special kongs / special discards."""
    d: dict[str, Any] = {"hand": hand, "melds": list(melds), "special_kongs": sk}
    if sd:
        d["special_discards"] = sd
    d.update(extra)
    return d


def req(
    seats: dict[int, dict[str, Any]],
    tile: str,
    by: str = "discard",
    frm: int | None = None,
    *,
    winner: int = 1,
    dealer: int = 0,
    preset: str = "kaikoufan",
    laizi: str | None = "6m",
    indicator: str | None = None,
    options: dict[str, Any] | None = None,
    after_kong: bool = False,
    haidi: bool = False,
) -> dict[str, Any]:
    """A SCORE_API.md request; ``seats`` maps seat -> :func:`seat` (others empty)."""
    win: dict[str, Any] = {"tile": tile, "by": by}
    if frm is not None:
        win["from"] = frm
    if after_kong:
        win["after_kong"] = True
    if haidi:
        win["haidi"] = True
    r: dict[str, Any] = {
        "preset": preset, "dealer": dealer, "winner": winner, "win": win,
        "players": [seats.get(i, seat()) for i in range(4)],
    }
    if indicator is not None:
        r["indicator"] = indicator
    else:
        r["laizi"] = laizi
    if options:
        r["options"] = options
    return r


def win(payments: list[float], big: list[str] | None = None, *, hard: bool = True,
        liable: int | None = None, topped: bool = False, **more: Any) -> dict[str, Any]:
    """The expectation of a legal win."""
    return {"ok": True, "reason": None, "big_hands": big or [], "small": not big, "hard": hard,
            "payments": payments, "liable": liable, "topped_out": topped, **more}


def fail(reason: str, **more: Any) -> dict[str, Any]:
    return {"ok": False, "reason": reason, **more}


def check(got: dict[str, Any], expect: dict[str, Any]) -> None:
    for key, want in expect.items():
        if key in FLOAT_LISTS:
            # SCORE_API.md: "integers when whole, else one decimal".
            for x in got[key]:
                assert isinstance(x, int) or not float(x).is_integer(), f"{key}: {x!r} not an int"
            assert [float(x) for x in got[key]] == pytest.approx([float(x) for x in want]), (
                f"{key}: expected {want}, got {got[key]} (breakdown: {got.get('breakdown')})")
        else:
            assert got[key] == want, (
                f"{key}: expected {want!r}, got {got[key]!r} (breakdown: {got.get('breakdown')})")
    if got["ok"] or got["reason"] == "below_minimum":
        assert sum(float(x) for x in got["payments"]) == pytest.approx(0.0)


FLOAT_LISTS = {"payments", "raw"}
