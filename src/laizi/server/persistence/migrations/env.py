"""The Alembic environment of laizi's database.

Run in code (:func:`laizi.server.persistence.schema.upgrade` passes its connection in
``config.attributes["connection"]``) or by a developer's ``alembic`` command at the
repository root (``alembic.ini``; the database URL is ``LAIZI_DB_URL``, else the ini's
``sqlalchemy.url``). The target metadata is every model module
(:func:`laizi.server.persistence.models.all_models`), so ``alembic revision --autogenerate`` sees them all.
"""

from __future__ import annotations

import os
from logging.config import fileConfig

from alembic import context
from sqlalchemy.engine import Connection

from laizi.server.persistence.db import make_engine
from laizi.server.persistence.models import all_models
from laizi.server.persistence.schema import compare_type

config = context.config
target_metadata = all_models()


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,  # SQLite alters a table by copying it
        compare_type=compare_type,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    given = config.attributes.get("connection")
    if given is not None:
        _run(given)
        return
    if config.config_file_name is not None:
        fileConfig(config.config_file_name)
    url = os.environ.get("LAIZI_DB_URL") or config.get_main_option("sqlalchemy.url")
    if not url:
        raise SystemExit("set LAIZI_DB_URL (a SQLite path or a postgresql:// URL)")
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            _run(connection)
    finally:
        engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported; give a database URL")
run_online()
