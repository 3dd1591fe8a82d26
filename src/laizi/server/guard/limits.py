"""Rate limits on what costs the server memory or lets a stranger guess: new guests, new
rooms and joins, chat, logins and registrations, per client address and per identity.

Every limit is a moving window (at most ``count`` events in any ``window`` seconds) kept by
the `limits <https://limits.readthedocs.io>`_ library: in this process's memory by default,
or in Redis when the server has a ``redis_url`` — then every node of a cluster draws on the
same budget (one address gets 20 rooms a minute from the whole cluster, not 20 per node).
If Redis stops answering, each node falls back to its own memory budget until it answers
again (counted in ``laizi_redis_errors_total``): a Redis outage never stops the game.

Addresses listed in ``ServerConfig.rate_exempt`` or ``LAIZI_RATE_EXEMPT`` (comma-separated;
e.g. a load test on loopback) are not limited by address.
"""

from __future__ import annotations

import bisect
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from limits import RateLimitItem, RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter

from laizi.server.common.chat import RATE_COUNT, RATE_WINDOW
from laizi.server.common.protocol import ProtocolError

__all__ = ["BOT_ROOMS_PER_IP", "CHAT", "GUESTS_PER_IP", "JOINS_PER_IP", "JOINS_PER_PLAYER",
           "ROOMS_PER_IP", "SCORES_PER_IP", "SEAT_LEAVES",
           "ROOMS_PER_PLAYER", "Limit", "Limits", "RateBudget", "open_storage"]

log = logging.getLogger("laizi.server")


@dataclass(frozen=True)
class Limit:
    count: int
    window: float  # seconds (whole seconds: the limits library counts in seconds)

    @cached_property
    def item(self) -> RateLimitItem:
        return RateLimitItemPerSecond(self.count, max(1, round(self.window)))

    def describe(self, noun: str, per: str) -> str:
        return f"{self.count} {noun} per {self.window:g} s {per}"


GUESTS_PER_IP = Limit(30, 60.0)      # new guest identities from one address
ROOMS_PER_IP = Limit(20, 60.0)       # rooms created from one address
ROOMS_PER_PLAYER = Limit(5, 60.0)    # ... by one player
JOINS_PER_IP = Limit(120, 60.0)      # join attempts (right or wrong codes) from one address
JOINS_PER_PLAYER = Limit(30, 60.0)   # ... by one player
SCORES_PER_IP = Limit(600, 60.0)     # POST /api/score (the calculator) from one address
BOT_ROOMS_PER_IP = 3                 # tables of four bots playing at once, started from one address
CHAT = Limit(RATE_COUNT, RATE_WINDOW)  # chat messages of one player (every room, every socket)
SEAT_LEAVES = Limit(5, 300.0)        # seats one player gives up (stands up, leaves the table):
                                     # once spent, no new seat until the oldest is 300 s old

# action -> (error code, noun, limit per address, limit per player)
_RULES: dict[str, tuple[str, str, Limit | None, Limit | None]] = {
    "guest": ("too_many_guests", "new guests", GUESTS_PER_IP, None),
    "room": ("too_many_rooms", "new rooms", ROOMS_PER_IP, ROOMS_PER_PLAYER),
    "join": ("too_many_joins", "joins", JOINS_PER_IP, JOINS_PER_PLAYER),
    "score": ("too_many_scores", "score requests", SCORES_PER_IP, None),
}


EXPIRY_EVERY = 5.0  # seconds between two sweeps of the expired entries (memory storage)


class Memory(MemoryStorage):
    """The ``limits`` memory storage, its sweep of expired entries at most every
    :data:`EXPIRY_EVERY` seconds. (The library starts a sweep over every key — one thread
    hop per key — whenever a hit finds none running: with 5,000 keys and 1,000 hits a
    second that is a whole core. The windows are exact either way: a sweep only frees
    memory.)"""

    _next_sweep = 0.0

    async def _MemoryStorage__schedule_expiry(self) -> None:
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + EXPIRY_EVERY
        await super()._MemoryStorage__schedule_expiry()  # type: ignore[misc]

    async def _MemoryStorage__expire_events(self) -> None:
        """One sweep, in the event loop without a pause (no thread hop per key: a few
        microseconds a key). Moving-window entries are kept newest first."""
        now = time.time()
        events, locks = self.events, self.locks
        for key in list(events):
            entries = events[key]
            cutoff = bisect.bisect_left(entries, -now, key=lambda e: -e.expiry)
            del entries[cutoff:]  # the expired ones (cutoff 0: all of them)
            if not entries:
                events.pop(key, None)
                locks.pop(key, None)
        for key in [k for k, t in self.expirations.items() if t <= now]:
            self.storage.pop(key, None)
            self.expirations.pop(key, None)
            locks.pop(key, None)


def open_storage(redis_url: str | None) -> Storage:
    """The ``limits`` storage: this process's memory, or the Redis at ``redis_url``
    (``redis://``, ``rediss://`` or ``unix://``), shared by every node using it."""
    if not redis_url:
        return Memory()
    uri = redis_url if redis_url.startswith("async+") else "async+" + redis_url
    uri = uri.replace("async+unix://", "async+redis+unix://")
    return RedisStorage(uri, implementation="redispy", key_prefix="laizi:limits",
                        socket_timeout=2.0, socket_connect_timeout=2.0)


