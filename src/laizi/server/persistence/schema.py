"""Schema migrations: Alembic, run in code when the store opens.

The revisions live in ``laizi/server/persistence/migrations/versions`` (shipped with the package); no
``alembic.ini`` is needed at run time — :func:`alembic_config` builds the configuration.
Revision ``0001`` is the schema of the last pre-Alembic release (``laizi_meta``
``schema_version`` 3): on an empty database it creates it, on a database made by the old
additive ``migrate()`` (versions 1-3) it adds what is missing and keeps every row; later
revisions are ordinary Alembic revision files (``docs/server.md``, "Schema migrations").

From a shell (operators: migrate before rolling new servers out; the server also does it)::

    python -m laizi.server.persistence.migrations DB_URL current|upgrade|check

(``check`` exits 1 when the models and the database differ, listing the differences.)

On PostgreSQL the upgrade holds a transaction-scoped advisory lock, so several server
processes starting at once on one database migrate it once, one after the other.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import BigInteger, Integer, MetaData, text
from sqlalchemy.engine import Connection, Engine

__all__ = ["MIGRATIONS_DIR", "alembic_config", "compare_type", "current_revision", "diffs",
           "head_revision", "upgrade"]

log = logging.getLogger("laizi.server")

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
# pg_advisory_xact_lock key of the migration ("laizi" in ASCII)
PG_LOCK_KEY = 0x6C61697A69


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration for laizi's migrations; with ``connection``, the migration
    environment runs on it (inside the caller's transaction) instead of opening its own."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR).replace("%", "%%"))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def compare_type(context: MigrationContext, inspected_column: Any, metadata_column: Any,
                 inspected_type: Any, metadata_type: Any) -> bool | None:
    """Alembic's type comparison, except that INTEGER and BIGINT are one type on SQLite
    (both 64-bit; a version-1 database declared ``actions.client_seq`` INTEGER)."""
    if (context.dialect.name == "sqlite" and isinstance(inspected_type, Integer)
            and isinstance(metadata_type, Integer)
            and BigInteger in (type(inspected_type), type(metadata_type))):
        return False
    return None  # Alembic's own comparison


def head_revision() -> str:
    """The newest revision of the migrations shipped with this version of laizi."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    """The revision a database is at (None: not under Alembic yet — empty, or made by the
    pre-Alembic ``migrate()``)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> bool:
    """Bring the database to ``revision`` (default: the newest), in one transaction where the
    backend has transactional DDL (PostgreSQL). A database already at a revision this laizi
    does not know — migrated by a newer laizi, e.g. during a rolling update — is left as it
    is, with a warning: revisions are additive, so this version still runs on it. Returns
    whether the upgrade ran."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": PG_LOCK_KEY})
        cfg = alembic_config(conn)
        at = MigrationContext.configure(conn).get_current_heads()
        known = {r.revision for r in ScriptDirectory.from_config(cfg).walk_revisions()}
        newer = [r for r in at if r not in known]
        if newer:
            log.warning("database schema is at revision %s, which this laizi does not know "
                        "(its newest: %s); running on it without migrating",
                        ", ".join(newer), head_revision())
            return False
        command.upgrade(cfg, revision)
        return True


def diffs(engine: Engine, metadata: MetaData) -> list[Any]:
    """What ``alembic revision --autogenerate`` would put in a new revision for this database
    and these models (empty: they agree)."""
    with engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": compare_type})
        return list(compare_metadata(ctx, metadata))
