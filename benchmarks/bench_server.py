"""Load test of ``laizi serve``: N rooms of four bot clients over real WebSockets on loopback.

    python benchmarks/bench_server.py --rooms 100            # one level
    python benchmarks/bench_server.py --find-max             # ramp up until p99 >= 100 ms
    python benchmarks/bench_server.py --workers 2 --find-max # one process on PostgreSQL, then
                                                             # `laizi serve --workers 2` + Redis
    python benchmarks/bench_server.py --workers 2 --find-max --affinity both
                      # ... the workers measured with clients following the owner hint to
                      # their room's owner (--worker-ports; docs/affinity.md) and relayed

Each client is a real WebSocket connection playing its seat with a bot
(``laizi.bots.make_bot``) fed from the JSON view the server sends
(``SeatView.from_json``), after ``--think`` seconds of "thinking". The round trip of an
action is measured from sending it to receiving its ``ack`` (the server has applied it,
written it to the database and sent every seat its update). Reports actions per
second, p50/p99 round trip and errors, the server's CPU per action (all its processes,
over the play) and the WebSocket bytes per action. Only 127.0.0.1 is used; every run is
bounded by ``--seconds``. ``--workers N`` starts a private PostgreSQL and Redis
(``benchsvc.py``) and measures, in one run, one process on that PostgreSQL and then
``laizi serve --workers N``: the largest room count under the p99 target for each, its
actions per second, and their ratio (docs/deploy.md has the figures). The cost of a routed
message against a local one: ``bench_capacity.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import shlex
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import picows

try:
    from laizi.server.common import protocol as _protocol
except ImportError:  # a laizi before the server's subpackages (an A/B against 98ebea6)
    from laizi.server import protocol as _protocol  # type: ignore[no-redef]

# The table protocol of the laizi on the path: 2 or 3 (update frames carry a patch, applied by
# that laizi's Mirror), or none (an older laizi — A/B against it — whose frames carry the
# whole view).
PROTOCOL: int | None = getattr(_protocol, "PROTOCOL", None)
if PROTOCOL is not None:
    from laizi.server.common.delta import Gap, Mirror
# Whether that laizi's hello may ask for the frames' tables in the welcome (``tables``).
TABLES = "tables" in getattr(getattr(_protocol, "Hello", None), "model_fields", {})
# ... and whether it may send a room's changes as patches (``room_patch``), as the web client asks
ROOM_PATCH = "room_patch" in getattr(getattr(_protocol, "Hello", None), "model_fields", {})

try:  # the load generator's JSON: orjson when installed (the `bench` extra), else the stdlib
    import orjson

    def _loads(raw: bytes) -> Any:
        return orjson.loads(raw)

    def _dumps(msg: Any) -> bytes:
        return orjson.dumps(msg)
except ImportError:  # pragma: no cover - bench extra not installed
    def _loads(raw: bytes) -> Any:
        return json.loads(raw)

    def _dumps(msg: Any) -> bytes:
        return json.dumps(msg).encode()


# The servers started here take this many WebSockets (4 per room; the default cap, 3,000,
# would stop the ramp at 750 rooms).
MAX_CONNECTIONS = 40_000


@dataclass
class Stats:
    rtts: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    actions: int = 0
    hands: int = 0
    bytes_in: int = 0   # WebSocket payload bytes the clients received while playing
    bytes_out: int = 0  # ... and sent
    snapshot_bytes: int = 0  # ... of which snapshots (the match's start, resyncs)
    start_bytes: int = 0  # ... of which the start: each client's frames up to its first snapshot
    started: int = 0      # clients that received that snapshot
    welcome_bytes: int = 0  # the welcomes of the set-up (what a connection gets once: the frame tables, if asked)
    welcomes: int = 0

    def err(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, db_url: str, extra: list[str] | None = None,
                 python: str | None = None) -> subprocess.Popen[bytes]:
    py = python or sys.executable
    usage = subprocess.run([py, "-m", "laizi", "serve", "--help"], capture_output=True, text=True).stdout
    # (a laizi before the connection cap, an A/B against 98ebea6, has no such option)
    cap = ["--max-connections", str(MAX_CONNECTIONS)] if "--max-connections" in usage else []
    proc = subprocess.Popen(
        [py, "-m", "laizi", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", db_url, "--bot-delay", "0", "--hand-pause", "0.5", *cap, *(extra or [])],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        # Every client comes from loopback: the per-address rate limits would stop the set-up.
        env={**os.environ, "LAIZI_RATE_EXEMPT": "127.0.0.1"})
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start")


class _Listener(picows.WSListener):
    """picows calls this for every frame of a client's connection (no task per message)."""

    def __init__(self, client: BotClient) -> None:
        self.client = client

    def on_ws_frame(self, transport: picows.WSTransport, frame: picows.WSFrame) -> None:
        if frame.msg_type == picows.WSMsgType.TEXT:
            self.client.on_message(frame.get_payload_as_memoryview())
        elif frame.msg_type == picows.WSMsgType.CLOSE:
            transport.disconnect()

    def on_ws_disconnected(self, transport: picows.WSTransport) -> None:
        self.client.on_closed()


