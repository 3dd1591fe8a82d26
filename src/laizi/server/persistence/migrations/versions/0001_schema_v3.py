"""The pre-Alembic schema (``laizi_meta`` ``schema_version`` 3).

Revision ID: 0001
Revises:
Create Date: 2026-11-30

On an empty database this creates the schema. On a database made by the old additive
``db.migrate()`` (schema versions 1-3, no ``alembic_version`` table) it does what that
function did — creates the missing tables, adds the missing (nullable) columns and indexes,
widens PostgreSQL INTEGER columns declared BIGINT — and keeps every row; Alembic then
stamps the database ``0001``.

The tables are a frozen copy of the models as they were at version 3 (not
``db.Base.metadata``, which grows with later revisions).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SCHEMA_VERSION = 3

V3 = sa.MetaData()


def _ts(name: str, nullable: bool = False) -> sa.Column[Any]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _big_id() -> sa.Column[Any]:
    return sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                     primary_key=True, autoincrement=True)


def _pid(name: str = "player_id", nullable: bool = True, index: bool = False) -> sa.Column[Any]:
    return sa.Column(name, sa.String(32), nullable=nullable, index=index)


def _match_fk() -> sa.Column[Any]:
    return sa.Column("match_id", sa.Integer(), sa.ForeignKey("matches.id"), nullable=False,
                     index=True)


sa.Table("laizi_meta", V3,
         sa.Column("key", sa.String(64), primary_key=True),
         sa.Column("value", sa.Text(), nullable=False))
sa.Table("players", V3,
         sa.Column("id", sa.String(32), primary_key=True),
         sa.Column("nickname", sa.String(32), nullable=False),
         _ts("created_at"), _ts("last_seen"))
sa.Table("rooms", V3,
         sa.Column("code", sa.String(8), primary_key=True),
         _pid("owner_id"),
         sa.Column("status", sa.String(16), nullable=False),
         sa.Column("settings", sa.JSON(), nullable=False),
         sa.Column("seats", sa.JSON(), nullable=False),
         sa.Column("match_id", sa.Integer(), nullable=True),
         sa.Column("banned", sa.JSON(), nullable=True),
         _ts("created_at"), _ts("updated_at"))
sa.Table("matches", V3,
         sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
         sa.Column("room_code", sa.String(8), sa.ForeignKey("rooms.code"), nullable=False,
                   index=True),
         sa.Column("status", sa.String(16), nullable=False),
         sa.Column("rules", sa.JSON(), nullable=False),
         sa.Column("seed", sa.String(128), nullable=False),
         sa.Column("max_hands", sa.Integer(), nullable=True),
         sa.Column("seats", sa.JSON(), nullable=False),
         sa.Column("scores", sa.JSON(), nullable=False),
         sa.Column("penalties", sa.JSON(), nullable=False),
         sa.Column("result", sa.JSON(), nullable=True),
         _ts("created_at"), _ts("finished_at", nullable=True))
sa.Table("hands", V3,
         sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
         _match_fk(),
         sa.Column("number", sa.Integer(), nullable=False),
         sa.Column("dealer", sa.Integer(), nullable=True),
         sa.Column("commitment", sa.String(128), nullable=True),
         sa.Column("seed", sa.String(128), nullable=True),
         sa.Column("result", sa.JSON(), nullable=True),
         _ts("started_at"), _ts("ended_at", nullable=True),
         sa.UniqueConstraint("match_id", "number"))
sa.Table("actions", V3,
         _big_id(), _match_fk(),
         sa.Column("n", sa.Integer(), nullable=False),
         sa.Column("seat", sa.Integer(), nullable=False),
         sa.Column("action", sa.JSON(), nullable=False),
         sa.Column("source", sa.String(16), nullable=False),
         _pid(),
         sa.Column("client_seq", sa.BigInteger(), nullable=True),
         sa.Column("version", sa.Integer(), nullable=False),
         _ts("created_at"),
         sa.UniqueConstraint("match_id", "n"))
sa.Table("events", V3,
         _big_id(), _match_fk(),
         sa.Column("n", sa.Integer(), nullable=False),
         sa.Column("hand", sa.Integer(), nullable=False),
         sa.Column("kind", sa.String(32), nullable=False),
         sa.Column("data", sa.JSON(), nullable=False),
         sa.UniqueConstraint("match_id", "n"))
_scores = sa.Table("scores", V3,
                   sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
                   _match_fk(),
                   sa.Column("hand", sa.Integer(), nullable=False),
                   sa.Column("seat", sa.Integer(), nullable=False),
                   _pid(),
                   sa.Column("kind", sa.String(16), nullable=False),
                   sa.Column("delta", sa.JSON(), nullable=False),
                   sa.Column("won", sa.Integer(), nullable=True),
                   sa.Column("self_draw", sa.Integer(), nullable=True),
                   sa.Column("big", sa.String(200), nullable=True),
                   sa.Column("liable_paid", sa.Float(), nullable=True),
                   sa.UniqueConstraint("match_id", "hand", "seat", "kind"))
sa.Index("ix_scores_player", _scores.c.player_id, _scores.c.kind)
sa.Table("accounts", V3,
         sa.Column("player_id", sa.String(32), primary_key=True),
         sa.Column("username", sa.String(32), nullable=False),
         sa.Column("username_key", sa.String(32), nullable=False, unique=True),
         sa.Column("password_hash", sa.String(256), nullable=False),
         _ts("created_at"), _ts("password_changed_at"))
sa.Table("sessions", V3,
         sa.Column("id_hash", sa.String(64), primary_key=True),
         _pid(nullable=False, index=True),
         _ts("created_at"), _ts("expires_at"), _ts("revoked_at", nullable=True))
sa.Table("match_players", V3,
         sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
         _match_fk(),
         sa.Column("seat", sa.Integer(), nullable=False),
         _pid(index=True),
         sa.Column("bot", sa.String(16), nullable=True),
         sa.Column("escaped", sa.Integer(), nullable=False),
         sa.Column("score", sa.Float(), nullable=False),
         sa.Column("place", sa.Integer(), nullable=False),
         sa.Column("rated", sa.Integer(), nullable=False),
         _ts("finished_at"),
         sa.UniqueConstraint("match_id", "seat"))
sa.Table("ratings", V3,
         sa.Column("player_id", sa.String(32), primary_key=True),
         sa.Column("mu", sa.Float(), nullable=False),
         sa.Column("sigma", sa.Float(), nullable=False),
         sa.Column("ordinal", sa.Float(), nullable=False, index=True),
         sa.Column("matches", sa.Integer(), nullable=False),
         _ts("updated_at"))
sa.Table("rating_changes", V3,
         sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
         _match_fk(),
         _pid(nullable=False, index=True),
         sa.Column("place", sa.Integer(), nullable=False),
         sa.Column("mu_before", sa.Float(), nullable=False),
         sa.Column("sigma_before", sa.Float(), nullable=False),
         sa.Column("mu_after", sa.Float(), nullable=False),
         sa.Column("sigma_after", sa.Float(), nullable=False),
         sa.UniqueConstraint("match_id", "player_id"))
sa.Table("chat", V3,
         sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
         sa.Column("room_code", sa.String(8), nullable=False, index=True),
         _pid(),
         sa.Column("nickname", sa.String(32), nullable=False),
         sa.Column("text", sa.String(280), nullable=False),
         sa.Column("phrase", sa.String(32), nullable=True),
         _ts("created_at"))


def upgrade() -> None:
    bind = op.get_bind()
    V3.create_all(bind, checkfirst=True)  # everything on an empty database
    insp = sa.inspect(bind)
    for table in V3.sorted_tables:  # what the old migrate() added to older databases
        have = {c["name"]: c["type"] for c in insp.get_columns(table.name)}
        for col in table.columns:
            if col.name not in have:
                coltype = col.type.compile(dialect=bind.dialect)
                op.execute(f'ALTER TABLE {table.name} ADD COLUMN "{col.name}" {coltype}')
            elif (bind.dialect.name == "postgresql" and isinstance(col.type, sa.BigInteger)
                  and isinstance(have[col.name], sa.Integer)
                  and not isinstance(have[col.name], sa.BigInteger)):
                op.execute(f'ALTER TABLE {table.name} ALTER COLUMN "{col.name}" TYPE BIGINT')
        for idx in table.indexes:
            idx.create(bind, checkfirst=True)
    meta = V3.tables["laizi_meta"]
    old = bind.execute(sa.select(meta.c.value).where(meta.c.key == "schema_version")).scalar()
    if old is None:
        bind.execute(meta.insert().values(key="schema_version", value=str(SCHEMA_VERSION)))
    elif int(old) < SCHEMA_VERSION:
        bind.execute(meta.update().where(meta.c.key == "schema_version")
                     .values(value=str(SCHEMA_VERSION)))


def downgrade() -> None:
    raise NotImplementedError("laizi migrations are forward-only")
