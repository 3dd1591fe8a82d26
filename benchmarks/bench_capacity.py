"""Per-action costs of a cluster node, for the capacity model of docs/deploy.md.

    python benchmarks/bench_capacity.py --rooms 60 --seconds 30

Starts a private PostgreSQL and Redis and two nodes ``a`` and ``b`` (``laizi serve
--redis … --node …``, each on its own port), then plays the same load twice on fresh
nodes and a fresh database:

- **local**: every room is created on ``a`` (which owns it) and its four bot clients play
  on ``a``;
- **routed**: every room is created on ``a`` but its clients play on ``b``: each action goes
  b → Redis → a, and each seat's frames come back a → Redis → b.

For each it reports, per client action (measured over the play only, not the set-up):
CPU milliseconds of the owner, of the relaying node, of redis-server and of PostgreSQL;
WebSocket bytes (both ways, all four clients); bytes published on Redis pub/sub; database
writes (and group commits) and PostgreSQL WAL bytes; the round trip p50/p99; and each
node's resident memory at the end (with its rooms and connections). The difference between the two runs
is the cost of a routed message.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import benchsvc  # noqa: E402
from bench_server import run_level  # noqa: E402
from prometheus_client.parser import text_string_to_metric_families  # noqa: E402


def get_json(port: int, path: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
        return dict(json.loads(r.read()))


def metrics(port: int) -> dict[str, float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        text = r.read().decode()
    out: dict[str, float] = {}
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            if not s.labels:
                out[s.name] = s.value
    return out


def rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def wal_bytes(db_url: str) -> float:
    """PostgreSQL's write-ahead log position, in bytes (its growth: what was written)."""
    import psycopg

    with psycopg.connect(db_url) as conn:
        row = conn.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')").fetchone()
    return float(row[0]) if row else 0.0


def postmaster_pid(pg: benchsvc.Postgres) -> int:
    return int((Path(pg.dir) / "data" / "postmaster.pid").read_text().split()[0])


class Probe:
    """CPU and counters of every process at the start and the end of the play."""

    def __init__(self, nodes: dict[str, tuple[Any, int]], pg: benchsvc.Postgres,
                 redis: benchsvc.Redis, db_url: str) -> None:
        self.nodes = nodes
        self.db_url = db_url
        self.pids = {**{n: p.pid for n, (p, _port) in nodes.items()},
                     "redis": redis.proc.pid if redis.proc else 0, "postgres": postmaster_pid(pg)}
        self.marks: dict[str, dict[str, Any]] = {}

    def __call__(self, when: str) -> None:
        mark: dict[str, Any] = {"t": time.perf_counter()}
        for name, pid in self.pids.items():
            mark[f"cpu_{name}"] = benchsvc.tree_cpu(pid) or 0.0
        for name, (proc, port) in self.nodes.items():
            mark[f"cluster_{name}"] = get_json(port, "/cluster")
            mark[f"metrics_{name}"] = metrics(port)
            mark[f"rss_{name}"] = rss_kb(proc.pid)
        mark["wal"] = wal_bytes(self.db_url)
        self.marks[when] = mark

    def delta(self, key: str, sub: str | None = None) -> float:
        a, b = self.marks["start"][key], self.marks["end"][key]
        if sub is not None:
            return float(b.get(sub, 0)) - float(a.get(sub, 0))
        return float(b) - float(a)


def run(mode: str, args: argparse.Namespace, pg: benchsvc.Postgres, redis: benchsvc.Redis) -> dict[str, Any]:
    redis.flush()
    db = pg.fresh_db(f"capacity_{mode}")
    ports = {"a": benchsvc.free_port(), "b": benchsvc.free_port()}
    procs: dict[str, Any] = {}
    try:
        for name, port in ports.items():
            procs[name] = benchsvc.serve(port, db, "--redis", redis.url, "--node", name)
        time.sleep(1.5)  # both nodes see each other
        probe = Probe({n: (procs[n], ports[n]) for n in ports}, pg, redis, db)
        idle = {n: rss_kb(procs[n].pid) for n in ports}  # before any room or connection
        owner = f"ws://127.0.0.1:{ports['a']}/ws"
        play = owner if mode == "local" else f"ws://127.0.0.1:{ports['b']}/ws"
        level = run_level(play, args.rooms, args.seconds, args.think, "random",
                          owner_url=owner if mode == "routed" else None, probe=probe)
        try:
            import uvloop

            res = uvloop.run(level)
        except ImportError:
            import asyncio

            res = asyncio.run(level)
    finally:
        for p in procs.values():
            benchsvc.stop(p)
    n = max(1, res["actions"])
    bus = sum(probe.delta(f"cluster_{x}", "bus_bytes_out") for x in ports)
    writes = probe.delta("metrics_a", "laizi_db_write_seconds_count") + probe.delta(
        "metrics_b", "laizi_db_write_seconds_count")
    commits = probe.delta("metrics_a", "laizi_db_batches_total") + probe.delta(
        "metrics_b", "laizi_db_batches_total")
    ms = 1000.0 / n
    return {
        "mode": mode, "rooms": args.rooms, "actions": res["actions"],
        "actions_per_s": res["actions_per_s"], "p50_ms": res["p50_ms"], "p99_ms": res["p99_ms"],
        "owner_cpu_ms_per_action": round(probe.delta("cpu_a") * ms, 3),
        "relay_cpu_ms_per_action": round(probe.delta("cpu_b") * ms, 3),
        "redis_cpu_ms_per_action": round(probe.delta("cpu_redis") * ms, 3),
        "postgres_cpu_ms_per_action": round(probe.delta("cpu_postgres") * ms, 3),
        "wire_bytes_per_action": res["wire_bytes_per_action"],
        "bus_bytes_published_per_action": round(bus / n),
        "db_writes_per_action": round(writes / n, 3),
        "db_commits_per_action": round(commits / n, 3),
        "wal_bytes_per_action": round(probe.delta("wal") / n),
        # memory a room (and its four sockets) adds: on its owner, on the relaying node
        "rss_kb_per_room_owner": round((probe.marks["end"]["rss_a"] - idle["a"]) / args.rooms),
        "rss_kb_per_room_relay": round((probe.marks["end"]["rss_b"] - idle["b"]) / args.rooms),
        "rss_mb": {x: round(probe.marks["end"][f"rss_{x}"] / 1024) for x in ports},
        "errors": res["errors"], "unanswered": res["unanswered"],
        "client_cpu_s": res["client_cpu_s"], "seconds": res["seconds"],
    }


