"""Every module that declares tables on :class:`laizi.server.persistence.db.Base`, in one place.

Alembic's ``env.py`` compares the database with ``all_models()`` (``target_metadata``), so a
model module that is not imported here is invisible to ``alembic revision --autogenerate``
and to the test that checks the models and the migrations agree
(``tests/server/persistence/test_migrations.py``). A module that adds tables adds one import line below.
"""

from __future__ import annotations

from sqlalchemy import MetaData

__all__ = ["all_models"]


def all_models() -> MetaData:
    """Import every model module and return the metadata they declare their tables on."""
    # One line per model module:
    from laizi.server.persistence import (
        clubdb,  # noqa: F401 - clubs, members, templates, club tables
        db,  # players, rooms, matches, ..., accounts, ratings
        etiquettedb,  # noqa: F401 - chat mutes, reports
        fencing,  # noqa: F401 - room_fences (fencing tokens)
        socialdb,  # noqa: F401 - coins ledger, coin tables, friends, invites
        tournamentdb,  # noqa: F401 - tournaments, entrants, rounds, tables
    )

    return db.Base.metadata
