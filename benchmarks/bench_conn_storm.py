"""A reconnect storm: every client of a ``laizi serve`` drops at once and comes back.

A node restarted behind a load balancer, a network blip, a phone network waking up: every
client of a node reconnects within seconds. What the server pays per connection in such a
storm should not grow with how many connections it holds. This benchmark measures it:

1. ``--levels`` room counts, four clients per room (picows, as ``bench_server.py``), each
   a player of its own who says hello and joins its room (one creates it);
2. all of them close at once: the server's CPU until it counts no connection (the
   **drop**);
3. all of them come back at once, as the same players (their tokens), and join their
   rooms again: the server's CPU until the last is in (the **return**).

Before the drop, while every room is open, it also asks for the public room list
(``GET /api/rooms``, as every lobby page does every 5 s) :data:`LIST_GETS` times: the
server's CPU per request (the **list**).

It prints the server's CPU per connection in each phase at each level, and their growth
from the smallest level to the largest (1.0: linear; a pass over every connection at
each one makes it grow as the level does). ``--ref-src DIR`` also measures a server run
from another checkout's ``src`` (``git worktree add /tmp/ref <commit>``) in the same run,
level by level, alternating — the A/B of a change.

    python benchmarks/bench_conn_storm.py --levels 125,1000 --ref-src /tmp/ref/src --json
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import json
import os
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_server import BotClient, Stats, cpu_seconds, free_port, server_stats, start_server  # noqa: E402
from benchsvc import stop  # noqa: E402

PARALLEL = 200  # clients opening at once (set-up and return)
LIST_GETS = 300  # GET /api/rooms asked (four at a time) while every room is open


async def _storm(url: str, rooms: int, pid: int) -> dict[str, Any]:
    stats = Stats()
    sem = asyncio.Semaphore(PARALLEL)
    clients: list[list[BotClient]] = []
    codes: list[str] = []
    tokens: dict[int, str] = {}

    async def setup(r: int) -> None:
        async with sem:
            cs = [BotClient(url, f"s{r}p{i}", "random", r * 4 + i, 0.0, stats) for i in range(4)]
            for c in cs:
                tokens[id(c)] = await c.open()
            await cs[0].send({"type": "create", "settings": {"rounds": 1}})
            code = (await cs[0].wait(lambda m: m["type"] == "joined"))["room"]["code"]
            for c in cs[1:]:
                await c.send({"type": "join", "room": code})
                await c.wait(lambda m: m["type"] == "joined")
            clients.append(cs)
            codes.append(code)

    t0 = time.perf_counter()
    await asyncio.gather(*(setup(r) for r in range(rooms)))
    setup_s = time.perf_counter() - t0
    n = rooms * 4
    if server_stats(url).get("connections") != n:
        raise RuntimeError("the server does not count every client")

    # The room list, as the lobby pages ask for it (every 5 s each), while every room is open.
    http = url.replace("ws://", "http://", 1).rsplit("/ws", 1)[0] + "/api/rooms"

    def get_list(_: int) -> int:
        with urllib.request.urlopen(http, timeout=30) as r:
            return len(json.loads(r.read())["rooms"])

    loop = asyncio.get_running_loop()
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        c0 = cpu_seconds(pid) or 0.0
        listed = await asyncio.gather(*(loop.run_in_executor(pool, get_list, i) for i in range(LIST_GETS)))
        list_cpu = (cpu_seconds(pid) or 0.0) - c0

    # The drop: every socket closed at once.
    c0 = cpu_seconds(pid) or 0.0
    t0 = time.perf_counter()
    for cs in clients:
        for c in cs:
            c.ws.disconnect()

    def gone() -> bool:
        return server_stats(url).get("connections") == 0

    # (polled over HTTP in a thread: the poll must not wait for the client loop)
    t_end = time.monotonic() + 300
    while not await loop.run_in_executor(None, gone):
        if time.monotonic() > t_end:
            raise RuntimeError("the server kept connections after the drop")
        await asyncio.sleep(0.05)
    drop_s = time.perf_counter() - t0
    drop_cpu = (cpu_seconds(pid) or 0.0) - c0

    # The return: every player back at once, into its room.
    back = 0

    async def come_back(cs: list[BotClient], code: str) -> None:
        nonlocal back
        async with sem:
            for c in cs:
                c.ws = None
                await c.open(tokens[id(c)])
                await c.send({"type": "join", "room": code})
                await c.wait(lambda m: m["type"] == "joined")
                back += 1

    c0 = cpu_seconds(pid) or 0.0
    t0 = time.perf_counter()
    await asyncio.gather(*(come_back(cs, code) for cs, code in zip(clients, codes, strict=True)))
    return_s = time.perf_counter() - t0
    return_cpu = (cpu_seconds(pid) or 0.0) - c0
    for cs in clients:
        for c in cs:
            await c.close()
    return {"rooms": rooms, "connections": n, "setup_s": round(setup_s, 1),
            "drop_s": round(drop_s, 2), "drop_cpu_ms_per_conn": round(1000 * drop_cpu / n, 3),
            "return_s": round(return_s, 2), "return_cpu_ms_per_conn": round(1000 * return_cpu / n, 3),
            "back": back, "errors": dict(stats.errors),
            "listed": min(listed), "list_cpu_ms_per_request": round(1000 * list_cpu / LIST_GETS, 3)}


def measure(rooms: int, src: str | None) -> dict[str, Any]:
    """One level on a fresh server (SQLite in a temporary directory); ``src``: the server's
    code from there (PYTHONPATH), else this checkout's."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="laizi-storm-") as tmp:
        old = os.environ.get("PYTHONPATH")
        if src:
            os.environ["PYTHONPATH"] = src
        try:
            proc = start_server(port, f"sqlite:///{tmp}/storm.db")
        finally:
            if old is None:
                os.environ.pop("PYTHONPATH", None)
            else:
                os.environ["PYTHONPATH"] = old
        try:
            try:
                import uvloop

                res = uvloop.run(_storm(f"ws://127.0.0.1:{port}/ws", rooms, proc.pid))
            except ImportError:
                res = asyncio.run(_storm(f"ws://127.0.0.1:{port}/ws", rooms, proc.pid))
        finally:
            stop(proc)
    res["server"] = src or "this checkout"
    return dict(res)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--levels", default="125,1000", help="room counts (four clients each)")
    ap.add_argument("--ref-src", default=None,
                    help="also measure a server from this src directory (another checkout's)")
    ap.add_argument("--json", action="store_true", help="print JSON lines only")
    args = ap.parse_args(argv)
    try:
        levels = [int(x) for x in args.levels.split(",")]
        if not levels or min(levels) < 1:
            raise ValueError
    except ValueError:
        ap.error("--levels: room counts, e.g. 125,1000")
    if args.ref_src is not None and not (Path(args.ref_src) / "laizi" / "__init__.py").is_file():
        ap.error(f"--ref-src: no laizi package in {args.ref_src}")
    sides = [None] if args.ref_src is None else [None, args.ref_src]
    rows: dict[str | None, list[dict[str, Any]]] = {s: [] for s in sides}
    for rooms in levels:
        for side in sides:
            res = measure(rooms, side)
            rows[side].append(res)
            if args.json:
                print(json.dumps(res), flush=True)
            else:
                print(f"{res['server']}: {rooms} rooms, {res['connections']} connections: list "
                      f"{res['list_cpu_ms_per_request']} ms CPU/request, drop "
                      f"{res['drop_cpu_ms_per_conn']} ms CPU/connection ({res['drop_s']} s), return "
                      f"{res['return_cpu_ms_per_conn']} ms CPU/connection ({res['return_s']} s)", flush=True)
    for side in sides:
        lo, hi = rows[side][0], rows[side][-1]
        growth = {ph: round(hi[f"{ph}_cpu_ms_per_conn"] / max(lo[f"{ph}_cpu_ms_per_conn"], 1e-9), 2)
                  for ph in ("drop", "return")}
        summary = {"server": side or "this checkout", "from_connections": lo["connections"],
                   "to_connections": hi["connections"], "growth_per_connection": growth}
        print(json.dumps(summary) if args.json else
              f"{summary['server']}: CPU per connection from {lo['connections']} to {hi['connections']} "
              f"connections: drop x{growth['drop']}, return x{growth['return']}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
