"""Room leases in Redis: each running room is owned by exactly one node.

``lease:{code}`` holds ``"{node}|{token}"`` with a time to live (``SET NX PX``); the token
comes from ``fence:{code}`` (``INCR``: it only grows, per room) and is what the node writes
with (:mod:`laizi.server.persistence.fencing`). A lease is renewed (every ``ttl / 3``) only while
it still holds this node's value (a compare script), and released the same way, so a node
never extends or deletes a lease another node took after it lapsed.

Live nodes put themselves in ``nodes`` (a hash: name → last beat in ms).
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

__all__ = ["KEY_ACTIVE", "KEY_NODES", "Leases", "rendezvous"]

PREFIX = "laizi:"
KEY_NODES = PREFIX + "nodes"      # hash node → last heartbeat (ms since the epoch)
KEY_ACTIVE = PREFIX + "active"    # set of rooms that should be running somewhere

# KEYS[1] lease, KEYS[2] token counter; ARGV[1] node, ARGV[2] ttl ms → token or false
_ACQUIRE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return false end
local t = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. t, 'PX', ARGV[2])
return t
"""
# KEYS lease keys; ARGV[1] ttl ms, ARGV[2..] the values this node holds → 1/0 per key
_RENEW = """
local out = {}
for i, k in ipairs(KEYS) do
  if redis.call('GET', k) == ARGV[i + 1] then
    redis.call('PEXPIRE', k, ARGV[1])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""
# KEYS[1] token counter; ARGV[1] a token seen in the database → the counter is at least that
_CATCH_UP = """
local v = tonumber(redis.call('GET', KEYS[1]) or '0')
if v < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return 1
"""
# KEYS[1] lease; ARGV[1] the value this node holds → 1 when deleted
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def lease_key(code: str) -> str:
    return f"{PREFIX}lease:{code}"


def rendezvous(code: str, nodes: list[str]) -> str | None:
    """The node preferred for room ``code`` among ``nodes`` (highest random weight hashing:
    rooms spread evenly, and only the rooms of a node that left move)."""
    if not nodes:
        return None
    return max(nodes, key=lambda n: hashlib.blake2b(f"{n}/{code}".encode(), digest_size=8).digest())


class Leases:
    """This node's leases (``held``: room → token) on an asyncio Redis client."""

    def __init__(self, redis: Any, node: str, ttl: float = 3.0) -> None:
        self.r = redis
        self.node = node
        self.ttl_ms = int(ttl * 1000)
        self.held: dict[str, int] = {}
        self.fresh: list[str] = [node]  # nodes that beat within 2/3 of the lease time
        self.stats: dict[str, int] = {"redis_round_trips": 0, "leases_acquired": 0,
                                      "leases_lost": 0, "leases_released": 0}
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)
        self._catch_up = redis.register_script(_CATCH_UP)

    def _value(self, code: str) -> str:
        return f"{self.node}|{self.held[code]}"

    async def acquire(self, code: str) -> int | None:
        """Take room ``code``'s lease if nobody holds it: its new token, else None."""
        self.stats["redis_round_trips"] += 1
        t = await self._acquire(keys=[lease_key(code), f"{PREFIX}fence:{code}"],
                                args=[self.node, self.ttl_ms])
        if t is None:
            return None
        token = int(t)
        self.held[code] = token
        self.stats["leases_acquired"] += 1
        return token

    async def renew(self) -> list[str]:
        """Renew every lease held; the rooms whose lease was lost (forgotten here)."""
        codes = list(self.held)
        if not codes:
            return []
        self.stats["redis_round_trips"] += 1
        res = await self._renew(keys=[lease_key(c) for c in codes],
                                args=[self.ttl_ms, *(self._value(c) for c in codes)])
        lost = [c for c, ok in zip(codes, res, strict=True) if not int(ok) and c in self.held]
        for c in lost:
            self.held.pop(c, None)
        self.stats["leases_lost"] += len(lost)
        return lost

    async def drop_stale(self, code: str, token: int) -> None:
        """Delete a lease in this node's name that this process does not hold: left by an
        earlier process of the same name (a worker restarted within the lease time)."""
        if code in self.held:
            return
        self.stats["redis_round_trips"] += 1
        await self._release(keys=[lease_key(code)], args=[f"{self.node}|{token}"])

    async def release(self, code: str) -> None:
        """Let room ``code`` go (only if the lease is still this node's)."""
        if code not in self.held:
            return
        value = self._value(code)
        self.held.pop(code, None)
        self.stats["redis_round_trips"] += 1
        self.stats["leases_released"] += 1
        await self._release(keys=[lease_key(code)], args=[value])

    async def catch_up(self, code: str, token: int) -> None:
        """The database holds ``token`` for ``code`` (Redis lost its counters: restarted
        without persistence): count on from there."""
        self.stats["redis_round_trips"] += 1
        await self._catch_up(keys=[f"{PREFIX}fence:{code}"], args=[token])

    def forget(self, code: str) -> None:
        """Stop renewing ``code`` (the lease lapses by itself)."""
        self.held.pop(code, None)

    async def owners(self, codes: list[str]) -> dict[str, tuple[str, int] | None]:
        """Who holds each room's lease: ``(node, token)`` or None."""
        if not codes:
            return {}
        self.stats["redis_round_trips"] += 1
        vals = await self.r.mget([lease_key(c) for c in codes])
        out: dict[str, tuple[str, int] | None] = {}
        for c, v in zip(codes, vals, strict=True):
            if v is None:
                out[c] = None
            else:
                s = v.decode() if isinstance(v, bytes) else str(v)
                node, _, tok = s.rpartition("|")
                out[c] = (node, int(tok))
        return out

    async def owner(self, code: str) -> tuple[str, int] | None:
        return (await self.owners([code]))[code]

    # ------------------------------------------------------------- nodes
    async def beat(self) -> list[str]:
        """Say this node is alive; the live nodes (a beat within the lease time)."""
        now = int(time.time() * 1000)
        self.stats["redis_round_trips"] += 1
        pipe = self.r.pipeline(transaction=False)
        pipe.hset(KEY_NODES, self.node, now)
        pipe.hgetall(KEY_NODES)
        _, beats = await pipe.execute()
        live, fresh = [], []
        for k, v in beats.items():
            name = k.decode() if isinstance(k, bytes) else str(k)
            age = now - int(v)
            if age <= self.ttl_ms:
                live.append(name)
            if age <= self.ttl_ms * 2 // 3:  # a node beating every ttl/6 is never this late
                fresh.append(name)
        self.fresh = sorted(fresh)
        return sorted(live)

    async def leave(self) -> None:
        self.stats["redis_round_trips"] += 1
        await self.r.hdel(KEY_NODES, self.node)
