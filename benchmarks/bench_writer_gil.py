"""What the database writer thread's CPU is on SQLite: the write itself, or the GIL.

    python benchmarks/bench_writer_gil.py [--writes 3000] [--batch 3] [--busy-ms 1.0] [--pg]

The server's writer (``laizi.server.persistence.writer.Writer``) runs in its own thread
beside the event loop. Under ``bench_server.py --rooms 100`` on SQLite the writer thread
took ~0.7 ms of CPU per action, while the same rows written by one thread alone cost
~0.08 ms. This script writes the same rows (an action's journal entry and two events,
as the hot path of play does) through the real ``Writer`` on a temporary SQLite file (with
``--pg``: a private PostgreSQL, :mod:`benchsvc`), twice in one run:

- **idle loop**: the event loop queues ``--batch`` writes and waits for them;
- **busy loop**: the loop queues them, then runs ``--busy-ms`` of pure-Python work (as the
  server builds the frames of an action) before it waits.

It prints the writer thread's CPU per write in each mode (from /proc: user + system time of
that thread) and their ratio. Linux only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import text

from laizi.server.persistence import db
from laizi.server.persistence.store import ACTIONS, EVENTS
from laizi.server.persistence.writer import Writer

EVENT = {"type": "discard", "seat": 1, "tile": "5m", "vis": "all"}


def thread_cpu(native_id: int) -> float:
    """User + system CPU seconds of one thread of this process."""
    fields = Path(f"/proc/self/task/{native_id}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def busy(ms: float) -> None:
    """About ``ms`` of interpreter work (dicts and strings, like building a frame)."""
    end = time.perf_counter() + ms / 1000
    while time.perf_counter() < end:
        d = {i: str(i) for i in range(40)}
        "".join(d.values())


async def run(url: str, writes: int, batch: int, busy_ms: float, first_n: int) -> dict[str, Any]:
    engine = db.make_engine(url)
    writer = Writer(engine)
    n = first_n
    try:
        before = thread_cpu(writer._thread.native_id or 0)
        t0 = time.perf_counter()
        for _ in range(writes // batch):
            futs = []
            for _ in range(batch):
                n += 1
                act = {"match_id": 1, "n": n, "seat": 1, "source": "player", "player_id": "p1",
                       "client_seq": n, "version": n,
                       "action": {"op": "act", "seat": 1, "action": {"type": "discard", "tile": "5m"}}}
                evs = [{"match_id": 1, "n": 2 * n - 1, "hand": 1, "kind": "discard", "data": EVENT},
                       {"match_id": 1, "n": 2 * n, "hand": 1, "kind": "draw", "data": EVENT}]
                futs.append(writer.write(None, rows=((ACTIONS, [act]), (EVENTS, evs))))
            if busy_ms > 0:
                busy(busy_ms)
            await asyncio.gather(*futs)
        wall = time.perf_counter() - t0
        cpu = thread_cpu(writer._thread.native_id or 0) - before
    finally:
        writer.close()
        engine.dispose()
    return {"writes": writes, "batch": batch, "busy_ms": busy_ms, "writer_cpu_s": round(cpu, 3),
            "writer_cpu_ms_per_write": round(1000 * cpu / writes, 4), "wall_s": round(wall, 2),
            "batches": writer.batches}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--writes", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=3, help="writes queued together (one batch)")
    ap.add_argument("--busy-ms", type=float, default=1.0, help="the busy loop's work per batch")
    ap.add_argument("--rounds", type=int, default=2, help="each mode this many times, alternating")
    ap.add_argument("--pg", action="store_true", help="on a private PostgreSQL (else SQLite)")
    args = ap.parse_args()
    pg = None
    with tempfile.TemporaryDirectory(prefix="laizi-bench-writer-") as d, contextlib.ExitStack() as stack:
        if args.pg:
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            import benchsvc

            pg = benchsvc.Postgres().start()
            stack.callback(pg.stop)
            url = pg.fresh_db("writer")
        else:
            url = str(Path(d) / "w.db")
        engine = db.make_engine(url)
        db.migrate(engine)
        with engine.begin() as c:
            c.execute(text("INSERT INTO rooms (code, settings, seats, status, created_at, updated_at) "
                           "VALUES ('R1', '{}', '[]', 'playing', '2026-01-01', '2026-01-01')"))
            c.execute(text("INSERT INTO matches (id, room_code, status, rules, seed, seats, scores, "
                           "penalties, created_at) VALUES (1, 'R1', 'playing', '{}', 'ab', '[]', "
                           "'[]', '[]', '2026-01-01')"))
        engine.dispose()
        first = 0
        results: dict[str, list[float]] = {"idle": [], "busy": []}
        for r in range(args.rounds):
            for mode in ("idle", "busy"):
                out = asyncio.run(run(url, args.writes, args.batch,
                                      args.busy_ms if mode == "busy" else 0.0, first))
                first += args.writes
                out.update(mode=mode, round=r + 1, db="postgresql" if pg else "sqlite",
                           ms_per_batch=round(1000 * out["writer_cpu_s"] / max(1, out["batches"]), 3))
                print(json.dumps(out), flush=True)
                results[mode].append(out["writer_cpu_ms_per_write"])
        idle, bz = min(results["idle"]), min(results["busy"])
        print(json.dumps({"writer_cpu_ms_per_write_idle": results["idle"],
                          "writer_cpu_ms_per_write_busy": results["busy"],
                          "ratio_busy_over_idle": round(bz / idle, 2) if idle else None}))


if __name__ == "__main__":
    main()
