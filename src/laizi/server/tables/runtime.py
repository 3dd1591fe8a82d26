"""Process-level tuning: keep the long-lived heap out of the cyclic GC's sight, warm the hot path."""

from __future__ import annotations

import asyncio
import gc
import importlib
import logging
import time

from laizi.rules import RuleSet
from laizi.server.tables.engine import GameSession, seed_from_text
from laizi.server.tables.seats import SeatBot, bot_levels, hints_for_view

__all__ = ["HeapFreezer", "freeze_heap", "warm_up"]

log = logging.getLogger("laizi.server")

SLOW_GC_PASS = 0.05  # seconds: a collect-and-freeze pass longer than this is logged


def freeze_heap(generation: int = 2) -> float:
    """Collect ``generation`` (and the younger ones), then ``gc.freeze()`` every object
    alive; returns the seconds it took.

    CPython's full collections walk every tracked object, here about a microsecond
    each: the imported modules (pydantic validators, SQLAlchemy, the engine) plus the
    rooms and connections of a busy server made each one a 50-300 ms pause of every
    room. Frozen objects are never walked again; they are the long-lived state
    (modules, connections, matches) and are still freed by reference counting when they
    go. The price: a *reference cycle* frozen while alive is not reclaimed when it later
    becomes garbage. The server's connections and the engine's matches leave no such
    cycles (checked: ``gc.unfreeze(); gc.collect()`` after a load run finds none), and
    ``/healthz`` reports the frozen count (``gc_frozen``) to watch. At start-up this is
    a full collection; then every ``interval`` seconds a young one (gen 0-1, a few
    milliseconds) before freezing the survivors.
    """
    t0 = time.perf_counter()
    gc.collect(generation)
    gc.freeze()
    return time.perf_counter() - t0


class HeapFreezer:
    """A full collect-and-freeze now, then a young one every ``interval`` seconds."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.passes = 0
        self.max_ms = 0.0
        self._timer: asyncio.TimerHandle | None = None

    def start(self) -> None:
        freeze_heap()
        if self.interval > 0:
            self._timer = asyncio.get_running_loop().call_later(self.interval, self._pass)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _pass(self) -> None:
        dt = freeze_heap(1)
        self.passes += 1
        self.max_ms = max(self.max_ms, round(dt * 1000, 1))
        if dt > SLOW_GC_PASS:
            log.warning("gc pass took %.0f ms", dt * 1000)
        self._timer = asyncio.get_running_loop().call_later(self.interval, self._pass)


WARM_MODULES = ("laizi.bots", "laizi.hints", "laizi.game.play", "laizi.views", "laizi.analysis.fast")


def warm_up() -> None:
    """Import and initialise what the hot path loads lazily (the engine's tables, bots,
    hints), so no first move pays for it and it all belongs to the frozen start-up heap."""
    try:
        for mod in WARM_MODULES:
            importlib.import_module(mod)
        g = GameSession(RuleSet.preset("kaikoufan"), seed_from_text("warm-up"))
        seat = g.to_act()[0]
        for level in bot_levels():
            SeatBot(level, 0).choose(g, seat)
        hints_for_view(g.seat_view(seat))
        g.view_json(seat)
    except Exception:  # noqa: BLE001 - a warm-up only: the first move pays instead
        log.exception("warm-up failed")
