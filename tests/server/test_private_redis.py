"""The private Redis the cluster tests use: started by the tests, on loopback, empty."""

from __future__ import annotations

import asyncio


def test_private_redis_roundtrip(redis_url: str) -> None:
    import redis.asyncio as aioredis

    async def go() -> tuple[object, object]:
        r = aioredis.from_url(redis_url)
        try:
            await r.set("laizi:probe", "1")
            return await r.get("laizi:probe"), await r.dbsize()
        finally:
            await r.aclose()

    got, size = asyncio.run(go())
    assert got == b"1"
    assert size == 1
