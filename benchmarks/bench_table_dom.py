"""What one frame's render changes on the table page, per region (issue 22, item 6).

    PYTHONPATH=src python benchmarks/bench_table_dom.py --label now --out benchmarks/results/bench_table_dom.jsonl

A real ``laizi serve`` (the one on PYTHONPATH: run it once with an older checkout's ``src`` for
the A side), the system Chromium at 1366×900, a fixed deal (seed ``web22-look``) against three
greedy bots; the own seat discards its drawn tile and never claims. A MutationObserver counts,
for every frame that shows exactly one discard (one river one tile longer, no meld changed),
the DOM nodes added and removed and the mutation records per region — the discarder's river,
the other rivers, the meld rows, the concealed tiles, the own hand, the plates, the log, the
score table (tests/support/domcount.py; tests/web/test_table_regions.py asserts the same).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the browser helpers

from support.domcount import watched_discards  # noqa: E402
from support.webhelpers import ARGS, CHROMIUM, live_server, new_page, poll, start_table  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--label", default="now")
    ap.add_argument("--frames", type=int, default=12, help="discard frames to count")
    ap.add_argument("--out", help="append the JSON line to this file")
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, live_server(Path(tmp), "--hand-pause", "2") as base, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = new_page(browser, base, "量", size=(1366, 900), csp=False)
        page.evaluate("() => { document.getElementById('c-seed').value = 'web22-look';"
                      " document.getElementById('c-turn').value = '90'; }")
        start_table(page, level="greedy", hands=1)
        poll(page, "() => document.querySelectorAll('#log > div').length > 0")
        frames = watched_discards(page, a.frames, time.time() + 180)
        browser.close()
    regions: dict[str, dict[str, float]] = {}
    for f in frames:
        for k, c in f["regions"].items():
            if k[-1].isdigit():
                k = k[:-1] + ("discarder" if int(k[-1]) == f["discarder"] else "others")
            r = regions.setdefault(k, {"nodes": 0, "records": 0})
            r["nodes"] += c["added"] + c["removed"]
            r["records"] += c["records"]
    n = len(frames)
    per = {k: {"nodes": round(v["nodes"] / n, 1), "records": round(v["records"] / n, 1)} for k, v in sorted(regions.items())}
    row = {"label": a.label, "frames": n, "per_frame": per,
           "total_nodes": round(sum(v["nodes"] for v in regions.values()) / n, 1),
           "total_records": round(sum(v["records"] for v in regions.values()) / n, 1)}
    print(f"{a.label}: {n} discard frames; per frame, nodes added+removed / mutation records")
    for k, v in per.items():
        print(f"  {k:20s} {v['nodes']:7.1f} {v['records']:7.1f}")
    print(f"  {'total':20s} {row['total_nodes']:7.1f} {row['total_records']:7.1f}")
    if a.out:
        with open(a.out, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
