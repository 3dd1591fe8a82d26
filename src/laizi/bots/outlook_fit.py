"""Fitting and checking :mod:`laizi.bots.outlook` on simulated hands.

A :class:`Recorder` wraps a bot and notes, at each of its discards, the features of
the hand it keeps (the win model's cells), the model's prediction, and the danger
cells of the tile towards each opponent.  Once the hand is over, :func:`settle` writes
the outcomes: whether the seat won, its settlement, and which discard (if any) was won
on.  :func:`fit` turns settled positions into the tables of ``laizi/data/outlook.json``
(``scripts/fit_outlook.py``); :func:`calibration` compares predictions with outcomes
(``tests/bots/test_outlook_calibration.py``).

The simulation itself (dealing and playing hands) is the caller's: this module sees
only the bot's views, like every bot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from laizi.bots.base import Bot, SeatView
from laizi.bots.outlook import (
    Features,
    danger_key,
    danger_of,
    features,
    hand_outlook,
    win_keys,
)
from laizi.game.actions import Action, tile_from_str

__all__ = ["Position", "Recorder", "calibration", "fit", "settle"]


@dataclass(slots=True)
class Position:
    """One recorded discard of one seat and, once settled, what came of it."""

    seat: int
    kind: int
    keys: list[str]  # win-model cells, finest first
    danger: list[tuple[int, list[str], int]]  # (opponent, danger cells, its openings)
    openings: int  # the discarder's openings
    predicted: tuple[float, float] = (0.0, 0.0)  # (win chance, points) when predicting
    feed_predicted: float = 0.0
    won: bool = False
    points: float = 0.0
    fed: int | None = None  # the opponent who won on this very discard
    feed_cost: float = 0.0  # the discarder's loss then
    features: Features | None = None


class Recorder(Bot):
    """A bot that plays as ``inner`` and records its discards into ``sink``.

    ``predict``: also store the shipped model's predictions (for calibration).
    """

    def __init__(self, inner: Bot, sink: list[Position], *, predict: bool = False) -> None:
        self.inner = inner
        self.sink = sink
        self.predict = predict
        self.name = f"recorded {inner.name}"

    def act(self, view: SeatView) -> Action:
        a = self.inner.act(view)
        if a.type == "discard" and view.phase == "turn" and a.tile is not None:
            self.sink.append(self._position(view, a.tile))
        return a

    def _position(self, view: SeatView, k: int) -> Position:
        hand = list(view.hand)
        hand[k] -= 1
        f = features(view, hand)
        rows = []
        for s in range(4):
            if s == view.seat:
                continue
            op = sum(1 for m in view.melds[s] if m.opens)
            rows.append((s, danger_key(k, view.wall_remaining, op, k in view.rivers[s]), op))
        pos = Position(view.seat, k, win_keys(f), rows, f.openings, features=f)
        if self.predict:
            o = hand_outlook(view, hand)
            pos.predicted = (o.win_prob, o.expected_points)
            pos.feed_predicted = danger_of(view, k).feed_prob
        return pos


def settle(positions: Sequence[Position], result: dict[str, Any] | None,
           payments: Sequence[float] | None) -> None:
    """Write a finished hand's outcome into its recorded ``positions`` (in play order)."""
    pay = list(payments) if payments is not None else [0.0] * 4
    winner = None if result is None else int(result["winner"])
    fed_seat = None
    fed_tile = None
    if result is not None and result.get("by") == "discard" and result.get("from") is not None:
        fed_seat = int(result["from"])
        fed_tile = tile_from_str(str(result["tile"]))
    last_of_feeder = None
    for p in positions:
        p.won = p.seat == winner
        p.points = float(pay[p.seat])
        if p.seat == fed_seat:
            last_of_feeder = p
    if last_of_feeder is not None and winner is not None and last_of_feeder.kind == fed_tile:
        last_of_feeder.fed = winner
        last_of_feeder.feed_cost = -float(pay[last_of_feeder.seat])


def _add(table: dict[str, list[float]], key: str, values: Sequence[float]) -> None:
    cell = table.get(key)
    if cell is None:
        table[key] = [float(v) for v in values]
    else:
        for i, v in enumerate(values):
            cell[i] += v


def fit(positions: Sequence[Position], meta: dict[str, Any],
        logit: Sequence[float] = (), linear: Sequence[float] = ()) -> dict[str, Any]:
    """The model's tables from settled positions: per cell ``[n, wins, points]``
    (win), ``[n, fed]`` (feed) and ``[n, loss]`` (cost); numbers rounded. ``logit``
    and ``linear``: the smooth models' coefficients (fitted by the caller, e.g. with
    numpy: ``scripts/fit_outlook.py``)."""
    win: dict[str, list[float]] = {}
    feed: dict[str, list[float]] = {}
    cost: dict[str, list[float]] = {}
    for p in positions:
        for key in p.keys:
            _add(win, key, (1, int(p.won), p.points))
        for s, keys, op in p.danger:
            hit = int(p.fed == s)
            for key in keys:
                _add(feed, key, (1, hit))
            if hit:
                _add(cost, f"{min(op, 3)}|{min(p.openings, 3)}", (1, p.feed_cost))
                _add(cost, "", (1, p.feed_cost))
    return {
        "meta": meta,
        "logit": [round(x, 6) for x in logit],
        "linear": [round(x, 4) for x in linear],
        "win": {k: [int(v[0]), int(v[1]), round(v[2], 1)] for k, v in sorted(win.items())},
        "feed": {k: [int(v[0]), int(v[1])] for k, v in sorted(feed.items())},
        "cost": {k: [int(v[0]), round(v[1], 1)] for k, v in sorted(cost.items())},
    }


def calibration(pred: Sequence[float], obs: Sequence[float], bins: int = 10) -> dict[str, Any]:
    """Predicted vs observed, overall and in ``bins`` equal-count buckets of the
    prediction: ``{"n", "predicted", "observed", "buckets": [{n, predicted, observed}]}``."""
    order = sorted(range(len(pred)), key=lambda i: pred[i])
    n = len(order)
    buckets = []
    for b in range(bins):
        idx = order[b * n // bins:(b + 1) * n // bins]
        if not idx:
            continue
        buckets.append({
            "n": len(idx),
            "predicted": sum(pred[i] for i in idx) / len(idx),
            "observed": sum(obs[i] for i in idx) / len(idx),
        })
    return {
        "n": n,
        "predicted": sum(pred) / n if n else 0.0,
        "observed": sum(obs) / n if n else 0.0,
        "buckets": buckets,
    }
