"""``laizi check --db URL``: audit a server's database (:mod:`laizi.server.tables.audit`)."""

from __future__ import annotations

import argparse
import sys

NAME = "check"
HELP = ("audit a server's database: every journal replays to its stored events and hands, coin "
        "settlements are zero-sum, balances equal their ledger and are >= 0, one coin seat per player")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", required=True, metavar="URL",
                        help="the database: a SQLite file path or sqlite:///..., or postgresql://...")
    parser.add_argument("--quiet", action="store_true", help="print the problems only")


def run(args: argparse.Namespace) -> int:
    try:
        from laizi.server.tables.audit import check_url
    except ImportError as exc:  # the server extra is not installed
        raise ValueError(f"needs the server extra (pip install 'laizi[server]'): {exc}") from None
    from laizi.server.persistence.db import normalize_url, unsupported_database

    unsupported = unsupported_database(args.db)
    if unsupported:
        raise ValueError(unsupported)
    url = normalize_url(args.db)
    if url.startswith("sqlite") and "memory" not in url:
        import os

        path = url.split("///", 1)[-1]
        if not os.path.exists(path):
            raise ValueError(f"no database file at {path}")

    last = [-1]

    def progress(done: int, total: int) -> None:
        pct = done * 100 // max(total, 1)
        if not args.quiet and sys.stderr.isatty() and pct != last[0]:
            last[0] = pct
            print(f"\rreplaying matches: {done}/{total}", end="", file=sys.stderr, flush=True)

    try:
        problems = check_url(args.db, progress=progress)
    except Exception as exc:  # noqa: BLE001 - a database that cannot be read: one line
        from sqlalchemy.exc import SQLAlchemyError

        if isinstance(exc, SQLAlchemyError):
            raise ValueError(f"cannot read the database: {str(exc).splitlines()[0][:300]}") from None
        raise
    if last[0] >= 0:
        print(file=sys.stderr)
    for line in problems:
        print(line)
    if not args.quiet:
        print(f"{len(problems)} problem(s)" if problems else "OK: no problem found")
    return 1 if problems else 0