@dataclass
class RateBudget:
    """Moving-window budgets keyed by (limit, scope, key) on one ``limits`` storage.

    :meth:`hit` counts one event against several budgets at once, or none of them when
    one is spent. With Redis, the budgets are the cluster's; on a Redis error the budget
    falls back to this process's memory (``on_error`` is told; ``on_round_trip`` counts the
    round trips made to the storage, for /metrics).
    """

    storage: Storage = field(default_factory=Memory)
    on_round_trip: Callable[[int], None] | None = None
    on_error: Callable[[BaseException], None] | None = None

    def __post_init__(self) -> None:
        self.limiter = MovingWindowRateLimiter(self.storage)
        self.shared = not isinstance(self.storage, MemoryStorage)
        self._local = MovingWindowRateLimiter(Memory()) if self.shared else self.limiter

    async def hit(self, *checks: tuple[Limit, str, str]) -> tuple[int, float] | None:
        """Count one event against every ``(limit, scope, key)``; None if done, else which
        budget is spent (its index) and the seconds before it has room again (then nothing
        is counted)."""
        if not self.shared:
            return await self._hit(self.limiter, checks)
        try:
            out = await self._hit(self.limiter, checks)
        except Exception as exc:  # noqa: BLE001 - Redis is down: each node keeps its own budget
            log.warning("rate limits: Redis failed (%s); this node counts alone", exc)
            if self.on_error is not None:
                self.on_error(exc)
            return await self._hit(self._local, checks)
        if self.on_round_trip is not None:
            self.on_round_trip(len(checks) * 2 if out is None else out[0] + 2)
        return out

    @staticmethod
    async def _hit(limiter: MovingWindowRateLimiter,
                   checks: tuple[tuple[Limit, str, str], ...]) -> tuple[int, float] | None:
        for i, (limit, scope, key) in enumerate(checks):
            if not await limiter.test(limit.item, scope, key):
                stats = await limiter.get_window_stats(limit.item, scope, key)
                return i, max(0.0, stats.reset_time - time.time())
        for i, (limit, scope, key) in enumerate(checks):
            if not await limiter.hit(limit.item, scope, key):  # another node took the last one
                return i, float(limit.window)
        return None

    async def spent(self, limit: Limit, scope: str, key: str) -> float | None:
        """Without counting anything: None if the budget has room, else the seconds before it has."""
        async def look(limiter: MovingWindowRateLimiter) -> float | None:
            if await limiter.test(limit.item, scope, key):
                return None
            stats = await limiter.get_window_stats(limit.item, scope, key)
            return max(0.0, stats.reset_time - time.time())

        if not self.shared:
            return await look(self.limiter)
        try:
            return await look(self.limiter)
        except Exception as exc:  # noqa: BLE001 - Redis is down: this node's own budget
            if self.on_error is not None:
                self.on_error(exc)
            return await look(self._local)

    async def reset(self) -> None:
        await self.storage.reset()


class Limits:
    """The server's rate limits (one per hub). ``check`` raises :class:`ProtocolError`."""

    def __init__(self, exempt: frozenset[str] = frozenset(), budget: RateBudget | None = None) -> None:
        self.exempt = exempt
        self.budget = budget or RateBudget()

    async def check(self, action: str, ip: str, player: str | None = None) -> None:
        """Count one ``action``; raise :class:`ProtocolError` (nothing counted) when the
        address or the player is over its limit."""
        code, noun, ip_limit, player_limit = _RULES[action]
        checks: list[tuple[Limit, str, str]] = []
        whats: list[str] = []
        if ip_limit is not None and ip not in self.exempt:
            checks.append((ip_limit, f"{action}:ip", ip))
            whats.append(ip_limit.describe(noun, "from one address"))
        if player is not None and player_limit is not None:
            checks.append((player_limit, f"{action}:player", player))
            whats.append(player_limit.describe(noun, "per player"))
        spent = await self.budget.hit(*checks)
        if spent is not None:
            i, wait = spent
            raise ProtocolError(code, f"at most {whats[i]}; wait {wait:.1f} s")

    async def hit(self, limit: Limit, scope: str, key: str) -> float | None:
        """One event against one budget (chat, logins...): None, or the seconds to wait."""
        spent = await self.budget.hit((limit, scope, key))
        return None if spent is None else spent[1]

    # The join/leave cool-down (issue 26): a player who gave up SEAT_LEAVES.count seats in
    # SEAT_LEAVES.window seconds takes no new seat until the oldest of them is that old.
    async def seat_left(self, player: str) -> None:
        """``player`` gave up a seat (stood up, left the table, escaped a match)."""
        await self.budget.hit((SEAT_LEAVES, "seat_leave", player))

    async def seat_check(self, player: str) -> None:
        """Raise :class:`ProtocolError` ``cooldown`` while ``player`` may take no seat."""
        wait = await self.budget.spent(SEAT_LEAVES, "seat_leave", player)
        if wait is not None:
            raise ProtocolError("cooldown", f"you left {SEAT_LEAVES.count} seats in "
                                            f"{SEAT_LEAVES.window:g} s: wait {max(1, round(wait))} s "
                                            "before you take another seat")
