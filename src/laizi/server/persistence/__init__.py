"""The database: every table (``db``, ``socialdb``, ``tournamentdb``, ``fencing``;
``models`` gathers them), the schema migrations (Alembic, ``migrations/``), the group-commit
writer with its injected fence check, the store (every SQL statement of rooms and matches,
with the in-transaction hooks other parts register). The ground: imports only ``common``."""

from __future__ import annotations
