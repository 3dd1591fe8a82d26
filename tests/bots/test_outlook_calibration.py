"""Calibration of the hints' numbers against simulated outcomes on FRESH seeds.

The model (``laizi/data/outlook.json``) was fitted by ``scripts/fit_outlook.py`` on
simulation seed ``outlook-fit``; here four strong bots play hands of other seeds and
every discard is a position: the model's prediction for the hand kept against what
came of it (did the seat win the hand, its settlement, was the tile won on at once).

Tolerances (stated in the issue's terms, "within a few points"):

- win chance: |mean predicted − observed| ≤ 0.03 overall, ≤ 0.08 in each decile of
  the prediction (each decile holds ≥ 100 positions);
- expected points: |mean predicted − observed| ≤ 15 points overall and ≤ 40 in each
  quintile of the prediction (a hand's settlement spreads over hundreds of points);
- danger: |mean predicted − observed| feed rate ≤ 0.01 overall and ≤ 0.03 in the
  riskiest quintile.
"""

from __future__ import annotations

import pytest

from laizi.bots.outlook_fit import Position, Recorder, calibration, settle
from laizi.bots.registry import make_bot
from laizi.rules import RuleSet
from laizi.sim import bot_seed, record_hand, sim_hand_seed

HANDS = 240
SEED = "calibration-check-1"  # not the fitting seed ("outlook-fit")


def _positions() -> list[Position]:
    rules = RuleSet.preset("kaikoufan")
    out: list[Position] = []
    for i in range(HANDS):
        sink: list[Position] = []
        bots = [Recorder(make_bot("strong", bot_seed(SEED, i, s)), sink, predict=True)
                for s in range(4)]
        st, _rec = record_hand(rules, bots, seed=sim_hand_seed(SEED, i), dealer=i % 4, index=i,
                             count_refusals=False)
        settle(sink, st.result, st.payments)
        out.extend(sink)
    return out


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    return _positions()


def _report(name: str, cal: dict[str, object]) -> str:
    return f"{name}: {cal}"


@pytest.mark.slow
def test_win_chance_is_calibrated(positions: list[Position]) -> None:
    assert len(positions) >= 2000
    cal = calibration([p.predicted[0] for p in positions], [float(p.won) for p in positions])
    print(_report("win", cal))
    assert abs(cal["predicted"] - cal["observed"]) <= 0.03, cal
    for b in cal["buckets"]:
        assert b["n"] >= 100
        assert abs(b["predicted"] - b["observed"]) <= 0.08, cal
    # The prediction separates: the top decile wins far more often than the bottom.
    assert cal["buckets"][-1]["observed"] > 3 * cal["buckets"][0]["observed"]


@pytest.mark.slow
def test_expected_points_are_calibrated(positions: list[Position]) -> None:
    cal = calibration([p.predicted[1] for p in positions], [p.points for p in positions], bins=5)
    print(_report("points", cal))
    assert abs(cal["predicted"] - cal["observed"]) <= 15, cal
    for b in cal["buckets"]:
        assert abs(b["predicted"] - b["observed"]) <= 40, cal
    assert cal["buckets"][-1]["observed"] > cal["buckets"][0]["observed"] + 60


@pytest.mark.slow
def test_danger_is_calibrated(positions: list[Position]) -> None:
    cal = calibration([p.feed_predicted for p in positions],
                      [float(p.fed is not None) for p in positions], bins=5)
    print(_report("feed", cal))
    assert abs(cal["predicted"] - cal["observed"]) <= 0.01, cal
    top = cal["buckets"][-1]
    assert abs(top["predicted"] - top["observed"]) <= 0.03, cal
    assert top["observed"] > 3 * max(cal["buckets"][1]["observed"], 0.001)
