"""Regenerate ``src/laizi/data/analysis_tables.bin`` (lookup tables of laizi.analysis).

Usage: ``.venv/bin/python scripts/gen_tables.py [--check]``

``--check`` rebuilds the tables and exits non-zero if the shipped file differs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from laizi.analysis import _tables

OUT = Path(__file__).resolve().parent.parent / "src" / "laizi" / "data" / _tables.DATA_FILE


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped file")
    args = parser.parse_args()
    start = time.perf_counter()
    tables = _tables.build()
    elapsed = time.perf_counter() - start
    print(f"built tables in {elapsed:.1f} s ({len(tables.sprof)} + {len(tables.hprof)} shanten profiles)")
    if args.check:
        try:
            shipped = _tables.parse(OUT.read_bytes())
        except (OSError, ValueError) as exc:
            print(f"cannot read {OUT}: {exc}")
            return 1
        if shipped != tables:
            print(f"{OUT} is stale: run scripts/gen_tables.py")
            return 1
        print(f"{OUT} is up to date")
        return 0
    blob = _tables.dump(tables)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(blob)
    print(f"wrote {OUT} ({len(blob)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
