"""Benchmark the leaderboard and profile queries on SQLite with many rated players.

Run: ``.venv/bin/python benchmarks/bench_leaderboard.py [--players 10000] [--repeat 50] [--json]``

A fresh SQLite file (the server's schema, :func:`laizi.server.persistence.db.migrate`) gets ``--players``
players, each with an account (every other one), a rating drawn from openskill's model as it
would be after 1-200 matches, and 20 finished hands of per-hand figures in ``scores``. Then,
each the median of ``--repeat`` runs on a warm connection (what the server does:
``GET /api/leaderboard`` and ``GET /api/players/{id}``):

* ``top``: the first page (50 players) of :func:`laizi.server.accounts.ratings.leaderboard`;
* ``deep``: a page in the middle (offset = players / 2);
* ``profile``: :func:`laizi.server.accounts.players.profile` of one player (figures, rank, matches).

The target (issue 14) is < 50 ms for the leaderboard on >= 10,000 players.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from laizi.server.accounts.players import profile
from laizi.server.accounts.ratings import MODEL, leaderboard, ordinal
from laizi.server.persistence import db


def fill(engine: Any, n: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    t = db.Base.metadata.tables
    players, accounts, ratings, scores = t["players"], t["accounts"], t["ratings"], t["scores"]
    rooms, matches = t["rooms"], t["matches"]
    default = MODEL.rating()
    with engine.begin() as conn:
        conn.execute(rooms.insert().values(code="BENCH", settings={}, seats=[]))
        conn.execute(matches.insert().values(id=1, room_code="BENCH", rules={}, seed="00", seats=[],
                                             scores=[0, 0, 0, 0], penalties=[0, 0, 0, 0]))
        batch_p, batch_a, batch_r, batch_s = [], [], [], []
        for i in range(n):
            pid = f"p_{i:014x}"
            batch_p.append({"id": pid, "nickname": f"player{i}"})
            if i % 2 == 0:
                batch_a.append({"player_id": pid, "username": f"user{i}", "username_key": f"user{i}",
                                "password_hash": "x"})
            k = rng.randint(1, 200)
            sigma = default.sigma / (1 + k / 12)
            mu = rng.gauss(25.0, 4.0)
            batch_r.append({"player_id": pid, "mu": mu, "sigma": sigma, "ordinal": ordinal(mu, sigma),
                            "matches": k})
            for h in range(20):
                won = rng.random() < 0.25
                batch_s.append({"match_id": 1, "hand": i * 20 + h, "seat": 0, "player_id": pid,
                                "kind": "hand", "delta": rng.choice([-8, -4, 4, 12]) if won else -4,
                                "won": int(won), "self_draw": int(won and rng.random() < 0.4),
                                "big": "pengpeng" if won and rng.random() < 0.1 else None,
                                "liable_paid": 0.0})
            if len(batch_s) >= 20000 or i == n - 1:
                for table, rows in ((players, batch_p), (accounts, batch_a), (ratings, batch_r),
                                    (scores, batch_s)):
                    if rows:
                        conn.execute(table.insert(), rows)
                batch_p, batch_a, batch_r, batch_s = [], [], [], []


def timed(fn: Callable[[], Any], repeat: int) -> float:
    fn()  # warm
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return round(statistics.median(times) * 1000, 3)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=50)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        engine = db.make_engine(str(Path(d) / "bench.db"))
        db.migrate(engine)
        t0 = time.perf_counter()
        fill(engine, args.players)
        fill_s = time.perf_counter() - t0
        with engine.connect() as conn:
            top = leaderboard(conn, 50, 0)
            assert len(top) == 50 and top[0]["rating"] >= top[-1]["rating"]
            mid_pid = top[10]["player_id"]
            out = {
                "players": args.players, "fill_s": round(fill_s, 1),
                "top_ms": timed(lambda: leaderboard(conn, 50, 0), args.repeat),
                "deep_ms": timed(lambda: leaderboard(conn, 50, args.players // 2), args.repeat),
                "profile_ms": timed(lambda: profile(conn, mid_pid), args.repeat),
            }
        engine.dispose()
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>12}: {v}")


if __name__ == "__main__":
    main()