HUMAN_RATE = 0.3    # client actions per second per table of four people
BENCH_RATE = 1.4    # ... of four bots thinking 0.5 s (bench_server's default)
HEADROOM = 0.6      # plan each part for 60 % of what it can do at peak
CORES_PER_MACHINE = 8


def capacity_model(local: dict[str, Any], routed: dict[str, Any], tables: int,
                   rate: float = HUMAN_RATE) -> dict[str, Any]:
    """What ``tables`` concurrent tables need, from the measured per-action figures.

    With k nodes behind ``leastconn`` a fraction f = (k-1)/k of the clients is relayed;
    a relayed client's action costs the owner ``routed.owner`` and the relaying node
    ``routed.relay``, a local one ``local.owner``. Redis carries f of the pub/sub bytes
    (in once, out once to the subscriber)."""
    actions = tables * rate
    k, f, app_ms, cores = 2, 0.5, 0.0, 0.0
    for _ in range(5):  # k depends on f, f on k: a few rounds settle it
        f = (k - 1) / k
        app_ms = (1 - f) * local["owner_cpu_ms_per_action"] + f * (
            routed["owner_cpu_ms_per_action"] + routed["relay_cpu_ms_per_action"])
        cores = actions * app_ms / 1000 / HEADROOM
        k = max(2, round(cores + 0.4999))  # one node per core
    redis_ms = (1 - f) * local["redis_cpu_ms_per_action"] + f * routed["redis_cpu_ms_per_action"]
    bus = f * routed["bus_bytes_published_per_action"] * actions
    pg_ms = routed["postgres_cpu_ms_per_action"]
    mem_kb = tables * (routed["rss_kb_per_room_owner"] + f * routed["rss_kb_per_room_relay"])
    redis_max = HEADROOM * 1000 / max(redis_ms, 1e-6)   # actions/s one Redis core carries
    pg16_max = 16 * HEADROOM * 1000 / max(pg_ms, 1e-6)  # ... a 16-core PostgreSQL
    return {
        "tables": tables, "actions_per_s": round(actions), "sockets": 4 * tables,
        "relayed_fraction": round(f, 2), "app_cpu_ms_per_action": round(app_ms, 2),
        "app_cores": round(cores, 1), "machines_of_8_cores": -(-k // CORES_PER_MACHINE),
        "app_memory_gb": round(mem_kb / 2**20, 1),
        "client_wire_mb_s": round(actions * routed["wire_bytes_per_action"] / 1e6, 1),
        "redis_cores": round(actions * redis_ms / 1000 / HEADROOM, 2),
        "redis_pubsub_mb_s_each_way": round(bus / 1e6, 1),
        "postgres_cores": round(actions * pg_ms / 1000 / HEADROOM, 1),
        "db_writes_per_s": round(actions * routed["db_writes_per_action"]),
        "db_commits_per_s_at_most": round(actions * routed["db_commits_per_action"]),
        "wal_mb_s": round(actions * routed["wal_bytes_per_action"] / 1e6, 1),
        "one_redis_core_carries_actions_per_s": round(redis_max),
        "a_16_core_postgres_carries_actions_per_s": round(pg16_max),
        "first_shared_part_to_saturate": "redis" if redis_max < pg16_max else "postgres",
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rooms", type=int, default=60)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--think", type=float, default=0.5)
    ap.add_argument("--modes", default="local,routed")
    ap.add_argument("--from-json", default=None, metavar="FILE",
                    help="no run: the model from the local and routed lines of an earlier output")
    args = ap.parse_args(argv)
    if args.from_json:
        lines = [json.loads(x) for x in Path(args.from_json).read_text().splitlines() if x.strip()]
        out = [x for x in lines if x.get("mode") in ("local", "routed")]
    else:
        pg, redis = benchsvc.Postgres().start(), benchsvc.Redis().start()
        try:
            out = [run(m, args, pg, redis) for m in args.modes.split(",")]
        finally:
            redis.stop()
            pg.stop()
        for r in out:
            print(json.dumps(r), flush=True)
    if len(out) == 2:
        loc, rt = out
        print(json.dumps({
            "routed_extra_p50_ms": round(rt["p50_ms"] - loc["p50_ms"], 1),
            "routed_extra_cpu_ms_per_action": round(
                rt["owner_cpu_ms_per_action"] + rt["relay_cpu_ms_per_action"]
                - loc["owner_cpu_ms_per_action"] - loc["relay_cpu_ms_per_action"], 3),
        }))
        for tables in (10_000, 100_000):
            for rate in (HUMAN_RATE, BENCH_RATE):
                print(json.dumps({"rate_per_table": rate,
                                  **capacity_model(loc, rt, tables, rate)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
