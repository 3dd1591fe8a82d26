"""table etiquette: chat mutes, reports, club chat, the clubs' same-network warning, club events

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 21:00:00

Additive revisions only (new tables, new nullable columns, new indexes): a server of the
previous version must keep running against the upgraded schema while a cluster rolls.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0011'
down_revision: str | Sequence[str] | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('club_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_tournaments_club_id'), ['club_id'], unique=False)
    with op.batch_alter_table('clubs', schema=None) as batch_op:
        batch_op.add_column(sa.Column('ip_warning', sa.Boolean(), nullable=True))
    op.create_table('chat_mutes',
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('muted_id', sa.String(length=32), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('player_id', 'muted_id')
    )
    op.create_table('club_chat',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('club_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('text', sa.String(length=280), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('club_chat', schema=None) as batch_op:
        batch_op.create_index('ix_club_chat_club', ['club_id', 'id'], unique=False)

    op.create_table('reports',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('reporter_id', sa.String(length=32), nullable=False),
    sa.Column('reported_id', sa.String(length=32), nullable=False),
    sa.Column('room_code', sa.String(length=8), nullable=False),
    sa.Column('club_id', sa.Integer(), nullable=True),
    sa.Column('reason', sa.String(length=16), nullable=False),
    sa.Column('text', sa.String(length=400), nullable=False),
    sa.Column('evidence', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('reports', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_reports_club_id'), ['club_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_reports_reported_id'), ['reported_id'], unique=False)
        batch_op.create_index('ix_reports_reporter', ['reporter_id', 'created_at'], unique=False)


def downgrade() -> None:
    raise NotImplementedError("laizi migrations are forward-only")
