"""Avatars: the ``avatars`` table (a drawn choice or an uploaded picture per player).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 21:42:33.150087

Additive revisions only (new tables, new nullable columns, new indexes): a server of the
previous version must keep running against the upgraded schema while a cluster rolls.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0002'
down_revision: str | Sequence[str] | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('avatars',
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('choice', sa.String(length=32), nullable=True),
    sa.Column('image', sa.LargeBinary(), nullable=True),
    sa.Column('media_type', sa.String(length=32), nullable=True),
    sa.Column('etag', sa.String(length=64), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('player_id')
    )


def downgrade() -> None:
    raise NotImplementedError("laizi migrations are forward-only")
