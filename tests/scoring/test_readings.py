"""Tile patterns (清一色; loose 风一色/将一色) see every reading of a hand (RULES.md §6).

A reading is one way the winner's tiles make a winning shape; the scorer prices the best.
These tests look one level down, at each reading, so a pattern gated on one shape is caught
even where another reading would pay the same.
"""

from __future__ import annotations

from typing import Any

import pytest

from laizi.scoring.patterns import PATTERNS
from laizi.scoring.request import context_from_json
from laizi.scoring.score import readings


def _ctx(hand: str, tile: str, preset: str = "jiayu", **options: Any) -> Any:
    return context_from_json({
        "preset": preset, "laizi": "6m", "dealer": 0, "winner": 1, "options": options,
        "win": {"tile": tile, "by": "self_draw"},
        "players": [{}, {"hand": hand}, {}, {}],
    })


def _big(ctx: Any) -> dict[str, set[str]]:
    """Shape of each reading → the big hands found on it."""
    out: dict[str, set[str]] = {}
    for r in readings(ctx):
        out.setdefault(r.shape, set()).update(p.ID for p in PATTERNS if p.detect(r, ctx))
    return out


def test_seven_pairs_and_regular_readings_both_carry_qingyise() -> None:
    # 11223344556677m: 123m 123m 456m 456m 77m (regular) and seven pairs (七对).
    got = _big(_ctx("1m1m2m2m3m3m4m4m5m5m6m6m7m", "7m"))
    assert got == {"regular": {"qingyise", "menqing"}, "qidui": {"qingyise", "qidui"}}


def test_wild_laizi_pairs_in_seven_pairs_keep_qingyise() -> None:
    # The issue 15 example: the laizi 6m stands for 4m, a pair of the one suit.
    got = _big(_ctx("1m1m3m3m5m5m7m7m9m9m2m2m6m", "4m"))
    assert got == {"qidui": {"qingyise", "qidui"}}


@pytest.mark.parametrize(("loose", "want"), [
    (True, {"qidui": {"jiangyise", "qidui"}, "luan_jiang": {"jiangyise", "menqing"}}),
    (False, {"qidui": {"qidui"}}),  # strict: no loose shape, no 将一色 on seven pairs
])
def test_jiangyise_on_seven_pairs_follows_luan_feng_jiang(loose: bool, want: dict[str, set[str]]) -> None:
    got = _big(_ctx("2m2m5m5m8m8m2p2p5p5p8p8p2s", "2s", luan_feng_jiang=loose))
    assert got == want


@pytest.mark.parametrize(("loose", "want"), [
    (True, {"qidui": {"fengyise", "qidui"}, "luan_feng": {"fengyise", "menqing"}}),
    (False, {"qidui": {"qidui"}}),
])
def test_fengyise_on_seven_pairs_follows_luan_feng_jiang(loose: bool, want: dict[str, set[str]]) -> None:
    got = _big(_ctx("1z1z1z1z2z2z3z3z4z4z5z5z6z", "6z", luan_feng_jiang=loose))
    assert got == want


def test_strict_fengyise_keeps_the_regular_shape() -> None:
    # 111z 222z 333z 444z 55z in jiayu, strict: the regular reading still is 风一色 (+ 碰碰胡).
    got = _big(_ctx("1z1z1z2z2z2z3z3z3z4z4z4z5z", "5z", luan_feng_jiang=False))
    assert got == {"regular": {"pengpeng", "fengyise", "menqing"}}
