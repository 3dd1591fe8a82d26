#!/usr/bin/env python
"""A duplicate arena in resumable chunks, for a busy machine (``docs/learned.md``).

``laizi arena --deals 8000`` gives its result only at the end; on a machine shared with
other jobs it can run for hours and a stop loses everything. This runs the same
evaluation as ``--chunks`` arenas of ``--chunk-deals`` deals each, on the seeds
``SEED.1``, ``SEED.2`` …, one ``laizi arena --json`` call per chunk (with the Python
that runs this script, so a compiled venv measures its own build), keeps every chunk's
JSON in ``--out`` (a finished chunk is never rerun: stop and rerun to resume), and
combines the finished chunks: the first bot's margin over the rest, the mean of the
chunks' margins (equal deals per chunk) with the 95 % interval from their independent
standard errors.

``--against DIR`` compares with another run on the same chunk seeds (another version of
the bot on the same deals): the mean of the per-chunk differences and a 95 % interval
from their spread (Student's t over the chunks both runs finished).

    nice -n 19 python benchmarks/learned_arena.py --bots learned,expert,expert,expert \\
        --seed 2833 --chunks 16 --chunk-deals 500 --out results/learned_2833
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

# two-sided 95 % quantiles of Student's t by degrees of freedom (31 and up: about normal)
_T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26,
        10: 2.23, 12: 2.18, 15: 2.13, 20: 2.09, 25: 2.06, 30: 2.04}


def t95(df: int) -> float:
    return _T95[max(k for k in _T95 if k <= df)] if df <= 30 else 1.96


def chunk_path(out: Path, i: int) -> Path:
    return out / f"chunk_{i:03d}.json"


def run_chunks(a: argparse.Namespace) -> None:
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for i in range(1, a.chunks + 1):
        path = chunk_path(out, i)
        if path.exists():
            continue
        cmd = [sys.executable, "-m", "laizi", "arena", "--bots", a.bots, "--deals",
               str(a.chunk_deals), "--seed", f"{a.seed}.{i}", "--preset", a.preset,
               "--workers", str(a.workers), "--no-progress", "--json"]
        r = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if r.returncode != 0:
            raise SystemExit(f"learned_arena: chunk {i} failed: {r.stderr.strip()[-500:]}")
        json.loads(r.stdout)  # a whole JSON object, or no file
        tmp = path.with_suffix(".tmp")
        tmp.write_text(r.stdout, encoding="utf-8")
        tmp.replace(path)
        print(f"chunk {i}/{a.chunks}: {describe(json.loads(r.stdout))}", flush=True)


def describe(d: dict[str, Any]) -> str:
    m = d["margins"][0]
    return f"{m['a']} − {m['b']} {m['mean']:+.2f} ± {m['half_width']:.2f}"


def load_chunks(out: Path) -> dict[int, dict[str, Any]]:
    found = {}
    for p in sorted(out.glob("chunk_*.json")):
        found[int(p.stem.split("_")[1])] = json.loads(p.read_text(encoding="utf-8"))
    return found


def combine(chunks: dict[int, dict[str, Any]], cmd: str) -> dict[str, Any]:
    ms = [c["margins"][0] for c in chunks.values()]
    k = len(ms)
    mean = sum(m["mean"] for m in ms) / k
    se = math.sqrt(sum((m["half_width"] / 1.96) ** 2 for m in ms)) / k
    first = [c["bots"][0] for c in chunks.values()]
    p99 = max(b["decision_ms"]["p99"] for b in first)
    return {"command": cmd, "chunks": sorted(chunks), "deals": sum(c["deals"] for c in chunks.values()),
            "hands": sum(c["hands"] for c in chunks.values()),
            "a": ms[0]["a"], "b": ms[0]["b"], "preset": next(iter(chunks.values()))["preset"],
            "margin": {"mean": mean, "ci95": [mean - 1.96 * se, mean + 1.96 * se],
                       "half_width": 1.96 * se},
            "win_rate": sum(b["win_rate"] for b in first) / k,
            "deal_in_rate": sum(b["deal_in_rate"] for b in first) / k,
            "decision_ms_p99_worst_chunk": p99,
            "decision_ms_p50_mean": sum(b["decision_ms"]["p50"] for b in first) / k,
            "seconds": sum(c["seconds"] for c in chunks.values())}


def paired(a: dict[int, dict[str, Any]], b: dict[int, dict[str, Any]]) -> dict[str, Any] | None:
    both = sorted(set(a) & set(b))
    if len(both) < 2:
        return None
    d = [a[i]["margins"][0]["mean"] - b[i]["margins"][0]["mean"] for i in both]
    k = len(d)
    mean = sum(d) / k
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (k - 1))
    hw = t95(k - 1) * sd / math.sqrt(k)
    return {"chunks": both, "mean": mean, "ci95": [mean - hw, mean + hw], "half_width": hw}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--bots", default="learned,expert,expert,expert")
    ap.add_argument("--seed", required=True)
    ap.add_argument("--preset", default="kaikoufan")
    ap.add_argument("--chunks", type=int, default=16)
    ap.add_argument("--chunk-deals", type=int, default=500)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", required=True, help="directory of the chunks' JSON files")
    ap.add_argument("--against", help="another run's directory (same seed and chunks)")
    ap.add_argument("--combine-only", action="store_true", help="run no chunk, only combine")
    a = ap.parse_args(argv)
    if not a.combine_only:
        run_chunks(a)
    out = Path(a.out)
    chunks = load_chunks(out)
    if not chunks:
        raise SystemExit("learned_arena: no finished chunk")
    cmd = (f"laizi arena --bots {a.bots} --deals {a.chunk_deals} --seed {a.seed}.I "
           f"--preset {a.preset} --workers {a.workers} --no-progress --json  (I = chunk)")
    res = combine(chunks, cmd)
    if a.against:
        res["against"] = {"dir": a.against, **(paired(chunks, load_chunks(Path(a.against))) or {})}
    (out / "combined.json").write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")
    m = res["margin"]
    print(f"{res['a']} − {res['b']}: {m['mean']:+.2f} [{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}] "
          f"points/hand over {res['deals']} deals ({len(chunks)} chunks)")
    if "against" in res and "mean" in res["against"]:
        p = res["against"]
        print(f"minus {a.against}: {p['mean']:+.2f} [{p['ci95'][0]:+.2f}, {p['ci95'][1]:+.2f}] "
              f"(paired over {len(p['chunks'])} chunks)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
