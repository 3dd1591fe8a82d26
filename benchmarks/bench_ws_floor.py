"""The network stack's own floor: server CPU per action of a table that does nothing.

    python benchmarks/bench_ws_floor.py --rooms 500,1000 --seconds 20
    python benchmarks/bench_ws_floor.py --rooms 500 --frame-bytes 150 --json
    python benchmarks/bench_ws_floor.py --table none,lean,views --server --rooms 500,1000

Issue 24 asks ``laizi serve`` for at most 0.35 ms of server CPU per action at the limit and
1,000 rooms at p99 < 100 ms. This measures what the stack alone costs at that pace, with no
game in it: the same uvicorn (``websockets-sansio``, uvloop, ``ws_max_size`` as ``laizi
serve``), Starlette's ``WebSocket.receive`` loop as the real handler runs it, orjson parsing,
and the frames written straight to the transport (``laizi.server.net.wsdirect``, as the real
server writes them). Each "action" is what one action of the real server is on the wire:
one message in; ``--frames`` frames out (5 by default: an update to each of the room's four
connections and an ``ack`` to the actor; more updates go round the table again, and
``laizi serve`` sends ~6.2–6.7 per action in ``bench_server.py``'s play), ``--frame-bytes``
of padding each (its steady play: ~735 bytes per action). No move, no view, no database, no
timers. ``--server`` measures ``laizi serve`` at each level in the same run.

The load is the real benchmark's (``bench_server.py``): ``--rooms`` rooms of four picows
clients in one process, the seat to move sends after ``--think`` seconds, the round trip
is measured from sending to its ``ack``. Reported per level: actions per second, p50/p99,
and the server process's CPU (user + system, ``/proc``) per action over the window after
every room has started. A floor above the bar means the bar is not reachable on this stack,
whatever the table's own code costs.

``--table lean`` puts a real table on the same stack, with no view (``ws_floor_lean.py``):
each room plays a real match, writes one journal row per action through the real writer on a
private PostgreSQL (started here; its CPU per action reported too), and sends each seat only
the events it may see. ``--table views`` adds each seat's view patch as ``laizi serve`` builds
it. Several tables, comma-separated, are measured one after the other at each level.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

SERVER_CODE = r"""
import sys, orjson, uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from laizi.server.net.wsdirect import direct_writer

FRAME = b"x" * int(sys.argv[2])
UPDATES = int(sys.argv[3])
ROOMS: dict[str, list] = {}

async def ws_endpoint(ws):
    await ws.accept()
    room = ws.query_params["room"]
    w = direct_writer(ws._send)
    assert w is not None, "not websockets-sansio"
    members = ROOMS.setdefault(room, [])
    members.append(w)
    while True:
        msg = await ws.receive()
        if msg["type"] == "websocket.disconnect":
            break
        m = orjson.loads(msg.get("text") or msg.get("bytes"))
        turn = (m["seat"] + 1) % 4
        v = m["v"] + 1
        for i in range(UPDATES):  # each member once, more round the table when UPDATES > 4
            members[i % len(members)](orjson.dumps(
                {"type": "update", "v": v, "turn": turn if i < len(members) else -1,
                 "pad": FRAME.decode()}).decode())
        w(orjson.dumps({"type": "ack", "seq": m["seq"], "v": v}).decode())
    members.remove(w)

