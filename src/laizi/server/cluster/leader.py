"""One node at a time does a cluster-wide job (the tournament director: starting
tournaments, opening their tables, recording results, advancing rounds): a leader lease in
Redis, ``laizi:leader:{job}`` = the node's name with a time to live, taken when absent and
renewed by its holder each time it asks (one script, so a node never extends a lease
another node took after it lapsed). A node that stops asking — dead, stopped, cut off
from Redis — loses the job within the time to live and another node's next ask takes it.

The job's own writes stay safe while two nodes briefly both think they lead (a node paused
past its lease): the tables it opens are rooms, leased and fenced like any room
(:mod:`laizi.server.persistence.fencing`), and the director's records are idempotent steps
(a table's result is recorded once, a round is created once)."""

from __future__ import annotations

from typing import Any

__all__ = ["LEADER_TTL", "lead", "leader_key"]

LEADER_TTL = 5.0  # seconds a leader keeps the job without asking again

# KEYS[1] the job's key; ARGV[1] node, ARGV[2] ttl ms → 1 when this node leads
_TAKE_OR_RENEW = """
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""


def leader_key(job: str) -> str:
    return f"laizi:leader:{job}"


async def lead(r: Any, job: str, node: str, ttl: float = LEADER_TTL) -> bool:
    """Whether ``node`` leads ``job`` now (taking the job when nobody holds it)."""
    return bool(await r.eval(_TAKE_OR_RENEW, 1, leader_key(job), node, int(ttl * 1000)))
