"""coin seats: one coin table per player, cluster-wide

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 15:10:00

Additive revisions only (new tables, new nullable columns, new indexes): a server of the
previous version must keep running against the upgraded schema while a cluster rolls.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0007'
down_revision: str | Sequence[str] | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('coin_seats',
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('room_code', sa.String(length=8), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('player_id')
    )
    op.create_index(op.f('ix_coin_seats_room_code'), 'coin_seats', ['room_code'], unique=False)


def downgrade() -> None:
    raise NotImplementedError("laizi migrations are forward-only")
