"""The bus between nodes on a real Redis: a node receives only what is addressed to it, in
order, and every message survives the wire format (frames are not quoted twice)."""

from __future__ import annotations

import asyncio
import json
import time
import zlib
from typing import Any

import pytest

pytest.importorskip("redis")

from laizi.server.cluster.bus import (
    RS,
    BadBatch,
    Bus,
    channel,
    decode,
    encode,
    sign,
    sign_zipped,
    verify,
)

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


def _frame(i: int) -> str:
    """A frame-like text (a room's seats share most of it), ~1 KB."""
    return json.dumps({"type": "update", "v": i, "p": [[0, "river", 2, ["1m", "5p", "红中"]]] * 12,
                       "e": [{"k": "discard", "seat": i % 4, "tile": "东"}]}, ensure_ascii=False)


def test_a_compressed_batch_round_trips_and_is_checked_before_it_is_inflated(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from laizi.server.cluster import bus

    key = b"k" * 40
    text = RS.join(encode({"k": "out", "n": "a", "c": c, "t": _frame(c)}) for c in range(4))
    data = sign_zipped(key, channel("b"), "a", "boot1z", 7, text, now_ms=5_000)
    assert len(data) * 3 < len(text.encode())  # (the seats' frames share most of their text)
    assert verify(key, channel("b"), data) == ("a", "boot1z", 7, 5.0, text)
    with pytest.raises(ValueError, match="bad signature"):  # another key: refused, not inflated
        verify(b"x" * 40, channel("b"), data)
    with pytest.raises(ValueError, match="bad signature"):  # meant for another node
        verify(key, channel("c"), data)
    tampered = bytearray(data)
    tampered[-5] ^= 1
    with pytest.raises(ValueError, match="bad signature"):
        verify(key, channel("b"), bytes(tampered))
    # Signed but unreadable (a node's bug, or a bomb): BadBatch, a ValueError of its own.
    empty = sign(key, channel("b"), "a", "boot1z", 8, "").encode()  # (its header, to reuse)
    head = empty.split(b"\x1d", 1)[1]
    broken = head + b"\x1c" + zlib.compress(text.encode())[:-9]
    with pytest.raises(BadBatch, match="cut short"):
        verify(key, channel("b"), _resign(key, "b", broken))
    monkeypatch.setattr(bus, "MAX_BATCH", 1000)
    with pytest.raises(BadBatch, match="above 1000 bytes"):
        verify(key, channel("b"), data)


def _resign(key: bytes, node: str, signed: bytes) -> bytes:
    import hashlib
    import hmac

    mac = hmac.new(key, channel(node).encode() + b"\x1d" + signed, hashlib.sha256).hexdigest()
    return mac.encode() + b"\x1d" + signed


def test_batches_go_compressed_only_to_nodes_that_read_them(redis_url: str) -> None:
    """On a real Redis: node a compresses its large batches to b once it has heard from b's
    current boot (its id ends in "z"), never before, never its small ones, and never to c,
    a node of an older release (a boot id without the "z"); every message arrives whole and
    in order either way."""
    import redis.asyncio as aioredis

    async def run() -> None:
        r = aioredis.from_url(redis_url)
        spy = r.pubsub()
        await spy.subscribe(channel("b"), channel("c"))
        got: dict[str, list[dict[str, Any]]] = {"a": [], "b": [], "c": []}
        buses = {n: Bus(r, n, got[n].append) for n in got}
        buses["c"].boot = "0123456789abcdef"  # an older node: no "z", and it never compresses
        buses["c"].zip_min = None
        for b in buses.values():
            await b.start()
        seen: list[tuple[str, bool]] = []  # (channel, compressed) of each publish, as Redis carried it

        async def spying() -> None:
            while True:
                m = await spy.get_message(timeout=0.05)
                if m and m["type"] == "message":
                    body = m["data"].split(b"\x1d", 5)[5]
                    seen.append((m["channel"].decode(), body[:1] == b"\x1c"))

        watcher = asyncio.create_task(spying())
        a = buses["a"]
        try:
            def burst(to: str, start: int) -> None:
                for i in range(start, start + 4):
                    a.send(to, {"k": "out", "c": i, "t": _frame(i)})

            async def until(cond: Any) -> None:
                end = time.monotonic() + 15
                while time.monotonic() < end and not cond():
                    await asyncio.sleep(0.02)
                assert cond()

            burst("b", 0)  # a has not heard from b yet: text
            burst("c", 0)
            await until(lambda: len(got["b"]) == 4 and len(got["c"]) == 4 and len(seen) == 2)
            buses["b"].send("a", {"k": "gone", "c": 1})
            buses["c"].send("a", {"k": "gone", "c": 2})
            await until(lambda: len(got["a"]) == 2)
            burst("b", 4)  # now compressed to b, still text to c
            await until(lambda: len(got["b"]) == 8 and len(seen) == 3)
            burst("c", 4)
            a.send("b", {"k": "gone", "c": 99})  # a small batch: text
            await until(lambda: len(got["b"]) == 9 and len(got["c"]) == 8 and len(seen) == 5)
            assert seen == [("laizi:node:b", False), ("laizi:node:c", False), ("laizi:node:b", True),
                            ("laizi:node:c", False), ("laizi:node:b", False)]
            for n in ("b", "c"):
                frames = [m for m in got[n] if m["k"] == "out"]
                assert [m["c"] for m in frames] == list(range(8))
                assert all(m["t"] == _frame(m["c"]) for m in frames)
            assert a.stats["bus_zipped"] == 1 and buses["b"].stats["bus_refused"] == 0
            assert a.stats["bus_bytes_out"] < a.stats["bus_text_bytes_out"]
        finally:
            watcher.cancel()
            await spy.aclose()
            for b in buses.values():
                await b.stop()
            await r.aclose()

    asyncio.run(run())
