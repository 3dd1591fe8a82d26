"""Fuzz: at least 100,000 random and mutated frames over several WebSockets against a real
``laizi serve`` while control rooms play.

Frames: random binary, random text, JSON of the wrong shape, every message type with
wrong-typed or out-of-range fields, huge numbers, NaN/Infinity, deep nesting, oversized
frames, and well-formed commands (create/join/sit/bot/start/chat/...) with random
values. The control rooms' seated players (one human client and three server bots each)
mix valid-looking actions with a wrong seq, a wrong version or an illegal move into their
play. Must hold: the server never exits, its log has no traceback, every control room
finishes all its hands (matches of CONTROL_HANDS hands, one after another for as long as
the fuzzing lasts), and the server's RSS stays within ``RSS_GROWTH_MB`` (100 MB) of its
size at start (observed: 73 MB at start, at most 84 MB).

Every batch of 25 frames ends with a ping whose pong proves the server processed the
batch, so the count is of frames the server handled, not merely sent. The server runs
with ``--msg-rate 2000`` so the frames reach the parser instead of the per-socket
throttle (40 a second by default; test_http_limits covers that).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest

from laizi.server.common.protocol import PROTOCOL
from support.srvhelpers import LiveServer, tracebacks, viewed

websockets = pytest.importorskip("websockets")

pytestmark = [pytest.mark.slow, pytest.mark.timeout(420)]

FRAMES = int(os.environ.get("LAIZI_FUZZ_FRAMES", "100000"))
SOCKETS = 8
CONTROL_ROOMS = 2
CONTROL_HANDS = 6
RSS_GROWTH_MB = 100  # the server may grow this much over its idle size (a bound: runs grow far less)
TYPES = ["hello", "create", "join", "sit", "stand", "bot", "start", "action", "resync", "auto",
         "hints", "chat", "leave", "ping", "host", "kick", "ready", "continue", "rematch",
         "nope", "", "ACTION"]
ODD_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 3, 4, 2**31, 2**31 - 1, 2**63, -2**63, 10**29, 1e308, -1e308,
    0.5, 1e-300, "", "x", "A" * 300, "\u0000\u202e", "游客", [], [1, 2], {}, {"a": {"b": []}},
]
RAW_NUMBERS = ["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "9" * 400, "1" * 31, "-0",
               "0.0000000000000000000000001", "1E+2", "01", "1.", ".5", "0x10"]


# ----------------------------------------------------------------- frame generators
def deep(rng: random.Random) -> str:
    n = rng.choice([9, 50, 500, 1000, 3000, 4090])
    kind = rng.choice(["[]", "{}"])
    if kind == "[]":
        inner = "[" * n + "]" * n
    else:
        inner = '{"a":' * n + "1" + "}" * n
    if rng.random() < 0.5:
        return inner
    return json.dumps({"type": rng.choice(TYPES), "x": 0}).replace("0}", inner + "}")


def odd(rng: random.Random) -> Any:
    if rng.random() < 0.2:
        return {str(rng.randrange(5)): odd(rng) for _ in range(rng.randrange(3))}
    return rng.choice(ODD_VALUES)


def message(rng: random.Random) -> dict[str, Any]:
    t = rng.choice(TYPES)
    fields = {
        "hello": {"proto": PROTOCOL, "nickname": rng.choice(["fz", "", "x" * 40, 5, None])},
        "create": {"settings": {rng.choice(["claim_seconds", "turn_seconds", "rounds", "max_hands",
                                            "bot_delay", "preset", "options", "seed", "private",
                                            "rated", "continue_seconds", "auto_after_lapses",
                                            "zzz"]): odd(rng)}},
        "join": {"room": rng.choice(["ABCDE", "", "x" * 20, 5, "22222"]), "spectate": odd(rng)},
        "sit": {"seat": odd(rng)}, "bot": {"seat": odd(rng), "level": odd(rng)},
        "action": {"seq": odd(rng), "action": rng.choice([{"type": "discard", "tile": odd(rng)},
                                                          {"type": odd(rng)}, odd(rng)]),
                   "version": odd(rng)},
        "auto": {"on": odd(rng)}, "hints": {"on": odd(rng)}, "ready": {"on": odd(rng)},
        "rematch": {"force": odd(rng)},
        "chat": {rng.choice(["text", "phrase"]): odd(rng)}, "ping": {"t": odd(rng)},
    }.get(t, {})
    msg = {"type": t, **fields}
    if rng.random() < 0.2:
        msg[rng.choice(["extra", "type", "seq"])] = odd(rng)
    return msg


def frame(rng: random.Random) -> str | bytes:
    r = rng.random()
    if r < 0.08:
        return rng.randbytes(rng.randrange(0, 300))
    if r < 0.12:
        return b'{"type": "ping"}' if rng.random() < 0.5 else b"\xff\xfe\x00"
    if r < 0.20:
        return "".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(rng.randrange(0, 80)))
    if r < 0.28:
        return deep(rng)
    if r < 0.36:
        return json.dumps(message(rng)).replace(
            "0", rng.choice(RAW_NUMBERS), 1)  # NaN / Infinity / huge numbers in a field
    if r < 0.40:
        return json.dumps(odd(rng))
    if r < 0.42:
        return json.dumps({"type": "chat", "text": "x" * rng.choice([8200, 20_000])})
    if r < 0.4205:
        return "x" * 70_000  # over the WebSocket size limit: the server closes this socket
    text = json.dumps(message(rng))
    if rng.random() < 0.25 and text:  # mutate: cut, flip or duplicate a piece
        i = rng.randrange(len(text))
        text = rng.choice([text[:i], text[:i] + text[i + 1:], text[:i] + "\"" + text[i:],
                           text + text[i:]])
    return text


# ----------------------------------------------------------------- the fuzzing sockets
async def fuzz_socket(url: str, rng: random.Random, quota: int, counts: dict[str, int]) -> None:
    """Send ``quota`` frames in batches; each batch ends with a ping whose pong shows the
    server has processed the whole batch (frames lost to a closed socket do not count)."""
    done = 0
    batch_no = 0
    while done < quota:
        try:
            async with websockets.connect(url, max_size=2**24) as ws:
                counts["connections"] += 1
                pongs: asyncio.Queue[float] = asyncio.Queue()

                async def drain(pongs: asyncio.Queue[float] = pongs) -> None:
                    try:
                        async for raw in ws:
                            counts["received"] += 1
                            if isinstance(raw, str) and raw.startswith('{"type":"pong"'):
                                t = json.loads(raw).get("t")
                                if isinstance(t, int | float):
                                    pongs.put_nowait(t)
                    finally:
                        pongs.put_nowait(-1.0)  # closed: no pong is coming

                reader = asyncio.create_task(drain())
                if rng.random() < 0.8:
                    await ws.send(json.dumps({"type": "hello", "proto": PROTOCOL, "nickname": f"fz{rng.randrange(99)}"}))
                try:
                    while done < quota:
                        batch = [frame(rng) for _ in range(25)]
                        for f in batch:
                            await ws.send(f)
                        batch_no += 1
                        marker = float(batch_no)
                        await ws.send(json.dumps({"type": "ping", "t": marker}))
                        while True:
                            t = await asyncio.wait_for(pongs.get(), 30)
                            if t == marker:
                                break
                            if t == -1.0:
                                raise websockets.ConnectionClosedError(None, None)
                        done += len(batch)
                        counts["processed"] += len(batch)
                finally:
                    reader.cancel()
        except (websockets.ConnectionClosed, OSError, TimeoutError):
            counts["closed"] += 1
            await asyncio.sleep(0.02)


# ----------------------------------------------------------------- the control rooms
def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    for a in legal:
        if a["type"] in ("tsumo", "ron"):
            return a
    for a in legal:
        if a["type"] == "pass":
            return a
    discards = [a for a in legal if a["type"] == "discard"]
    return discards[-1] if discards else legal[0]


async def control_room(url: str, rng: random.Random, out: dict[str, Any],
                       stop: asyncio.Event) -> None:
    """Seat 0 is this client, 1-3 server bots: play matches of CONTROL_HANDS hands, one after
    another until the fuzzing stops, each to its end, slipping in mistakes: a stale or
    repeated seq, a wrong version, an illegal tile."""
    out.update(matches=0, acks=0, frames=0, errors={})
    async with websockets.connect(url, max_size=2**24) as ws:
        async def recv() -> dict[str, Any]:
            return dict(viewed(ws, json.loads(await asyncio.wait_for(ws.recv(), 60))))

        async def send(**msg: Any) -> None:
            await ws.send(json.dumps(msg))

        await send(type="hello", proto=PROTOCOL, nickname="control")
        seq = 0
        while out["matches"] == 0 or not stop.is_set():
            while True:  # a new room (retried if the server asks us to wait)
                await send(type="create", settings={"max_hands": CONTROL_HANDS, "rounds": 4,
                                                    "turn_seconds": 600, "claim_seconds": 120,
                                                    "continue_seconds": 0})
                m = await recv()
                while m["type"] not in ("joined", "error"):
                    m = await recv()
                if m["type"] == "joined":
                    break
                await asyncio.sleep(1.0)
            await send(type="sit", seat=0)
            for i in (1, 2, 3):
                await send(type="bot", seat=i, level="random")
            await send(type="start")
            seq = await play_match(recv, send, rng, out, seq)
            out["matches"] += 1


async def play_match(recv: Any, send: Any, rng: random.Random, out: dict[str, Any],
                     seq: int) -> int:
    acted_v, last_send = None, 0.0
    while True:
        m = await recv()
        if m["type"] == "room" and m["room"]["status"] == "finished":
            return seq
        if m["type"] == "error":
            out["errors"][m.get("code")] = out["errors"].get(m.get("code"), 0) + 1
            acted_v = None
            continue
        if m["type"] == "ack":
            out["acks"] += 1
            continue
        if m["type"] not in ("update", "snapshot"):
            continue
        out["frames"] += 1
        legal = m["view"].get("legal") or []
        if not legal or m["v"] == acted_v:
            continue
        await asyncio.sleep(max(0.0, last_send + 0.04 - time.monotonic()))
        last_send = time.monotonic()
        r = rng.random()
        if r < 0.05 and seq > 0:  # the last seq again (a duplicate) or an older one
            await send(type="action", seq=rng.randint(1, seq), action=choose(legal), version=m["v"])
        elif r < 0.10:  # a wrong version: refused, a snapshot follows
            await send(type="action", seq=seq + 1, action=choose(legal),
                       version=m["v"] + rng.choice([-1, 1, 999]))
            acted_v = m["v"]
            continue
        elif r < 0.15:  # an illegal move with the next seq: refused, the seq is not used up
            await send(type="action", seq=seq + 1, action={"type": "discard", "tile": 99},
                       version=m["v"])
        acted_v = m["v"]
        seq += 1
        await send(type="action", seq=seq, action=choose(legal), version=m["v"])


# ----------------------------------------------------------------- the test
def test_fuzz_frames_while_control_rooms_play(tmp_path: Path) -> None:
    srv = LiveServer.plain(tmp_path, args=["--bot-delay", "0", "--hand-pause", "0",
                                           "--msg-rate", "2000"]).start()
    try:
        time.sleep(1.0)
        rss0 = srv.rss_kb() / 1024
        bound = rss0 + RSS_GROWTH_MB
        rss: list[float] = []
        counts = {"processed": 0, "received": 0, "connections": 0, "closed": 0}
        controls: list[dict[str, Any]] = [{} for _ in range(CONTROL_ROOMS)]

        async def main() -> None:
            async def watch() -> None:
                while True:
                    rss.append(srv.rss_kb() / 1024)
                    assert srv.alive(), "the server exited"
                    await asyncio.sleep(0.5)

            watcher = asyncio.create_task(watch())
            rng = random.Random(20261130)
            stop = asyncio.Event()
            control = [asyncio.create_task(control_room(srv.ws_url, random.Random(i), controls[i],
                                                        stop)) for i in range(CONTROL_ROOMS)]
            fuzz = [fuzz_socket(srv.ws_url, random.Random(rng.random()), FRAMES // SOCKETS + 1,
                                counts) for _ in range(SOCKETS)]
            try:
                await asyncio.wait_for(asyncio.gather(*fuzz), 300)
                stop.set()
                await asyncio.wait_for(asyncio.gather(*control), 90)
            finally:
                watcher.cancel()
                for task in control:
                    task.cancel()

        t0 = time.perf_counter()
        asyncio.run(main())
        elapsed = time.perf_counter() - t0
        assert srv.alive()
        status, _, health = srv.request("GET", "/healthz")
        assert status == 200
        log = srv.log_text()
        print(f"fuzz: {counts['processed']} frames processed in {elapsed:.1f} s over {counts['connections']} "
              f"connections ({counts['closed']} closed by the server), {counts['received']} "
              f"answers; RSS {rss0:.0f} MB at start, max {max(rss):.0f} MB (bound {bound:.0f}); "
              f"control rooms: {controls}")
        assert counts["processed"] >= FRAMES
        assert tracebacks(log) == 0, log[-5000:]
        assert "Exception" not in log and "Error" not in log.replace("error", ""), log[-3000:]
        for c in controls:  # every match a control room started was played to its end
            assert c["matches"] >= 1 and c["acks"] >= 50 * c["matches"], c
        assert max(rss) < bound, (rss0, max(rss))
    finally:
        srv.stop()