class BotClient:
    """One player's WebSocket connection (picows: the load generator shares the machine with
    the server, so its own CPU per message is kept small — frames are handled in picows's
    callback and a bot's move is a timer, not a task)."""

    def __init__(self, url: str, name: str, bot: str, seed: int, think: float, stats: Stats) -> None:
        self.url = url
        self.name = name
        self.think = think
        self.stats = stats
        from laizi.bots import make_bot

        self.bot = make_bot(bot, seed)
        # ``random`` picks uniformly among the legal actions: straight from the frame's
        # list (the same choice RandomBot makes from the parsed view, without parsing it).
        self.pick: Any = self.bot.rng.choice if bot == "random" else None
        self.rng = random.Random(seed)
        self.ws: Any = None
        self.seq = 0
        self.sent: dict[int, float] = {}
        self.acted_v = -1
        self.over = False
        self.rules: Any = None  # the room's RuleSet, parsed once from the first view
        self.token: str | None = None
        self.hint: dict[str, Any] | None = None  # affinity: the last "owner" hint
        self.playing = False
        self.started = False  # its first snapshot in the play received
        self._pending: asyncio.TimerHandle | None = None
        self.mirror = Mirror() if PROTOCOL is not None else None
        self._waiter: tuple[Any, asyncio.Future[dict[str, Any]]] | None = None
        self._done: asyncio.Future[None] | None = None

    async def open(self, token: str | None = None) -> str:
        """Connect and say hello (as the player of ``token`` if given); the token."""
        self.ws, _ = await picows.ws_connect(lambda: _Listener(self), self.url,
                                             websocket_handshake_timeout=30,
                                             max_frame_size=2**22)
        hello: dict[str, Any] = {"type": "hello", "nickname": self.name}
        if PROTOCOL is not None:
            hello["proto"] = PROTOCOL
        if TABLES:  # the frames' tables once, in the welcome, as the web client asks
            hello["tables"] = True
        if ROOM_PATCH:
            hello["room_patch"] = True
        if token:
            hello["token"] = token
        await self.send(hello)
        self.token = str((await self.wait(lambda m: m["type"] == "welcome"))["token"])
        return self.token

    def send_now(self, msg: dict[str, Any]) -> None:
        data = _dumps(msg)
        self.stats.bytes_out += len(data)
        self.ws.send(picows.WSMsgType.TEXT, data)  # a text frame, as a browser sends

    async def send(self, msg: dict[str, Any]) -> None:
        self.send_now(msg)

    async def wait(self, pred: Any) -> dict[str, Any]:
        """The next message ``pred`` accepts (the ones before it are dropped)."""
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiter = (pred, fut)
        try:
            return await asyncio.wait_for(fut, 60)
        finally:
            self._waiter = None

    def on_message(self, raw: Any) -> None:
        if self.playing:
            self.stats.bytes_in += len(raw)
        m = _loads(raw)
        t = m["type"]
        if t == "welcome":
            self.stats.welcome_bytes += len(raw)
            self.stats.welcomes += 1
        if t == "snapshot" and self.playing:
            self.stats.snapshot_bytes += len(raw)
        if self.playing and not self.started:  # the match's start: the room's new state, the snapshot
            self.stats.start_bytes += len(raw)
            if t == "snapshot":
                self.started = True
                self.stats.started += 1
        if t == "error":
            self.stats.err(m["code"])
        elif t in ("welcome", "joined", "room") and self.mirror is not None:
            m = self.mirror.take(m)  # (the tables; the room, whole — when asked for)
        elif t == "owner":
            self.hint = m
        if self._waiter is not None:
            pred, fut = self._waiter
            if not fut.done() and pred(m):
                fut.set_result(m)
            return
        if not self.playing:
            return
        if t == "ack":
            t0 = self.sent.pop(m["seq"], None)
            if t0 is not None:
                self.stats.rtts.append(time.perf_counter() - t0)
                self.stats.actions += 1
        elif t in ("update", "snapshot"):
            if self.mirror is not None:
                try:
                    m = self.mirror.take(m)
                except Gap:
                    self.stats.err("gap")
                    self.mirror.reset()
                    self.send_now({"type": "resync"})
                    return
            view = m["view"]
            if view.get("match_over"):
                self.over = True
                self._finish()
                return
            if view["seat"] == 0 and any(e["type"] == "end_hand" for e in m.get("events", [])):
                self.stats.hands += 1
            legal = view.get("legal") or []
            if legal and self.acted_v != m["v"]:
                self.acted_v = m["v"]
                if self._pending is not None:
                    self._pending.cancel()
                delay = self.think * (0.5 + self.rng.random()) if self.think else 0.0
                self._pending = asyncio.get_running_loop().call_later(
                    delay, self._act, view, m["v"])

    def on_closed(self) -> None:
        if self._waiter is not None and not self._waiter[1].done():
            self._waiter[1].set_exception(ConnectionError("connection closed"))
        self._finish()

    def _finish(self) -> None:
        self.playing = False
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        if self._done is not None and not self._done.done():
            self._done.set_result(None)

    async def follow(self, code: str) -> bool:
        """Affinity: the join was relayed and the owner's direct address came with it —
        reconnect there as the same player and join again (a stale address: back to the
        first URL). True when the client moved."""
        h = self.hint
        self.hint = None
        if not h or h.get("room") != code or not h.get("addr"):
            return False
        first = self.url
        await self.close()
        for url in (f"ws://{h['addr']}/ws", first):
            self.url = url
            try:
                await self.open(self.token)
            except OSError:
                continue
            await self.send({"type": "join", "room": code})
            await self.wait(lambda m: m["type"] == "joined")
            return url != first
        raise RuntimeError("no node answers")

    def begin(self) -> None:
        """From now on the frames are played (before the start is sent: none is missed)."""
        self._done = asyncio.get_running_loop().create_future()
        self.playing = True
        if self.ws is None or self.ws.is_disconnected:
            self._finish()

    async def play(self, stop_at: float) -> None:
        """Play (in the frame callbacks) until ``stop_at``, the match's end or a close."""
        if self._done is None:
            self.begin()
        assert self._done is not None
        try:
            await asyncio.wait_for(asyncio.shield(self._done), max(0.05, stop_at - time.monotonic()))
        except TimeoutError:
            pass
        finally:
            self._finish()

    def _act(self, view: dict[str, Any], v: int) -> None:
        self._pending = None
        if not self.playing or self.ws.is_disconnected:
            return
        action = self.pick(view["legal"]) if self.pick is not None else self._decide(view)
        self.seq += 1
        self.sent[self.seq] = time.perf_counter()
        self.send_now({"type": "action", "seq": self.seq, "action": action, "version": v})

    def _decide(self, view: dict[str, Any]) -> Any:
        from laizi.rules import RuleSet
        from laizi.server.tables.frames import read_view

        try:
            if self.rules is None:  # (a room-patch client's views leave them out: the room's)
                room = getattr(self.mirror, "room", None) or {}
                rules = view.get("rules") or room.get("rules")
                if isinstance(rules, dict):
                    self.rules = RuleSet(**rules)
            return self.bot.act(read_view(view, self.rules)).to_json()
        except Exception:  # noqa: BLE001 - count, then fall back to the first legal action
            self.stats.err("bot_failed")
            return view["legal"][0]

    async def close(self) -> None:
        if self.ws is not None and not self.ws.is_disconnected:
            self.ws.disconnect()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.ws.wait_disconnected(), 5)


