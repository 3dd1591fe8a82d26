"""The bus between nodes on a real Redis: a node receives only what is addressed to it, in
order, and every message survives the wire format (frames are not quoted twice)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

pytest.importorskip("redis")

from laizi.server.cluster.bus import Bus, decode, encode

MESSAGES: list[dict[str, Any]] = [
    {"k": "out", "n": "a", "c": 3, "t": json.dumps({"type": "chat", "text": "胡了\x1f\x1e"})},
    {"k": "join", "n": "a", "c": 3, "room": "ABCDE", "spec": False, "p": "p_1",
     "nick": "玩家\x1e", "peer": "10.0.0.1"},
    {"k": "in", "n": "a", "c": 1, "room": "ABCDE", "m": '{"type":"resync"}'},
    {"k": "take", "n": "a", "room": "ABCDE"},
    {"k": "gone", "n": "b", "c": 7},
]


def test_the_wire_format_round_trips() -> None:
    for m in MESSAGES:
        want = {**m, "room": m.get("room", "")}
        assert decode(encode(dict(m))) == want


def test_each_node_gets_only_its_messages_in_order(redis_url: str) -> None:
    import redis.asyncio as aioredis

    async def run() -> None:
        r = aioredis.from_url(redis_url)
        got: dict[str, list[dict[str, Any]]] = {"a": [], "b": [], "c": []}
        buses = {n: Bus(r, n, got[n].append) for n in got}
        for b in buses.values():
            await b.start()
        try:
            for i in range(300):
                buses["a"].send("b", {"k": "out", "c": i, "t": f'{{"i":{i}}}'})
                if i % 3 == 0:
                    buses["b"].send("a", {"k": "gone", "c": i})
                    await asyncio.sleep(0)
            end = time.monotonic() + 15  # (400 messages through Redis: 2 s was close on a busy machine)
            while time.monotonic() < end and not (len(got["b"]) == 300 and len(got["a"]) == 100):
                await asyncio.sleep(0.02)
            assert [m["c"] for m in got["b"]] == list(range(300))
            assert all(m["n"] == "a" and json.loads(m["t"])["i"] == m["c"] for m in got["b"])
            assert [m["c"] for m in got["a"]] == list(range(0, 300, 3))
            assert got["c"] == []  # nothing addressed to c: nothing received
            assert buses["a"].stats["routed_out"] == 300 and buses["b"].stats["routed_in"] == 300
        finally:
            for b in buses.values():
                await b.stop()
            await r.aclose()

    asyncio.run(run())
