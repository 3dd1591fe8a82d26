"""``python -m laizi.server.persistence.migrations DB_URL current|upgrade|check``: an operator migrates
before rolling new servers out (each server also migrates when it opens the database);
``check`` exits 1 when the models and the database differ, listing the differences."""

from __future__ import annotations

import argparse
from typing import Any

from laizi.server.persistence.db import make_engine
from laizi.server.persistence.models import all_models
from laizi.server.persistence.schema import current_revision, diffs, head_revision, upgrade


def _short(diff: Any) -> str:
    """One line per difference: ``add_table players``, ``modify_type actions.client_seq``."""
    if isinstance(diff, list):  # column changes come as a list of (op, schema, table, column, ...)
        return "; ".join(f"{d[0]} {d[2]}.{d[3]}" for d in diff)
    return f"{diff[0]} {getattr(diff[-1] if diff[0].startswith('remove') else diff[1], 'name', '')}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m laizi.server.persistence.migrations",
                                description="laizi database migrations (Alembic)")
    p.add_argument("db_url", help="a SQLite path or a postgresql:// URL")
    p.add_argument("command", choices=["current", "upgrade", "check"])
    args = p.parse_args(argv)
    engine = make_engine(args.db_url)
    try:
        if args.command == "upgrade":
            upgrade(engine)
        if args.command == "check":
            found = diffs(engine, all_models())
            for d in found:
                print(_short(d))
            if found:
                print(f"{len(found)} difference(s) between the models and the database")
                return 1
        print(f"revision {current_revision(engine)} (newest {head_revision()})")
        return 0
    finally:
        engine.dispose()


if __name__ == "__main__":
    raise SystemExit(main())
