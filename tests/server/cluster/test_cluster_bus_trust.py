"""The bus trusts only what the cluster key signed (issue: anyone who reached Redis could
speak as any player). On a real, password-protected Redis: a forged unsigned message, one
signed with another key, one replayed, one meant for another node and one whose inner
messages name another sender are refused and logged; the genuine ones go through. And a
node does not start with the wrong Redis password or without a cluster key: one line."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("redis")

from laizi.server.cluster.bus import Bus, channel, cluster_key, encode, sign

KEY = cluster_key()


def test_forged_unsigned_and_replayed_messages_are_refused(redis_url: str,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    import redis.asyncio as aioredis

    async def run() -> None:
        r = aioredis.from_url(redis_url)
        spy = r.pubsub()
        await spy.subscribe(channel("b"))
        got: list[dict[str, Any]] = []
        a = Bus(r, "a", lambda m: None)
        b = Bus(r, "b", got.append)
        await a.start()
        await b.start()
        try:
            a.send("b", {"k": "gone", "c": 1})
            captured = None
            for _ in range(200):
                msg = await spy.get_message(timeout=0.05)
                if msg and msg["type"] == "message":
                    captured = msg["data"]
                    break
            assert captured is not None
            await _until(lambda: len(got) == 1)
            join = {"k": "join", "n": "a", "c": 9, "room": "ABCDE", "spec": False,
                    "p": "p_victim", "nick": "x", "peer": "1.2.3.4"}
            forged = [
                encode(dict(join)),                                          # unsigned
                sign(b"k" * 40, channel("b"), "a", "f00", 99, encode(dict(join))),  # another key
                captured,                                                    # replayed
                sign(KEY, channel("c"), "a", a.boot, 10_000, encode(dict(join))),  # for node c
                sign(KEY, channel("b"), "z", "f00", 1, encode(dict(join))),  # inner says "a"
                sign(KEY, channel("b"), "a", a.boot, 20_000, encode(dict(join)),
                     now_ms=1_000),                                          # signed long ago
            ]
            for data in forged:
                await r.publish(channel("b"), data)
            a.send("b", {"k": "gone", "c": 2})  # a genuine one after them still goes through
            await _until(lambda: len(got) == 2 and b.stats["bus_refused"] == len(forged))
            assert [m["c"] for m in got] == [1, 2] and all(m["k"] == "gone" for m in got)
        finally:
            await spy.aclose()
            await a.stop()
            await b.stop()
            await r.aclose()

    with caplog.at_level(logging.WARNING, logger="laizi.server"):
        asyncio.run(run())
    refused = [r.getMessage() for r in caplog.records if "bus message refused" in r.getMessage()]
    assert len(refused) == 6
    assert any("not signed with the cluster key" in m for m in refused)
    assert any("replayed" in m for m in refused)
    assert any("another sender" in m for m in refused)
    assert any("ago" in m for m in refused)


async def _until(pred: Any, timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not pred():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.02)


def _serve(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "laizi", "serve", "--port", "1", *args],
                          capture_output=True, text=True, timeout=60, env=env)


def test_a_node_does_not_start_with_a_wrong_redis_password_or_no_key(
        redis_url: str, tmp_path: Path) -> None:
    wrong = redis_url.replace("redis://:", "redis://:x", 1)
    env = {**os.environ}
    common = ["--db", "postgresql://nobody@127.0.0.1:1/none", "--node", "n1"]
    res = _serve([*common, "--redis", wrong], env)
    assert res.returncode == 2, res.stdout + res.stderr
    out = (res.stdout + res.stderr).strip().splitlines()
    assert len(out) == 1 and "refused the password" in out[0] and "Traceback" not in res.stderr
    assert wrong.split("@")[0] not in out[0]  # the password is never printed
    no_pw = "redis://" + redis_url.split("@", 1)[1]
    res = _serve([*common, "--redis", no_pw], env)
    assert res.returncode == 2 and "needs a password" in res.stdout, res.stdout + res.stderr
    del env["LAIZI_CLUSTER_KEY"]
    res = _serve([*common, "--redis", redis_url], env)
    assert res.returncode == 2 and "LAIZI_CLUSTER_KEY" in res.stdout, res.stdout + res.stderr
    keyfile = tmp_path / "key"
    keyfile.write_text("short\n")
    res = _serve([*common, "--redis", redis_url, "--cluster-key-file", str(keyfile)], env)
    assert res.returncode == 2 and "too short" in res.stdout, res.stdout + res.stderr