app = Starlette(routes=[WebSocketRoute("/ws", ws_endpoint)])
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
            ws="websockets-sansio", ws_max_size=64 * 1024, ws_per_message_deflate=False)
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cpu_s(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _level(port: int, pid: int, rooms: int, seconds: float, think: float,
                 kick: bool = True, db_cpu: Callable[[], float | None] | None = None) -> dict[str, Any]:
    import picows

    rtts: list[float] = []
    state = {"acks": 0, "frames": 0, "measuring": False, "stop": False, "pending": 0, "errors": 0}

    class Seat(picows.WSListener):  # type: ignore[misc]
        def __init__(self, room: int, seat: int) -> None:
            self.room, self.seat, self.seq, self.sent = room, seat, 0, 0.0
            self.t: Any = None

        def on_ws_connected(self, transport: Any) -> None:
            self.t = transport

        def on_ws_frame(self, transport: Any, frame: Any) -> None:
            if frame.msg_type != picows.WSMsgType.TEXT:
                return
            m = json.loads(frame.get_payload_as_bytes())
            state["frames"] += 1
            if m["type"] == "ack":
                state["acks"] += 1
                state["pending"] -= 1
                state["errors"] += "error" in m
                if state["measuring"]:
                    rtts.append(time.perf_counter() - self.sent)
            elif m["turn"] == self.seat:
                loop.call_later(think * random.uniform(0.8, 1.2), self.act, m["v"])

        def act(self, v: int) -> None:
            if state["stop"]:
                return
            state["pending"] += 1
            self.seq += 1
            self.sent = time.perf_counter()
            self.t.send(picows.WSMsgType.TEXT,
                        json.dumps({"type": "play", "seat": self.seat, "seq": self.seq, "v": v}).encode())

    loop = asyncio.get_running_loop()
    seats: list[Seat] = []
    for r in range(rooms):
        for s in range(4):
            seat = Seat(r, s)
            await picows.ws_connect(lambda seat=seat: seat, f"ws://127.0.0.1:{port}/ws?room={r}",
                                    websocket_handshake_timeout=30)
            seats.append(seat)
    if kick:  # each room's first move, spread over one think (a lean room deals, and tells its dealer)
        for r in range(rooms):
            loop.call_later(random.uniform(0, think), seats[4 * r].act, 0)
    await asyncio.sleep(think * 3)  # every room started and in its stride
    state["measuring"] = True
    a0, c0, t0 = state["acks"], _cpu_s(pid), time.perf_counter()
    d0 = db_cpu() if db_cpu else None
    await asyncio.sleep(seconds)
    a1, c1, t1 = state["acks"], _cpu_s(pid), time.perf_counter()
    d1 = db_cpu() if db_cpu else None
    state["measuring"] = False
    state["stop"] = True  # no new actions; the frames of those in flight are let arrive
    end, seen = time.monotonic() + 10, -1
    while time.monotonic() < end and (state["pending"] > 0 or seen != state["frames"]):
        seen = state["frames"]
        await asyncio.sleep(0.1)
    for s in seats:
        s.t.disconnect()
    n = a1 - a0
    qs = statistics.quantiles(rtts, n=100) if len(rtts) > 100 else [float("nan")] * 99
    return {"rooms": rooms, "actions": n, "errors": state["errors"], "actions_per_s": round(n / (t1 - t0), 1),
            "frames_per_action": round(state["frames"] / max(1, state["acks"]), 2),  # all the run's
            "p50_ms": round(qs[49] * 1000, 1), "p99_ms": round(qs[98] * 1000, 1),
            "server_cpu_ms_per_action": round((c1 - c0) * 1000 / max(1, n), 3)} | (
        {"pg_cpu_ms_per_action": round((d1 - d0) * 1000 / max(1, n), 3)}
        if d0 is not None and d1 is not None else {})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rooms", default="500,1000", help="room counts, comma-separated")
    ap.add_argument("--seconds", type=float, default=20.0, help="the measured window per level")
    ap.add_argument("--think", type=float, default=0.5, help="seconds before a seat moves")
    ap.add_argument("--frame-bytes", type=int, default=130,
                    help="padding of each update frame (the real steady play: ~735 B per action)")
    ap.add_argument("--frames", type=int, default=5,
                    help="frames sent per action, the ack included (5: one update to each seat; "
                         "`laizi serve` sends ~6.7 in bench_server's play: its frames_direct)")
    ap.add_argument("--server", action="store_true",
                    help="also measure `laizi serve` itself at each level, in the same run "
                         "(bench_server.py: one process on a private PostgreSQL), and report "
                         "the floor's share of its CPU per action")
    ap.add_argument("--table", default="none",
                    help="comma-separated, each measured at every level: none: the table does nothing "
                         "(the stack's floor); lean: each room plays a real match and sends events only, "
                         "one journal row per action on a private PostgreSQL (benchmarks/ws_floor_lean.py: "
                         "a room path with no view); views: lean plus each seat's view patch as laizi "
                         "serve builds it")
    ap.add_argument("--hand-pause", type=float, default=0.5,
                    help="--table lean and views: seconds between hands (bench_server's `laizi serve` too)")
    ap.add_argument("--server-python", default=sys.executable,
                    help="interpreter of the measured floor or lean table (e.g. "
                         ".venv-compiled/bin/python: the compiled engine); the clients stay in this one")
    ap.add_argument("--json", action="store_true", help="one JSON line per level")
    a = ap.parse_args(argv)
    try:
        levels = [int(x) for x in a.rooms.split(",")]
    except ValueError:
        ap.error(f"--rooms: room counts separated by commas, not {a.rooms!r}")
    if min(levels) < 1 or a.frames < 2 or a.seconds <= 0 or a.think < 0 or a.frame_bytes < 0:
        ap.error("--rooms at least 1 each, --frames at least 2 (an update and the ack), "
                 "--seconds above 0, --think and --frame-bytes not negative")
    if a.hand_pause < 0:
        ap.error("--hand-pause not negative")
    a.tables = a.table.split(",")
    if not a.tables or any(t not in ("none", "lean", "views") for t in a.tables):
        ap.error(f"--table: none, lean or views, comma-separated, not {a.table!r}")
    pg = None
    if a.tables != ["none"]:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import benchsvc

        pg = benchsvc.Postgres().start()
    try:
        for rooms in levels:
            for table in a.tables:  # (laizi serve, if asked, after the last)
                _report(rooms, table, a, pg, last=table == a.tables[-1])
    finally:
        if pg is not None:
            pg.stop()
    return 0


def _report(rooms: int, table: str, a: argparse.Namespace, pg: Any, last: bool) -> None:
    """One table at one level, then ``laizi serve`` if asked and ``last``; printed."""
    res = _floor(rooms, a, pg if table != "none" else None, table)
    if a.server and last:
        real = _server(rooms, a)
        res["laizi_serve"] = real
        if real.get("server_cpu_ms_per_action"):
            res["floor_share"] = round(res["server_cpu_ms_per_action"]
                                       / real["server_cpu_ms_per_action"], 3)
    res["load_average"] = round(os.getloadavg()[0], 2)
    if a.json:
        print(json.dumps(res), flush=True)
    else:
        print(f"rooms={rooms:5d} {table if table != 'none' else 'floor'}: actions/s={res['actions_per_s']:8.1f} p50={res['p50_ms']:6.1f} ms "
              f"p99={res['p99_ms']:6.1f} ms server cpu/action={res['server_cpu_ms_per_action']:.3f} ms",
              flush=True)
        if a.server and last:
            r = res["laizi_serve"]
            print(f"rooms={rooms:5d} laizi serve: actions/s={r.get('actions_per_s')} "
                  f"p99={r.get('p99_ms')} ms server cpu/action={r.get('server_cpu_ms_per_action')} ms "
                  f"frames/action={r.get('frames_per_action')} -> floor share {res.get('floor_share')}",
                  flush=True)
        print(f"  (load {res['load_average']})", flush=True)


def _server(rooms: int, a: argparse.Namespace) -> dict[str, Any]:
    """``laizi serve`` at the same level: bench_server.py, one process on PostgreSQL."""
    here = os.path.dirname(os.path.abspath(__file__))
    out = subprocess.run([sys.executable, os.path.join(here, "bench_server.py"), "--rooms", str(rooms),
                          "--seconds", str(a.seconds), "--think", str(a.think), "--workers", "2",
                          "--only", "single", "--server-python", a.server_python, "--json"],
                         capture_output=True, text=True, timeout=1800)
    for line in out.stdout.splitlines():
        if line.startswith("{") and '"rooms"' in line:
            d = json.loads(line)
            srv = d.get("server", {})
            return {k: d.get(k) for k in ("actions_per_s", "p50_ms", "p99_ms", "server_cpu_ms_per_action",
                                          "wire_bytes_per_action_steady")} | {
                "frames_per_action": round(srv.get("frames_direct", 0) / max(1, srv.get("actions", 1)), 2)}
    return {"error": (out.stderr or out.stdout)[-500:]}


def _floor(rooms: int, a: argparse.Namespace, pg: Any = None, table: str = "none") -> dict[str, Any]:
    """The stack alone at ``rooms`` rooms: the minimal server above, in its own process (or
    the lean table on ``pg``, a fresh database per level)."""
    port = _free_port()
    if pg is None:
        cmd = [a.server_python, "-c", SERVER_CODE, str(port), str(a.frame_bytes), str(a.frames - 1)]
    else:
        here = os.path.dirname(os.path.abspath(__file__))
        cmd = [a.server_python, os.path.join(here, "ws_floor_lean.py"), str(port),
               pg.fresh_db(f"{table}_{rooms}_{port}"), str(a.hand_pause), "15", table]
    srv = subprocess.Popen(cmd)
    try:
        for _ in range(600):
            if srv.poll() is not None:
                raise SystemExit(f"the measured server stopped (exit code {srv.returncode})")
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        res = asyncio.run(_level(port, srv.pid, rooms, a.seconds, a.think, kick=pg is None,
                                 db_cpu=pg.cpu_seconds if pg is not None else None))
        return {"table": table, **res}
    finally:
        srv.terminate()
        srv.wait(10)


if __name__ == "__main__":
    raise SystemExit(main())
