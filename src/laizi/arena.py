"""Duplicate evaluation: every deal played once per seat rotation.

Luck of the deal dominates a mahjong result. The arena cancels it the way duplicate
bridge does: deal *d* (a wall fixed by the seed, dealer ``d % 4``) is played four times,
and in rotation *r* the *i*-th bot of the line-up sits at seat ``(i + r) % 4``. Every
bot therefore plays every seat of every deal, with the same tiles the others had.

The unit of evidence is the deal: a bot's score on deal *d* is the mean of its
payments over the four rotations (over its copies too, when one level fills several
places of the line-up). Means are taken over deals and the 95 % confidence intervals
use the normal approximation ``mean ± 1.96 · sd / √deals``; the margin of one level
over another is the same statistic of their per-deal difference (paired, so the deal's
luck cancels out of it too).

Reproducibility: deal *d* of a run with seed *S* is dealt from
``laizi.sim.sim_hand_seed(S, d)``; the bot of line-up place *i* in rotation *r* of
deal *d* is seeded with ``laizi.sim.bot_seed(S, 4·d + r, i)``. A deal depends only on
(S, d, preset, line-up), never on which worker or Ray task played it, so every
statistic (timing aside) is identical for any ``workers`` and with ``ray``.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Generator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any

from laizi.bots.base import Bot, SeatView
from laizi.bots.registry import make_bot
from laizi.game.actions import Action
from laizi.rules import RuleSet
from laizi.sim import bot_seed, record_hand, sim_hand_seed

__all__ = ["ArenaResult", "DealRecord", "arena", "play_deal", "rotation_seats"]

Z95 = 1.959963984540054  # two-sided 95 % normal quantile
CHUNK = 5  # deals per work unit


def rotation_seats(rotation: int) -> list[int]:
    """``seats[i]`` is the seat of line-up place *i* in ``rotation`` (0-3)."""
    return [(i + rotation) % 4 for i in range(4)]


class _Timed(Bot):
    """A bot that records how long each of its decisions took (seconds)."""

    def __init__(self, inner: Bot, sink: list[float]) -> None:
        self.inner = inner
        self.sink = sink

    def act(self, view: SeatView) -> Action:
        t0 = time.perf_counter()
        action = self.inner.act(view)
        self.sink.append(time.perf_counter() - t0)
        return action

    def reset(self) -> None:
        self.inner.reset()

    def __repr__(self) -> str:
        return f"_Timed({self.inner!r})"


@dataclass(slots=True)
class DealRecord:
    """One deal, four rotations; every list is indexed by line-up place, not seat."""

    deal: int
    payments: list[list[float]]  # [rotation][place]
    winner: list[int | None]  # [rotation] → winning place
    by: list[str | None]
    dealt_in: list[int | None]  # [rotation] → the place whose discard was won on
    big_hands: list[list[str]]
    liable: list[int | None]
    decisions: list[int]  # per place, over the four rotations
    times: list[list[float]] = field(default_factory=list)  # per place: seconds per decision

    def to_tuple(self) -> tuple[Any, ...]:
        return (self.deal, self.payments, self.winner, self.by, self.dealt_in, self.big_hands,
                self.liable, self.decisions, self.times)


def play_deal(rules: RuleSet, lineup: Sequence[str], seed: int | str, deal: int, *,
              bot_factory: Callable[[str, int], Bot] = make_bot) -> DealRecord:
    """Play deal ``deal`` once per rotation of ``lineup`` (four bot names)."""
    rec = DealRecord(deal, [], [], [], [], [], [], [0, 0, 0, 0], [[], [], [], []])
    wall_seed = sim_hand_seed(seed, deal)
    for r in range(4):
        seats = rotation_seats(r)
        place_of = {seat: place for place, seat in enumerate(seats)}
        counts_before = [len(t) for t in rec.times]
        by_seat: dict[int, Bot] = {}
        for place, name in enumerate(lineup):
            inner = bot_factory(name, bot_seed(seed, 4 * deal + r, place))
            by_seat[seats[place]] = _Timed(inner, rec.times[place])
        bots = [by_seat[s] for s in range(4)]
        _, hand = record_hand(rules, bots, seed=wall_seed, dealer=deal % 4, index=deal,
                            count_refusals=False)
        rec.payments.append([float(hand.payments[seats[p]]) for p in range(4)])
        win = place_of[hand.winner] if hand.winner is not None else None
        rec.winner.append(win)
        rec.by.append(hand.by)
        rec.dealt_in.append(place_of[hand.from_seat]
                            if hand.from_seat is not None and hand.by == "discard" else None)
        rec.big_hands.append(list(hand.big_hands))
        rec.liable.append(place_of[hand.liable] if hand.liable is not None else None)
        for p in range(4):
            rec.decisions[p] += len(rec.times[p]) - counts_before[p]
    return rec


def _chunk_worker(args: tuple[dict[str, Any], list[str], int | str, list[int]]
                  ) -> list[tuple[Any, ...]]:
    rules_d, lineup, seed, deals = args
    rules = RuleSet(**rules_d)
    return [play_deal(rules, lineup, seed, d).to_tuple() for d in deals]


# ------------------------------------------------------------------ statistics
def _mean_ci(xs: Sequence[float]) -> dict[str, Any]:
    n = len(xs)
    mean = sum(xs) / n if n else 0.0
    half = Z95 * statistics.stdev(xs) / math.sqrt(n) if n >= 2 else math.inf
    return {"mean": mean, "ci95": [mean - half, mean + half], "half_width": half}


def _percentile(xs: Sequence[float], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    k = min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))
    return s[k]


@dataclass
class ArenaResult:
    """Statistics of an arena run (:meth:`to_json` for the CLI's ``--json``)."""

    preset: str
    lineup: list[str]
    seed: int | str
    workers: int
    backend: str = "local"
    records: list[DealRecord] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def deals(self) -> int:
        return len(self.records)

    @property
    def hands(self) -> int:
        return 4 * len(self.records)

    def zero_sum(self) -> bool:
        return all(abs(sum(p)) < 1e-6 for r in self.records for p in r.payments)

    def levels(self) -> list[str]:
        """The distinct bot names of the line-up, in line-up order."""
        return list(dict.fromkeys(self.lineup))

    def per_deal(self, level: str) -> list[float]:
        """Mean points per hand of ``level`` on each deal (its places and rotations)."""
        places = [i for i, n in enumerate(self.lineup) if n == level]
        return [sum(rot[p] for rot in r.payments for p in places) / (4 * len(places))
                for r in self.records]

    def _level_stats(self, level: str, timing: bool) -> dict[str, Any]:
        places = [i for i, n in enumerate(self.lineup) if n == level]
        hands = max(1, self.hands * len(places))
        wins = sum(1 for r in self.records for w in r.winner if w in places)
        out: dict[str, Any] = {
            "bot": level,
            "places": places,
            "hands": self.hands * len(places),
            "points_per_hand": _mean_ci(self.per_deal(level)),
            "win_rate": wins / hands,
            "self_draw_rate": sum(1 for r in self.records for w, b in zip(r.winner, r.by,
                                                                          strict=True)
                                  if w in places and b == "self_draw") / hands,
            "big_hand_rate": sum(1 for r in self.records
                                 for w, bh in zip(r.winner, r.big_hands, strict=True)
                                 if w in places and bh) / hands,
            "deal_in_rate": sum(1 for r in self.records for d in r.dealt_in
                                if d in places) / hands,
            "liable_rate": sum(1 for r in self.records for lb in r.liable
                               if lb in places) / hands,
            "decisions_per_hand": sum(r.decisions[p] for r in self.records
                                      for p in places) / hands,
        }
        if timing:
            ts = [t for r in self.records for p in places for t in r.times[p]]
            out["decision_ms"] = {"p50": round(1000 * _percentile(ts, 0.50), 3),
                                  "p99": round(1000 * _percentile(ts, 0.99), 3),
                                  "max": round(1000 * max(ts, default=0.0), 3)}
        return out

    def margins(self) -> list[dict[str, Any]]:
        """Paired per-deal difference of each level over each later level."""
        lv = self.levels()
        out = []
        for i, a in enumerate(lv):
            for b in lv[i + 1:]:
                da, db = self.per_deal(a), self.per_deal(b)
                diff = [x - y for x, y in zip(da, db, strict=True)]
                out.append({"a": a, "b": b, **_mean_ci(diff)})
        return out

    def to_json(self, *, timing: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "preset": self.preset,
            "lineup": list(self.lineup),
            "seed": self.seed,
            "deals": self.deals,
            "hands": self.hands,
            "zero_sum": self.zero_sum(),
            "draw_rate": sum(1 for r in self.records for w in r.winner
                             if w is None) / max(1, self.hands),
            "bots": [self._level_stats(level, timing) for level in self.levels()],
            "margins": self.margins(),
        }
        if timing:
            out["workers"] = self.workers
            out["backend"] = self.backend
            out["seconds"] = round(self.seconds, 3)
            out["hands_per_second"] = round(self.hands / self.seconds, 1) if self.seconds else 0.0
        return out


# ------------------------------------------------------------------ running
def _chunks(deals: int) -> list[list[int]]:
    return [list(range(i, min(deals, i + CHUNK))) for i in range(0, deals, CHUNK)]


def _run_local(jobs: list[tuple[dict[str, Any], list[str], int | str, list[int]]],
               workers: int) -> Generator[list[tuple[Any, ...]], None, None]:
    if workers <= 1:
        for job in jobs:
            yield _chunk_worker(job)
        return
    from laizi.distributed import local_pool

    with local_pool(workers) as pool:
        yield from pool.imap(_chunk_worker, jobs)


def _run_ray(jobs: list[tuple[dict[str, Any], list[str], int | str, list[int]]],
             address: str | None) -> Generator[list[tuple[Any, ...]], None, None]:
    from laizi.distributed import ray_map

    yield from ray_map(_chunk_worker, jobs, address=address)


def arena(
    deals: int,
    *,
    lineup: Sequence[str],
    preset: str = "kaikoufan",
    rules: RuleSet | None = None,
    seed: int | str = 0,
    workers: int = 1,
    ray: bool = False,
    ray_address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ArenaResult:
    """Play ``deals`` deals × 4 rotations of ``lineup`` and collect the statistics.

    ``ray=True`` spreads the deals over a Ray cluster (``ray_address``, or a local
    instance when it is ``None``); the statistics are the same as with ``workers``.
    """
    if len(lineup) != 4:
        raise ValueError(f"a line-up has four bots, got {len(lineup)}")
    if deals < 0:
        raise ValueError("deals must be >= 0")
    rules = rules or RuleSet.preset(preset)
    result = ArenaResult(preset=preset, lineup=list(lineup), seed=seed, workers=workers,
                         backend="ray" if ray else "local")
    jobs = [(rules.model_dump(), list(lineup), seed, c) for c in _chunks(deals)]
    t0 = time.perf_counter()
    stream = _run_ray(jobs, ray_address) if ray else _run_local(jobs, workers)
    with closing(stream):  # an interrupt here stops the workers now, not when collected
        for tuples in stream:
            result.records.extend(DealRecord(*t) for t in tuples)
            if progress is not None:
                progress(len(result.records), deals)
    result.seconds = time.perf_counter() - t0
    return result
