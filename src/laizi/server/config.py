"""Server settings (:class:`ServerConfig`) and the one place a room's :class:`RuleSet` is built."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from laizi.rules import RuleSet
from laizi.server.protocol import RoomSettings

__all__ = ["FINISHED_LINGER", "ServerConfig", "room_rules"]

FINISHED_LINGER = 30.0  # seconds a finished room stays in memory before it lives only in the database


@dataclass
class ServerConfig:
    db_url: str = "laizi.db"
    bot_delay: float = 0.6          # seconds a bot (or 托管) waits before acting
    hand_pause: float = 4.0         # seconds between a hand's end and the next deal
    disconnect_grace: float = 5.0   # a disconnected player goes to 托管 after this
    turn_seconds: float = 20.0      # default turn timer (rooms may override)
    secret: str | None = None       # token signing key (default: stored in the database)
    send_queue_max: int = 1000      # frames queued for one connection before it is dropped
    msg_rate: float = 40.0          # client frames per second (burst 2x) before throttling
    bot_steps_per_tick: int = 8     # bot moves per timer callback before yielding
    bot_tick_budget: float = 0.005  # ... or once this many seconds of them have passed
    gc_freeze: bool = True          # keep long-lived objects out of the cyclic GC's sight
    gc_interval: float = 1.0        # seconds between collect-and-freeze passes (0: start-up only)
    finished_linger: float = FINISHED_LINGER


def room_rules(settings: RoomSettings) -> RuleSet:
    """The rules a room plays by: its preset, its options, its rounds and claim window.

    Raises :class:`laizi.errors.LaiziError` on an unknown preset or a bad option.
    """
    extra: dict[str, Any] = {"rounds": settings.rounds}
    if settings.claim_seconds is not None:
        extra["claim_seconds"] = settings.claim_seconds
    return RuleSet.preset(settings.preset, **{**settings.options, **extra})
