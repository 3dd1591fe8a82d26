"""Alembic migration scripts of the laizi database (run by :mod:`laizi.server.persistence.schema`).

``env.py`` is the migration environment, ``versions/`` holds one file per revision,
``script.py.mako`` is the template ``alembic revision`` fills in. How to add a revision:
``docs/server.md``, "Schema migrations".
"""
