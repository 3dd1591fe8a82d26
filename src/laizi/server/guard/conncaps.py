"""Connection caps: WebSockets open at once, in total and per player — for one process, or
for a whole cluster through Redis.

Alone, a node counts its own open connections (``ServerConfig.max_connections``,
``max_conns_per_player``). With a ``redis_url``, every node keeps its own counts in a Redis
hash ``laizi:conns:node:<node>`` (``_total`` and one field per player) that expires
:data:`NODE_TTL` seconds after the node's last heartbeat; a new connection is admitted by
one Lua script that sums the hashes of the live nodes and counts itself in, atomically.
A node that dies stops counting once its hash expires; a live node rewrites its hash from
its real connections every :data:`HEARTBEAT` seconds, so a count that drifted (a crash
between two updates) heals. If Redis does not answer, the node falls back to its own counts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Callable
from typing import Any

from laizi.server.common.connset import ConnSet

__all__ = ["HEARTBEAT", "NODE_TTL", "ConnCaps"]

log = logging.getLogger("laizi.server")

HEARTBEAT = 5.0   # seconds between two rewrites of a node's counts in Redis
NODE_TTL = 15     # seconds after which a silent node's connections stop counting
PREFIX = "laizi:conns:"

# KEYS: none (the node keys are named from ARGV: one Redis, not Redis Cluster).
# ARGV: prefix, node, player ('' = none), max_total, max_per_player, ttl, count_total (1/0)
# Returns 0 (admitted and counted), 1 (the cluster is full), 2 (the player has enough).
_ADMIT = """
local prefix, node, player = ARGV[1], ARGV[2], ARGV[3]
local max_total, max_player, ttl = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local count_total = ARGV[7] == '1'
local nodes = redis.call('SMEMBERS', prefix .. 'nodes')
local total, mine = 0, 0
for _, n in ipairs(nodes) do
  local k = prefix .. 'node:' .. n
  if redis.call('EXISTS', k) == 1 then
    total = total + tonumber(redis.call('HGET', k, '_total') or '0')
    if player ~= '' then
      mine = mine + tonumber(redis.call('HGET', k, 'p:' .. player) or '0')
    end
  elseif n ~= node then
    redis.call('SREM', prefix .. 'nodes', n)
  end
end
if count_total and total >= max_total then return 1 end
if player ~= '' and mine >= max_player then return 2 end
local k = prefix .. 'node:' .. node
if count_total then redis.call('HINCRBY', k, '_total', 1) end
if player ~= '' then redis.call('HINCRBY', k, 'p:' .. player, 1) end
redis.call('EXPIRE', k, ttl)
redis.call('SADD', prefix .. 'nodes', node)
return 0
"""

# ARGV: prefix, node, player ('' = none), ttl. One connection less (never below 0).
_RELEASE = """
local k = ARGV[1] .. 'node:' .. ARGV[2]
if redis.call('EXISTS', k) == 0 then return 0 end
if tonumber(redis.call('HINCRBY', k, '_total', -1)) < 0 then redis.call('HSET', k, '_total', 0) end
if ARGV[3] ~= '' then
  local f = 'p:' .. ARGV[3]
  if tonumber(redis.call('HINCRBY', k, f, -1)) <= 0 then redis.call('HDEL', k, f) end
