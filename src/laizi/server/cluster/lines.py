"""Quick match's waiting lines shared by the nodes, in Redis
(:class:`laizi.server.tables.lines.WaitingLines`).

``laizi:line:{name}`` is a list of entries (JSON, first come first); ``laizi:linerec:{pid}``
a player's record (its entry and line while it waits; the table it was given, for
:data:`SEATED_KEEP` seconds). Every change is one Lua script, so adding, leaving and taking
are atomic across nodes: a group of waiters is taken by one node, which seats them; the
players waiting on other nodes are told over the bus (``qtell``) and join the table like
any room (their node relays them to the owner)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from laizi.server.tables.lines import SEATED_KEEP

__all__ = ["RedisLines"]

LINE = "laizi:line:"
REC = "laizi:linerec:"
LINES = "laizi:lines"  # the set of line names that may hold entries

# the player's record out of its line: KEYS[1] its record; ARGV[1] line prefix → 1 if it waited
_OUT = """
local function out(reckey, prefix)
  local rec = redis.call('GET', reckey)
  if not rec then return 0 end
  local r = cjson.decode(rec)
  redis.call('DEL', reckey)
  if not r['line'] then return 0 end
  redis.call('LREM', prefix .. r['line'], 0, r['entry'])
  return 1
end
"""

_ADD = _OUT + """
out(KEYS[1], ARGV[1])
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('SADD', KEYS[3], ARGV[2])
redis.call('SET', KEYS[1], cjson.encode({line = ARGV[2], entry = ARGV[3]}))
return 1
"""

_REMOVE = _OUT + "return out(KEYS[1], ARGV[1])"

# KEYS[1] the line, KEYS[2..] the near lines (taken from once the line is due); ARGV[1] full,
# ARGV[2] due, ARGV[3] record prefix → the entries taken
_TAKE = """
local n = redis.call('LLEN', KEYS[1])
if n == 0 then return {} end
local k = tonumber(ARGV[1])
local got
if n >= k then
  got = redis.call('LRANGE', KEYS[1], 0, k - 1)
  redis.call('LTRIM', KEYS[1], k, -1)
else
  local head = cjson.decode(redis.call('LINDEX', KEYS[1], 0))
  if tonumber(head['since']) > tonumber(ARGV[2]) then return {} end
  got = redis.call('LRANGE', KEYS[1], 0, -1)
  redis.call('DEL', KEYS[1])
  local more = {}
  for i = 2, #KEYS do
    for _, e in ipairs(redis.call('LRANGE', KEYS[i], 0, k - n - 1)) do
      table.insert(more, {tonumber(cjson.decode(e)['since']), i, e})
    end
  end
  table.sort(more, function(a, b) return a[1] < b[1] end)
  for j = 1, math.min(#more, k - n) do
    redis.call('LREM', KEYS[more[j][2]], 1, more[j][3])
    table.insert(got, more[j][3])
  end
end
for _, e in ipairs(got) do
  local pid = cjson.decode(e)['pid']
  local rk = ARGV[3] .. pid
  local rec = redis.call('GET', rk)
  if rec and cjson.decode(rec)['entry'] == e then redis.call('DEL', rk) end
end
return got
"""


class RedisLines:
    def __init__(self, r: Any, node: str, push: Callable[[str, Mapping[str, Any]], int],
                 send: Callable[[str, dict[str, Any]], None]) -> None:
        self.r = r
        self.node = node
        self.push = push  # to this node's connections of a player
        self.send = send  # a bus message to another node

    async def add(self, line: str, entry: dict[str, Any]) -> None:
        text = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
        await self.r.eval(_ADD, 3, REC + entry["pid"], LINE + line, LINES, LINE, line, text)

    async def remove(self, pid: str) -> bool:
        return bool(await self.r.eval(_REMOVE, 1, REC + pid, LINE))

    async def take(self, line: str, full: int, due: float,
                   near: Sequence[str] = ()) -> list[dict[str, Any]]:
        keys = [LINE + n for n in (line, *near)]
        got = await self.r.eval(_TAKE, len(keys), *keys, full, repr(due), REC)
        return [json.loads(e) for e in got]

    async def peek(self, line: str) -> tuple[int, float | None]:
        async with self.r.pipeline(transaction=True) as p:
            n, head = await p.llen(LINE + line).lindex(LINE + line, 0).execute()
        return int(n), (float(json.loads(head)["since"]) if head else None)

    async def find(self, pid: str) -> dict[str, Any] | None:
        raw = await self.r.get(REC + pid)
        if raw is None:
            return None
        rec: dict[str, Any] = json.loads(raw)
        if "line" in rec:
            return {**json.loads(rec["entry"]), "line": rec["line"]}
        return rec

    async def note(self, pid: str, seated: Mapping[str, Any]) -> None:
        await self.remove(pid)
        await self.r.set(REC + pid, json.dumps({"seated": dict(seated)}), px=int(SEATED_KEEP * 1000))

    async def sizes(self) -> dict[str, int]:
        names = sorted(n.decode() if isinstance(n, bytes) else str(n)
                       for n in await self.r.smembers(LINES))
        if not names:
            return {}
        async with self.r.pipeline(transaction=False) as p:
            for n in names:
                p.llen(LINE + n)
            counts = await p.execute()
        return {n: int(c) for n, c in zip(names, counts, strict=True) if c}

    def tell(self, entry: Mapping[str, Any], msg: Mapping[str, Any]) -> None:
        """To the player's connections here, and on the node it waited on when that is
        another (it may have moved since: each connection gets it once)."""
        self.push(str(entry["pid"]), msg)
        node = str(entry.get("node") or "")
        if node and node != self.node:
            self.send(node, {"k": "qtell", "pid": entry["pid"], "msg": dict(msg)})