async def run_level(url: str, rooms: int, seconds: float, think: float, bot: str,
                    server_bots: int = 0, server_bot: str = "greedy",
                    owner_url: str | None = None,
                    probe: Any = None, affinity: bool = False) -> dict[str, Any]:
    """One level: ``rooms`` rooms of bot clients on ``url``. With ``owner_url`` (another
    node of a cluster), each room is created there — that node owns it — and its players
    then play it from ``url``: every message of theirs is routed to the owner. ``probe``
    (if given) is called with "start" just before the play and "end" just after it.
    ``affinity``: a client whose join was relayed follows the owner hint (reconnects to
    the owner's own port) before it sits down."""
    stats = Stats()
    clients: list[BotClient] = []
    sem = asyncio.Semaphore(50)
    humans = 4 - server_bots

    async def setup(r: int) -> list[BotClient]:
        async with sem:
            cs = [BotClient(url, f"r{r}s{i}", bot, r * 4 + i, think, stats) for i in range(humans)]
            # Server bots wait about as long as the clients think.
            # continue_seconds 0: the next hand follows after the hand pause (no 继续 wait)
            create = {"type": "create", "settings": {"rounds": 16, "turn_seconds": 60,
                                                     "claim_seconds": 30, "bot_delay": think,
                                                     "continue_seconds": 0}}
            creator = BotClient(owner_url or url, cs[0].name, bot, r * 4, think, Stats())
            token = await creator.open()
            await creator.send(create)
            code = (await creator.wait(lambda m: m["type"] == "joined"))["room"]["code"]
            if owner_url is None:
                cs[0] = creator
                creator.stats = stats
            else:  # the host comes back, as the same player, on the relaying node
                await creator.close()
                await cs[0].open(token)
            for c in cs[1:]:
                await c.open()
            for i, c in enumerate(cs):
                if i or owner_url is not None:
                    await c.send({"type": "join", "room": code})
                    await c.wait(lambda m: m["type"] == "joined")
                    if affinity:
                        await c.follow(code)
                await c.send({"type": "sit", "seat": i})
                await c.wait(lambda m, i=i: m["type"] == "room" and m["room"]["seats"][i]["player_id"])
                await c.send({"type": "ready", "on": True})  # 准备: the host starts when all are
                await c.wait(lambda m, i=i: m["type"] == "room"
                             and m["room"]["seats"][i].get("ready", True))
            for i in range(humans, 4):
                await cs[0].send({"type": "bot", "seat": i, "level": server_bot})
                await cs[0].wait(lambda m, i=i: m["type"] == "room" and m["room"]["seats"][i]["bot"])
            return cs

    t0 = time.perf_counter()
    groups = await asyncio.gather(*(setup(r) for r in range(rooms)))
    setup_s = time.perf_counter() - t0
    for cs in groups:
        clients.extend(cs)
    # The load generator must not add pauses of its own to the round trips it measures:
    # its set-up heap is frozen and the cyclic GC is off while it plays (a bounded run).
    gc.collect()
    gc.freeze()
    gc.disable()
    lags: list[float] = []
    stats.bytes_in = stats.bytes_out = stats.snapshot_bytes = stats.start_bytes = stats.started = 0  # the play's
    stop_at = time.monotonic() + seconds
    if probe is not None:
        probe("start")
    for c in clients:
        c.begin()
    for cs in groups:
        await cs[0].send({"type": "start"})
    t1 = time.perf_counter()
    cpu0 = time.process_time()
    lag_task = asyncio.ensure_future(_lag_monitor(stop_at, lags))
    try:
        await asyncio.gather(*(c.play(stop_at) for c in clients))
    finally:
        gc.enable()
    elapsed = time.perf_counter() - t1
    client_cpu = time.process_time() - cpu0
    if probe is not None:
        probe("end")
    lag_task.cancel()
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
    rtts = sorted(stats.rtts)
    lags.sort()

    def pct(p: float) -> float:
        return rtts[min(len(rtts) - 1, int(p * len(rtts)))] * 1000 if rtts else float("nan")

    return {
        "rooms": rooms, "clients": humans * rooms, "server_bots": server_bots * rooms, "seconds": round(elapsed, 1), "setup_s": round(setup_s, 1),
        "actions": stats.actions, "actions_per_s": round(stats.actions / elapsed, 1),
        "p50_ms": round(pct(0.50), 1), "p99_ms": round(pct(0.99), 1),
        "mean_ms": round(statistics.fmean(rtts) * 1000, 1) if rtts else None,
        "hands": stats.hands, "errors": stats.errors, "unanswered": sum(len(c.sent) for c in clients),
        "wire_bytes_per_action": round((stats.bytes_in + stats.bytes_out) / max(1, stats.actions)),
        # ... without the snapshots (the start of the match: its weight depends on the run's length)
        "wire_bytes_per_action_after_start": round(
            (stats.bytes_in + stats.bytes_out - stats.snapshot_bytes) / max(1, stats.actions)),
        # ... without the start at all (every frame a client received up to its first snapshot:
        # the room's new state too), and what that start was per client: a short run's
        # bytes per action are mostly its start, a match's are not
        "wire_bytes_per_action_steady": round(
            (stats.bytes_in + stats.bytes_out - stats.start_bytes) / max(1, stats.actions)),
        "start_bytes_per_client": round(stats.start_bytes / max(1, stats.started)),
        # ... and with each connection's welcome counted too (a client that takes the frame
        # tables once gets them there: the start, whole)
        "welcome_bytes_per_client": round(stats.welcome_bytes / max(1, stats.welcomes)),
        "wire_bytes_per_action_with_welcome": round(
            (stats.bytes_in + stats.bytes_out + stats.welcome_bytes / max(1, stats.welcomes) * len(clients))
            / max(1, stats.actions)),
        # what one client receives per hand (the hands under way counted as finished ones);
        # None when no hand ended in the run (a short run at a human pace: no hand to divide by)
        "client_bytes_per_hand": round(stats.bytes_in / stats.hands / 4) if stats.hands else None,
        "protocol": PROTOCOL or 1,
        # Event-loop lag of this (client) process: if it is high, the client side is
        # part of the measured round trips.
        "client_lag_p99_ms": round(lags[int(0.99 * len(lags))] * 1000, 1) if lags else None,
        "client_cpu_s": round(client_cpu, 1),
    }