end
return 1
"""

# ARGV: prefix, node, ttl, then field, value pairs. The node's counts, rewritten whole.
_SNAPSHOT = """
local k = ARGV[1] .. 'node:' .. ARGV[2]
redis.call('DEL', k)
for i = 4, #ARGV, 2 do redis.call('HSET', k, ARGV[i], ARGV[i + 1]) end
redis.call('EXPIRE', k, tonumber(ARGV[3]))
redis.call('SADD', ARGV[1] .. 'nodes', ARGV[2])
return 1
"""


class ConnCaps:
    """The caps on open connections. ``conns`` is the live set of this node's connections
    (the hub's); ``redis`` (a ``redis.asyncio.Redis``) makes the caps the cluster's."""

    def __init__(self, conns: ConnSet[Any], max_total: int, max_per_player: int, *,
                 redis: Any = None, node: str = "", prefix: str = PREFIX, ttl: int = NODE_TTL,
                 on_round_trip: Callable[[int], None] | None = None,
                 on_error: Callable[[BaseException], None] | None = None) -> None:
        self.conns = conns
        self.max_total = max_total
        self.max_per_player = max_per_player
        self.redis = redis
        self.node = node
        self.prefix = prefix
        self.ttl = ttl
        self.on_round_trip = on_round_trip
        self.on_error = on_error
        self._beat: asyncio.Task[None] | None = None

    # ------------------------------------------------------------- local counts
    def local_total(self) -> int:
        return len(self.conns)

    def local_of(self, player: str) -> int:
        return len(self.conns.of(player))

    # ------------------------------------------------------------- checks
    async def admit(self) -> bool:
        """A new socket (not yet counted in ``conns``): may it stay? Counted if so."""
        if self.local_total() >= self.max_total:
            return False
        return await self._shared("", True) in (0, None)

    async def identify(self, player: str) -> bool:
        """The socket says who it is (not yet set on it): is ``player`` under its cap?"""
        if self.local_of(player) >= self.max_per_player:
            return False
        return await self._shared(player, False) in (0, None)

    async def release(self, player: str | None) -> None:
        """A counted socket closed (``player``: who it had said it was, if it had)."""
        if self.redis is None:
            return
        try:
            await self.redis.eval(_RELEASE, 0, self.prefix, self.node, player or "", self.ttl)
            self._round_trips(1)
        except Exception as exc:  # noqa: BLE001 - the heartbeat rewrites the counts anyway
            self._failed(exc)

    async def _shared(self, player: str, count_total: bool) -> int | None:
        if self.redis is None:
            return None
        try:
            out = await self.redis.eval(_ADMIT, 0, self.prefix, self.node, player, self.max_total,
                                        self.max_per_player, self.ttl, "1" if count_total else "0")
        except Exception as exc:  # noqa: BLE001 - Redis is down: the node's own caps hold
            self._failed(exc)
            return None
        self._round_trips(1)
        return int(out)

    # ------------------------------------------------------------- heartbeat
    def snapshot(self) -> dict[str, int]:
        counts: Counter[str] = Counter()
        total = 0
        for c in self.conns:
            total += 1
            if c.player_id is not None and not c.closed:
                counts["p:" + c.player_id] += 1
        return {"_total": total, **counts}

    async def beat(self) -> None:
        """Rewrite this node's counts in Redis from its real connections (and its expiry)."""
        if self.redis is None:
            return
        flat: list[Any] = []
        for k, v in self.snapshot().items():
            flat += [k, v]
        try:
            await self.redis.eval(_SNAPSHOT, 0, self.prefix, self.node, self.ttl, *flat)
            self._round_trips(1)
        except Exception as exc:  # noqa: BLE001 - tried again at the next beat
            self._failed(exc)

    async def cluster_counts(self) -> dict[str, int]:
        """Open connections per live node (for /healthz); {} without Redis."""
        if self.redis is None:
            return {}
        out: dict[str, int] = {}
        with contextlib.suppress(Exception):
            for raw in await self.redis.smembers(self.prefix + "nodes"):
                n = raw.decode() if isinstance(raw, bytes) else str(raw)
                v = await self.redis.hget(f"{self.prefix}node:{n}", "_total")
                if v is not None:
                    out[n] = int(v)
        return out

    def start(self) -> None:
        if self.redis is not None and self._beat is None:
            self._beat = asyncio.ensure_future(self._heartbeat())

    async def stop(self) -> None:
        if self._beat is not None:
            self._beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beat
            self._beat = None
        if self.redis is not None:  # a node that stops cleanly stops counting at once
            with contextlib.suppress(Exception):
                await self.redis.delete(f"{self.prefix}node:{self.node}")
                await self.redis.srem(self.prefix + "nodes", self.node)

    async def _heartbeat(self) -> None:
        while True:
            await self.beat()
            await asyncio.sleep(min(HEARTBEAT, self.ttl / 3))

    def _round_trips(self, n: int) -> None:
        if self.on_round_trip is not None:
            self.on_round_trip(n)

    def _failed(self, exc: BaseException) -> None:
        log.warning("connection caps: Redis failed (%s); this node counts alone", exc)
        if self.on_error is not None:
            self.on_error(exc)
