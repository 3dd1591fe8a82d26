"""``bench_server.py`` A/B: this tree against a reference source tree, alternating, in one run.

    python benchmarks/ab_server.py --ref /tmp/base/src --rounds 3 --db pg \\
        --out benchmarks/results/bench_server_ab_X.jsonl -- --rooms 100 --seconds 15

Each round runs ``bench_server.py --json`` (the arguments after ``--``) once per side, the
reference first, each with ``PYTHONPATH`` set to its tree (the server *and* the load
generator's frame applier come from that side), on a fresh database: a private PostgreSQL
(``benchsvc.Postgres``, started once and removed at the end) with ``--db pg``, a temporary
SQLite file with ``--db sqlite``. Every result is a JSON line ``{side, round, commit, cmd,
load, result}`` (to ``--out`` and standard output); the last lines give, per figure, the
medians of each side and their ratio (this tree / the reference).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
FIGURES = ("wire_bytes_per_action", "wire_bytes_per_action_with_welcome", "wire_bytes_per_action_after_start",
           "wire_bytes_per_action_steady", "start_bytes_per_client", "welcome_bytes_per_client", "client_bytes_per_hand",
           "server_cpu_ms_per_action", "p50_ms", "p99_ms", "actions_per_s")


def _commit(src: Path) -> str:
    r = subprocess.run(["git", "-C", str(src), "rev-parse", "--short", "HEAD"],
                       capture_output=True, text=True, check=False)
    dirty = subprocess.run(["git", "-C", str(src), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True, check=False).stdout.strip()
    return (r.stdout.strip() or "?") + ("+changes" if dirty else "")


def _run(side: str, src: Path, db: str, args: list[str]) -> dict[str, Any]:
    cmd = [sys.executable, str(HERE / "bench_server.py"), "--json", "--db", db, *args]
    env = {**os.environ, "PYTHONPATH": str(src)}
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1800, check=False)
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
    if r.returncode != 0 or not lines:
        raise SystemExit(f"{side}: bench_server failed ({r.returncode}): {r.stderr[-2000:]}")
    return dict(json.loads(lines[-1]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ref", required=True, help="the reference source tree (its src/)")
    ap.add_argument("--rounds", type=int, default=3, help="runs per side (alternating)")
    ap.add_argument("--db", choices=["pg", "sqlite"], default="pg")
    ap.add_argument("--out", help="append the JSON lines to this file too")
    ap.add_argument("bench_args", nargs=argparse.REMAINDER, help="-- then bench_server.py's arguments")
    a = ap.parse_args(argv)
    bench_args = [x for x in a.bench_args if x != "--"]
    sides = {"ref": Path(a.ref).resolve(), "this": SRC}
    commits = {k: _commit(v) for k, v in sides.items()}
    sys.path.insert(0, str(HERE))
    import benchsvc  # noqa: PLC0415 - the benchmarks' own helpers, next to this file

    pg = benchsvc.Postgres().start() if a.db == "pg" else None
    results: dict[str, list[dict[str, Any]]] = {"ref": [], "this": []}
    out = open(a.out, "a", encoding="utf-8") if a.out else None  # noqa: SIM115 - closed below
    try:
        with tempfile.TemporaryDirectory(prefix="laizi-ab-") as tmp:
            for rnd in range(1, a.rounds + 1):
                for side, src in sides.items():
                    if pg is not None:
                        db = pg.fresh_db(f"ab_{side}_{rnd}")
                        shown = "<private PostgreSQL, fresh database>"
                    else:
                        db = f"sqlite:///{tmp}/{side}_{rnd}.db"
                        shown = "<temporary SQLite file>"
                    res = _run(side, src, db, bench_args)
                    results[side].append(res)
                    line = {"side": side, "round": rnd, "commit": commits[side],
                            "cmd": f"PYTHONPATH={src} python benchmarks/bench_server.py --json --db {shown} "
                                   + " ".join(bench_args),
                            "load": f"{os.getloadavg()[0]:.2f}", "result": res}
                    text = json.dumps(line, ensure_ascii=False)
                    print(text, flush=True)
                    if out is not None:
                        out.write(text + "\n")
                        out.flush()
        summary: dict[str, Any] = {"summary": "medians", "ref": commits["ref"], "this": commits["this"]}
        for f in FIGURES:
            vals = {s: [r[f] for r in results[s] if isinstance(r.get(f), (int, float))] for s in sides}
            if all(vals.values()):
                ref, this = statistics.median(vals["ref"]), statistics.median(vals["this"])
                summary[f] = {"ref": ref, "this": this, "ratio": round(this / ref, 3) if ref else None}
        text = json.dumps(summary, ensure_ascii=False)
        print(text)
        if out is not None:
            out.write(text + "\n")
    finally:
        if out is not None:
            out.close()
        if pg is not None:
            pg.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