async def _lag_monitor(stop_at: float, out: list[float], period: float = 0.01) -> None:
    """How late this process's event loop wakes up from ``period`` sleeps."""
    while time.monotonic() < stop_at:
        t = time.perf_counter()
        await asyncio.sleep(period)
        out.append(time.perf_counter() - t - period)


def server_stats(url: str) -> dict[str, Any]:
    """The server's own counters (``/healthz``)."""
    http = url.replace("ws://", "http://", 1).rsplit("/ws", 1)[0] + "/healthz"
    try:
        with urllib.request.urlopen(http, timeout=5) as r:
            return dict(json.loads(r.read()).get("stats") or {})
    except (OSError, ValueError):
        return {}


def machine_cpu() -> tuple[float, float, float]:
    """(busy CPU seconds of the whole machine, of which in softirq, monotonic time) from
    /proc/stat (Linux); zeros elsewhere."""
    try:
        with open("/proc/stat") as fh:
            f = [int(x) for x in fh.readline().split()[1:]]
    except (OSError, ValueError):
        return 0.0, 0.0, time.monotonic()
    tck = os.sysconf("SC_CLK_TCK")
    busy = f[0] + f[2] + f[5] + f[6] + (f[7] if len(f) > 7 else 0)  # niced processes left out
    return busy / tck, f[6] / tck, time.monotonic()


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process (Linux /proc), None elsewhere."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _play(url: str, n: int, args: argparse.Namespace, owner_url: str | None = None,
          probe: Any = None, affinity: bool = False) -> dict[str, Any]:
    level = run_level(url, n, args.seconds, args.think, args.bot, args.server_bots,
                      args.server_bot, owner_url, probe, affinity)
    try:
        import uvloop  # the client side should not be the bottleneck

        return dict(uvloop.run(level))
    except ImportError:
        return dict(asyncio.run(level))


