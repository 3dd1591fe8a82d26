"""Test helper: make a migrated database look like one the pre-Alembic ``migrate()`` left."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from sqlalchemy import MetaData


def as_pre_alembic(conn: Any) -> None:
    """Drop ``alembic_version``, every table a revision after ``0001`` added and every column
    it added to a version-3 table (the frozen version-3 tables of revision 0001 stay, with
    their rows), so the next ``migrate()`` upgrades the database as one made by the old
    additive code."""
    from sqlalchemy import text

    frozen = import_module("laizi.server.persistence.migrations.versions.0001_schema_v3").V3.tables
    v3 = set(frozen)
    md = MetaData()
    md.reflect(conn)
    md.drop_all(conn, tables=[t for name, t in md.tables.items() if name not in v3])
    for name, table in md.tables.items():
        if name in v3:
            for col in table.columns:
                if col.name not in frozen[name].columns:
                    conn.execute(text(f'ALTER TABLE {name} DROP COLUMN "{col.name}"'))
