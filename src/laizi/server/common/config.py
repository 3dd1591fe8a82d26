"""Server settings (:class:`ServerConfig`) and the one place a room's :class:`RuleSet` is built."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from laizi.rules import RuleSet
from laizi.server.common.protocol import RoomSettings

__all__ = [
    "FINISHED_LINGER", "HELLO_TIMEOUT", "LOBBY_IDLE", "MAX_CONNECTIONS", "MAX_CONNS_PER_PLAYER", "SEND_QUEUE_BYTES",
    "SEND_QUEUE_MAX", "SOCKET_SEND_BUFFER", "ServerConfig", "room_rules",
]

FINISHED_LINGER = 120.0    # seconds a finished room stays in memory (the time to agree on 再来一局), then only in the database
SEND_QUEUE_MAX = 1000      # frames queued for a connection that does not read: then it is dropped
SEND_QUEUE_BYTES = 1 << 18 # ... or this many characters of them (a dropped seat resyncs on reconnect)
SOCKET_SEND_BUFFER = 1 << 16  # bytes the kernel may hold for a WebSocket that does not read (SO_SNDBUF; Linux doubles it)
MAX_CONNECTIONS = 3000     # WebSockets open at once, in total (bench_server: 4 per room)
MAX_CONNS_PER_PLAYER = 4   # ... per identity (a player's tabs and devices)
HELLO_TIMEOUT = 5.0        # seconds a new socket has to say hello before it is closed
LOBBY_IDLE = 600.0         # seconds an empty lobby is kept before it is closed (and leaves memory)


@dataclass
class ServerConfig:
    db_url: str = "laizi.db"
    bot_delay: float = 0.6          # seconds a bot (or 托管) waits before acting
    hand_pause: float = 4.0         # seconds between a hand's end and the next deal
    disconnect_grace: float = 5.0   # a disconnected player goes to 托管 after this
    turn_seconds: float = 20.0      # default turn timer (rooms may override)
    secret: str | None = None       # token signing key (default: stored in the database)
    send_queue_max: int = SEND_QUEUE_MAX
    send_queue_bytes: int = SEND_QUEUE_BYTES
    socket_send_buffer: int = SOCKET_SEND_BUFFER  # 0: the kernel's own (autotuned up to 4 MB)
    max_connections: int = MAX_CONNECTIONS
    direct_send: bool = True        # write frames straight to the socket when it takes them
    max_conns_per_player: int = MAX_CONNS_PER_PLAYER
    hello_timeout: float = HELLO_TIMEOUT
    msg_rate: float = 40.0          # client frames per second (burst 2x) before throttling
    bot_steps_per_tick: int = 8     # bot moves per timer callback before yielding
    bot_tick_budget: float = 0.005  # ... or once this many seconds of them have passed
    gc_freeze: bool = True          # keep long-lived objects out of the cyclic GC's sight
    gc_interval: float = 1.0        # seconds between collect-and-freeze passes (0: start-up only)
    finished_linger: float = FINISHED_LINGER
    lobby_idle: float = LOBBY_IDLE
    rate_exempt: tuple[str, ...] = ()  # client addresses not rate-limited (load tests)
    redis_url: str | None = None    # shared rate limits and connection caps (laizi.server.guard.ops)


def room_rules(settings: RoomSettings) -> RuleSet:
    """The rules a room plays by: its preset, its options, its rounds and claim window.

    Raises :class:`laizi.errors.LaiziError` on an unknown preset or a bad option.
    """
    extra: dict[str, Any] = {"rounds": settings.rounds}
    if settings.claim_seconds is not None:
        extra["claim_seconds"] = settings.claim_seconds
    return RuleSet.preset(settings.preset, **{**settings.options, **extra})