def free_ports(k: int) -> int:
    """The first of ``k`` consecutive free loopback ports."""
    for _ in range(50):
        first = free_port()
        if first + k > 65535:
            continue
        try:
            for p in range(first, first + k):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", p))
            return first
        except OSError:
            continue
    raise RuntimeError("no free ports")


def cluster_figures(ports: list[int]) -> dict[str, int]:
    """The relay counters summed over the workers (each on its own port)."""
    keys = ("relayed_out", "relayed_in", "routed_in", "routed_out", "owner_hints", "bus_bytes_in")
    out = dict.fromkeys(keys, 0)
    for p in ports:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{p}/cluster", timeout=5) as r:
                st = json.loads(r.read())
        except (OSError, ValueError):
            continue
        for k in keys:
            out[k] += int(st.get(k) or 0)
    return out


def measure(n: int, args: argparse.Namespace, workers: int, svc: Any,
            affinity: bool = False) -> dict[str, Any]:
    """One level on a fresh server: one process (``workers`` 0: the default SQLite file,
    or ``--db``; 1: one process on the private PostgreSQL, no Redis), or a cluster of
    ``workers`` node processes (``laizi serve --workers N``) on the private PostgreSQL
    and Redis, each worker also on its own port (``--worker-ports``): with ``affinity``
    the clients follow the owner hints there. Reports the server's CPU seconds (all its
    processes) and, for a cluster, how much went through the relay."""
    import benchsvc

    proc = None
    tmp = tempfile.mkdtemp(prefix="laizi-bench-")
    url = args.url
    extra = shlex.split(args.serve_args)
    wports: list[int] = []
    if url is None:
        port = free_port()
        if workers == 0:
            proc = start_server(port, args.db or os.path.join(tmp, "bench.db"), extra,
                                args.server_python)
        else:
            pg, redis = svc
            db_url = pg.fresh_db(f"bench_{workers}w_{n}_{port}")
            if workers > 1:
                redis.flush()
                first = free_ports(workers)
                wports = list(range(first, first + workers))
                extra += ["--workers", str(workers), "--redis", redis.url,
                          "--worker-ports", str(first)]
            proc = benchsvc.serve(port, db_url, "--max-connections", str(MAX_CONNECTIONS), *extra,
                                  python=args.server_python)
            if workers > 1:
                time.sleep(2.0)  # every worker up (the supervisor answers once the first is)
        url = f"ws://127.0.0.1:{port}/ws"
    cpu0 = benchsvc.tree_cpu(proc.pid) if proc is not None else None
    play_cpu: dict[str, float] = {}
    machine: dict[str, tuple[float, float, float]] = {}
    relay: dict[str, dict[str, int]] = {}

    def probe(when: str) -> None:  # the server's CPU over the play only
        machine[when] = machine_cpu()
        if proc is not None:
            play_cpu[when] = benchsvc.tree_cpu(proc.pid) or 0.0
        if svc is not None:  # ... and the database's and Redis's
            play_cpu["pg_" + when] = svc[0].cpu_seconds() or 0.0
            play_cpu["redis_" + when] = svc[1].cpu_seconds() or 0.0
        if wports:
            relay[when] = cluster_figures(wports)

    try:
        res = _play(url, n, args, probe=probe, affinity=affinity)
        cpu1 = benchsvc.tree_cpu(proc.pid) if proc is not None else None
        if cpu0 is not None and cpu1 is not None:
            res["server_cpu_s"] = round(cpu1 - cpu0, 1)  # set-up and play
        if "end" in play_cpu:
            used = play_cpu["end"] - play_cpu["start"]
            res["server_play_cpu_s"] = round(used, 1)
            res["server_cpu_ms_per_action"] = round(1000 * used / max(1, res["actions"]), 3)
        for part in ("pg", "redis"):
            if part + "_end" in play_cpu:
                used = play_cpu[part + "_end"] - play_cpu[part + "_start"]
                res[f"{part}_cpu_ms_per_action"] = round(1000 * used / max(1, res["actions"]), 3)
        if len(machine) == 2:  # every process and the kernel: busy cores over the play
            (b0, s0, t0), (b1, s1, t1) = machine["start"], machine["end"]
            res["machine_busy_cores"] = round((b1 - b0) / max(1e-9, t1 - t0), 2)
            res["machine_softirq_cores"] = round((s1 - s0) / max(1e-9, t1 - t0), 2)
        res["client_cpu_ms_per_action"] = round(1000 * res["client_cpu_s"] / max(1, res["actions"]), 3)
        res["server"] = server_stats(url)
        if len(relay) == 2:  # relayed clients at the end of the play, bus messages during it
            end, start = relay["end"], relay["start"]
            res["relayed_clients"] = end["relayed_out"]
            res["relayed_client_share"] = round(end["relayed_out"] / max(1, res["clients"]), 3)
            res["bus_messages_per_action"] = round(
                (end["routed_in"] - start["routed_in"]) / max(1, res["actions"]), 2)
            res["owner_hints"] = end["owner_hints"]
    finally:
        benchsvc.stop(proc)
        shutil.rmtree(tmp, ignore_errors=True)
    res["think_s"] = args.think
    res["workers"] = workers
    res["affinity"] = affinity
    return res


