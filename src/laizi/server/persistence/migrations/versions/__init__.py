"""One file per schema revision (``0001`` = the pre-Alembic schema, version 3)."""
