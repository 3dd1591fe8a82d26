"""clubs (亲友圈): clubs, their members, rule templates and tables

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 18:12:32

Additive revisions only (new tables, new nullable columns, new indexes): a server of the
previous version must keep running against the upgraded schema while a cluster rolls.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0009'
down_revision: str | Sequence[str] | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('club_members',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('club_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('role', sa.String(length=16), nullable=False),
    sa.Column('invited_by', sa.String(length=32), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('club_id', 'player_id', name='uq_club_members_club_player')
    )
    with op.batch_alter_table('club_members', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_club_members_club_id'), ['club_id'], unique=False)
        batch_op.create_index('ix_club_members_player', ['player_id', 'role'], unique=False)

    op.create_table('club_tables',
    sa.Column('room_code', sa.String(length=8), nullable=False),
    sa.Column('club_id', sa.Integer(), nullable=False),
    sa.Column('template_id', sa.Integer(), nullable=True),
    sa.Column('season', sa.Integer(), nullable=False),
    sa.Column('opened_by', sa.String(length=32), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('room_code')
    )
    with op.batch_alter_table('club_tables', schema=None) as batch_op:
        batch_op.create_index('ix_club_tables_club', ['club_id', 'season'], unique=False)

    op.create_table('club_templates',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('club_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('settings', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('club_templates', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_club_templates_club_id'), ['club_id'], unique=False)

    op.create_table('clubs',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('avatar', sa.String(length=32), nullable=False),
    sa.Column('description', sa.String(length=400), nullable=False),
    sa.Column('code', sa.String(length=8), nullable=False),
    sa.Column('owner_id', sa.String(length=32), nullable=False),
    sa.Column('approval', sa.Boolean(), nullable=False),
    sa.Column('private', sa.Boolean(), nullable=False),
    sa.Column('bots', sa.String(length=16), nullable=True),
    sa.Column('season', sa.Integer(), nullable=False),
    sa.Column('season_started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('code', name='uq_clubs_code')
    )
    with op.batch_alter_table('clubs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_clubs_owner_id'), ['owner_id'], unique=False)


def downgrade() -> None:
    raise NotImplementedError("laizi migrations are forward-only")