def report(res: dict[str, Any], ok: bool, as_json: bool) -> None:
    if as_json:
        print(json.dumps(res), flush=True)
        return
    what = {0: "1 process (SQLite)", 1: "1 process (PostgreSQL)"}.get(
        res["workers"], f"{res['workers']} workers (PostgreSQL + Redis"
        f"{', affinity' if res.get('affinity') else ', relayed'})")
    print(f"[{what}] rooms={res['rooms']:4d} clients={res['clients']:5d} "
          f"actions/s={res['actions_per_s']:8.1f} p50={res['p50_ms']:6.1f} ms "
          f"p99={res['p99_ms']:6.1f} ms hands={res['hands']} errors={res['errors'] or 0} "
          f"unanswered={res['unanswered']} client_lag_p99={res['client_lag_p99_ms']} ms "
          f"cpu s: client={res['client_cpu_s']} server={res.get('server_cpu_s')} "
          f"cpu ms/action: server={res.get('server_cpu_ms_per_action')} "
          f"client={res.get('client_cpu_ms_per_action')} "
          + (f"pg={res['pg_cpu_ms_per_action']} redis={res['redis_cpu_ms_per_action']} "
             if "pg_cpu_ms_per_action" in res else "")
          + f"machine busy={res.get('machine_busy_cores')} cores "
          f"(softirq {res.get('machine_softirq_cores')}) "
          f"wire B/action={res['wire_bytes_per_action']} (after the start {res['wire_bytes_per_action_after_start']}, steady {res['wire_bytes_per_action_steady']}; start {res['start_bytes_per_client']} B/client) B/client/hand={res['client_bytes_per_hand'] or '- (no hand ended)'} "
          + (f"relayed clients={res['relayed_client_share']:.0%} "
             f"bus msgs/action={res['bus_messages_per_action']} "
             if "relayed_client_share" in res else "")
          + f"{'OK' if ok else 'OVER TARGET'}",
          flush=True)


