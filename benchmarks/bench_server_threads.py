"""Where one process's server CPU per action goes, thread by thread (issue 24), on PostgreSQL.

    python benchmarks/bench_server_threads.py --rooms 100 --seconds 20 --json

Starts a private PostgreSQL and ``laizi serve`` on it (:mod:`benchsvc`), plays
``bench_server.py --url … --rooms N`` against it, and in the middle of the play (after
``--warm`` seconds, for ``--window`` seconds: the match starts left out) reads the CPU time
(user + system, from ``/proc``) of each of the server's threads and of PostgreSQL. Reported
per client action: each thread's CPU — named by ``py-spy dump`` when py-spy is installed
(``MainThread``: the event loop; ``laizi-db-writer``: the database writer; ``uvloop_N``: the
loop's default executor), else by its thread id — and PostgreSQL's. Linux only.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import benchsvc  # noqa: E402

HERE = Path(__file__).resolve().parent


def thread_cpu(pid: int) -> dict[int, float]:
    """CPU seconds (user + system) of each thread of ``pid``."""
    out: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended
            continue
        out[int(task.name)] = (int(fields[11]) + int(fields[12])) / tick
    return out


def thread_names(pid: int) -> dict[int, str]:
    """Python's names of the threads (``py-spy dump``), or {} without py-spy."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not os.path.exists(spy):
        return {}
    dump = subprocess.run([spy, "dump", "--pid", str(pid)], capture_output=True, text=True,
                          timeout=60).stdout
    names: dict[int, str] = {}
    for line in dump.splitlines():  # Thread 6537 (active+gil): "MainThread"
        if line.startswith("Thread ") and '"' in line:
            head, name = line.split('"', 2)[:2]
            tid = head.split()[1]
            if tid.isdigit():
                names[int(tid)] = name
    return names


def measure(rooms: int, seconds: float, warm: float, window: float) -> dict[str, Any]:
    if warm + window > seconds:
        raise SystemExit("--warm + --window must fit in --seconds")
    pg = benchsvc.Postgres().start()
    srv = None
    try:
        db = pg.fresh_db("threads")
        port = benchsvc.free_port()
        srv = benchsvc.serve(port, db)
        bench = subprocess.Popen(
            [sys.executable, str(HERE / "bench_server.py"), "--url", f"ws://127.0.0.1:{port}/ws",
             "--rooms", str(rooms), "--seconds", str(seconds), "--json"],
            stdout=subprocess.PIPE, text=True)
        time.sleep(warm)  # (a sampling window of a running load, not a wait for a condition)
        before, pg_before = thread_cpu(srv.pid), pg.cpu_seconds() or 0.0
        time.sleep(window)
        after, pg_after = thread_cpu(srv.pid), pg.cpu_seconds() or 0.0
        names = thread_names(srv.pid)
        out_text, _ = bench.communicate(timeout=seconds + 300)
        if bench.returncode != 0:
            raise SystemExit(f"bench_server.py failed ({bench.returncode})")
        res = json.loads(out_text.strip().splitlines()[-1])
    finally:
        benchsvc.stop(srv)
        pg.stop()
    actions = res["actions_per_s"] * window  # (the load's steady rate)
    threads: dict[str, float] = {}
    for tid, cpu in after.items():
        used = cpu - before.get(tid, 0.0)
        if used > 0:
            name = names.get(tid, f"thread {tid}")
            threads[name] = threads.get(name, 0.0) + used
    per = {k: round(1000 * v / actions, 3) for k, v in sorted(threads.items(), key=lambda kv: -kv[1])}
    return {"rooms": rooms, "window_s": window, "actions_per_s": res["actions_per_s"],
            "p99_ms": res["p99_ms"], "server_cpu_ms_per_action_by_thread": per,
            "server_cpu_ms_per_action": round(sum(per.values()), 3),
            "pg_cpu_ms_per_action": round(1000 * (pg_after - pg_before) / actions, 3),
            "load_average": os.getloadavg()[0]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rooms", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=20.0, help="the load's play time")
    ap.add_argument("--warm", type=float, default=8.0, help="seconds of play before the window")
    ap.add_argument("--window", type=float, default=10.0, help="seconds measured")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="JSON lines only")
    args = ap.parse_args(argv)
    if args.rooms < 1 or args.window <= 0 or args.rounds < 1:
        ap.error("--rooms and --rounds must be at least 1, --window positive")
    for n in range(args.rounds):
        res = measure(args.rooms, args.seconds, args.warm, args.window)
        res["round"] = n + 1
        if args.json:
            print(json.dumps(res), flush=True)
        else:
            print(f"round {n + 1}: {res['actions_per_s']} actions/s, p99 {res['p99_ms']} ms; "
                  f"server CPU ms/action {res['server_cpu_ms_per_action']} "
                  f"({res['server_cpu_ms_per_action_by_thread']}), PostgreSQL {res['pg_cpu_ms_per_action']}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
