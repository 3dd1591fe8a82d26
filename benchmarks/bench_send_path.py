"""What one outgoing table frame costs the server on its way to the socket (issue 24): the
queued ASGI path (a queue, the connection's sender task, Starlette's and uvicorn's ``send``)
against the direct write (:mod:`laizi.server.net.wsdirect`), in one run.

    python benchmarks/bench_send_path.py --rooms 100 --rounds 3 --json

A uvicorn server (``websockets-sansio``, as ``laizi serve``) runs in a child process with a
WebSocket endpoint that wraps each socket in the server's own
:class:`~laizi.server.common.connection.Conn`, with or without its direct writer (as
:func:`laizi.server.net.handlers.serve_ws` does). ``--rooms`` groups of four clients
(``picows``, in this process) take turns: a client sends a message, and the server answers
it as a table answers an action: a frame of ``--frame-bytes`` to each of the group's four
sockets and an ``ack`` to the sender. Reported: the server's CPU (its process time, read
from ``/proc``) per message and per frame, with the direct writer on and off, alternating
``--rounds`` times; the last line is the ratio of the medians (direct / queued).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from typing import Any

_SERVER = r'''
import asyncio, sys
import uvicorn
from starlette.applications import Starlette
from starlette.routing import Route, WebSocketRoute
from starlette.responses import PlainTextResponse
from laizi.server.common.connection import Conn
from laizi.server.net.wsdirect import direct_writer

port, direct, size = int(sys.argv[1]), sys.argv[2] == "1", int(sys.argv[3])
groups = {}
FRAME = '{"type":"update","v":%d,"pad":"' + "x" * size + '"}'
counts = {"direct": 0}

async def endpoint(ws):
    await ws.accept()
    conn = Conn(ws)
    if direct:
        conn.direct = direct_writer(getattr(ws, "_send", None))
        counts["direct"] += conn.direct is not None
    sender = asyncio.ensure_future(conn.sender())
    group = None
    try:
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            text = msg.get("text") or ""
            if text.startswith("g"):
                group = groups.setdefault(text, [])
                group.append(conn)
                conn.send('{"type":"joined"}')
                continue
            n = int(text)
            for c in group:
                c.send(FRAME % n)
            conn.send('{"type":"ack","seq":%d}' % n)
    finally:
        conn.close()
        await asyncio.wait_for(sender, 2)

async def health(request):
    return PlainTextResponse(str(counts["direct"]))

app = Starlette(routes=[Route("/h", health), WebSocketRoute("/ws", endpoint)])
uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio")
'''


def _cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as fh:
        f = fh.read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _play(port: int, rooms: int, messages: int) -> tuple[float, int]:
    from picows import WSListener, WSMsgType, ws_connect

    class L(WSListener):  # type: ignore[misc]
        def __init__(self) -> None:
            self.got = 0
            self.acked: asyncio.Future[None] | None = None
            self.joined = asyncio.get_running_loop().create_future()

        def on_ws_frame(self, transport: Any, frame: Any) -> None:
            if frame.msg_type != WSMsgType.TEXT:
                return
            self.got += 1
            data = frame.get_payload_as_bytes()
            if data.startswith(b'{"type":"joined"'):
                self.joined.set_result(None)
            elif data.startswith(b'{"type":"ack"') and self.acked is not None:
                self.acked.set_result(None)

    url = f"ws://127.0.0.1:{port}/ws"
    clients = []
    for r in range(rooms):
        for _ in range(4):
            tr, lis = await ws_connect(L, url)
            tr.send(WSMsgType.TEXT, f"g{r}".encode())
            await lis.joined
            clients.append((tr, lis))

    async def room(r: int) -> None:
        for i in range(messages):
            tr, lis = clients[r * 4 + i % 4]
            lis.acked = asyncio.get_running_loop().create_future()
            tr.send(WSMsgType.TEXT, str(i).encode())
            await lis.acked

    t0 = time.perf_counter()
    await asyncio.gather(*(room(r) for r in range(rooms)))
    dt = time.perf_counter() - t0
    got = sum(lis.got for _, lis in clients)
    for tr, _ in clients:
        tr.disconnect()
    return dt, got


def measure(direct: bool, rooms: int, messages: int, size: int) -> dict[str, Any]:
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-c", _SERVER, str(port), "1" if direct else "0",
                             str(size)])
    try:
        deadline = time.time() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/h", timeout=1):
                    break
            except OSError:
                if time.time() > deadline or proc.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.05)
        asyncio.run(_play(port, rooms, 20))  # warm up (connections, first frames)
        c0 = _cpu(proc.pid)
        dt, got = asyncio.run(_play(port, rooms, messages))
        cpu = _cpu(proc.pid) - c0
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/h", timeout=5) as r:
            direct_conns = int(r.read())
    finally:
        proc.terminate()
        proc.wait(10)
    n = rooms * messages
    expected = n * 5 + rooms * 4  # four frames and an ack per message, a "joined" per client
    return {"direct": direct, "rooms": rooms, "messages": n, "frames": n * 5,
            "frames_received": got, "complete": got == expected, "direct_conns": direct_conns,
            "seconds": round(dt, 2), "server_cpu_s": round(cpu, 2),
            "server_us_per_message": round(cpu / n * 1e6, 1),
            "server_us_per_frame": round(cpu / (n * 5) * 1e6, 2), "frame_bytes": size}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rooms", type=int, default=100)
    ap.add_argument("--messages", type=int, default=300, help="messages per room and side")
    ap.add_argument("--frame-bytes", type=int, default=250,
                    help="padding of each frame (a compact update is ~100-500 B)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", action="store_true", help="JSON lines only")
    args = ap.parse_args()
    runs: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(args.rounds):
        for direct in (False, True):
            out = measure(direct, args.rooms, args.messages, args.frame_bytes)
            out["load_average"] = os.getloadavg()[0]
            runs[direct].append(out["server_us_per_message"])
            print(json.dumps(out) if args.json else
                  f"{'direct' if direct else 'queued'}: {out['server_us_per_message']} us per "
                  f"message, {out['server_us_per_frame']} us per frame "
                  f"(complete: {out['complete']})", flush=True)
    ratio = statistics.median(runs[True]) / statistics.median(runs[False])
    summary = {"median_us_per_message": {"queued": statistics.median(runs[False]),
                                         "direct": statistics.median(runs[True])},
               "ratio_direct_over_queued": round(ratio, 3), "cores": os.cpu_count(),
               "command": " ".join(["python", *sys.argv])}
    print(json.dumps(summary) if args.json else f"direct / queued: {ratio:.3f}")


if __name__ == "__main__":
    main()