def ramp(args: argparse.Namespace, workers: int, svc: Any,
         affinity: bool = False) -> dict[str, Any]:
    """The levels in order until p99 passes the target: the largest under it and its rate."""
    levels = [args.rooms or 100] if not args.find_max else [int(x) for x in args.levels.split(",")]
    best: dict[str, Any] | None = None
    for n in levels:
        res = measure(n, args, workers, svc, affinity)
        ok = res["p99_ms"] < args.target_ms and not res["unanswered"] > n
        report(res, ok, args.json)
        if ok:
            best = res
        elif args.find_max:
            break
    return {"workers": workers, "affinity": affinity,
            "largest_rooms_p99_under_target": best and best["rooms"],
            "actions_per_s_p99_under_target": best and best["actions_per_s"],
            "p99_ms": best and best["p99_ms"],
            "server_cpu_ms_per_action": best and best.get("server_cpu_ms_per_action"),
            "relayed_client_share": best and best.get("relayed_client_share"),
            "bus_messages_per_action": best and best.get("bus_messages_per_action"),
            "target_ms": args.target_ms, "think_s": args.think,
            "load_average": os.getloadavg()[0]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rooms", type=int, default=None, help="rooms of four bot clients (one level)")
    ap.add_argument("--find-max", action="store_true", help="ramp up the rooms until p99 >= --target-ms")
    ap.add_argument("--levels", default="25,50,100,150,200,300", help="room counts tried by --find-max")
    ap.add_argument("--seconds", type=float, default=20.0, help="measured play time per level")
    ap.add_argument("--think", type=float, default=0.5,
                    help="mean seconds a bot client thinks before acting (0 = flat out)")
    ap.add_argument("--bot", default="random", help="bot the clients play with (default random)")
    ap.add_argument("--server-bots", type=int, default=0, choices=range(4),
                    help="seats per room played by the server's own bots (default 0)")
    ap.add_argument("--server-bot", default="greedy", help="level of the server bots (default greedy)")
    ap.add_argument("--target-ms", type=float, default=100.0)
    ap.add_argument("--url", default=None, help="an already running server (ws://127.0.0.1:PORT/ws)")
    ap.add_argument("--db", default=None, help="database for the spawned server (default: temp SQLite)")
    ap.add_argument("--workers", type=int, default=0,
                    help="N > 1: also measure `laizi serve --workers N` on a private PostgreSQL "
                         "and Redis (started here), after one process on the same PostgreSQL, "
                         "in the same run; the ratio of their rates at p99 < --target-ms is reported")
    ap.add_argument("--affinity", default="on", choices=["on", "off", "both"],
                    help="with --workers: clients follow the owner hint to their room's owner "
                         "(on, the default), stay where they landed and are relayed (off), or "
                         "measure both")
    ap.add_argument("--only", default="both", choices=["both", "single", "workers"],
                    help="with --workers: measure only one side (no ratio; for profiling)")
    ap.add_argument("--serve-args", default="",
                    help="extra arguments for the spawned `laizi serve` (e.g. \"--ws wsproto\")")
    ap.add_argument("--server-python", default=None,
                    help="interpreter of the spawned server (e.g. .venv-compiled/bin/python to "
                         "load the compiled build; the clients stay in this one)")
    ap.add_argument("--json", action="store_true", help="print JSON lines only")
    args = ap.parse_args(argv)
    if args.workers == 1 or args.workers < 0 or (args.workers and args.url):
        ap.error("--workers takes N >= 2 (and no --url: the servers are started here)")
    if not args.workers:
        out = ramp(args, 0, None)
        if args.find_max:
            print(json.dumps(out))
        return 0
    import benchsvc

    pg, redis = benchsvc.Postgres().start(), benchsvc.Redis().start()
    try:
        single = ramp(args, 1, (pg, redis)) if args.only != "workers" else {}
        multi = {aff: ramp(args, args.workers, (pg, redis), aff)
                 for aff in {"on": [True], "off": [False], "both": [True, False]}[args.affinity]
                 if args.only != "single"}
    finally:
        redis.stop()
        pg.stop()
    base = single.get("actions_per_s_p99_under_target")
    out: dict[str, Any] = {"single": single}
    for aff, m in multi.items():
        top = m["actions_per_s_p99_under_target"]
        key = "workers" if aff else "workers_relayed"
        out[key] = m
        out["speedup_actions_per_s" if aff else "speedup_relayed"] = (
            round(top / base, 2) if base and top else None)
    out["cores"] = os.cpu_count()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # benchsvc
    sys.exit(main())
