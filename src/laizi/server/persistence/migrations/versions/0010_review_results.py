"""review_results: the accuracy of each built 复盘 (the profile's figure, the same on every node)

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 22:05:00

Additive revisions only (new tables, new nullable columns, new indexes): a server of the
previous version must keep running against the upgraded schema while a cluster rolls.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0010'
down_revision: str | Sequence[str] | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'review_results',
        sa.Column('match_id', sa.Integer(), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('accuracy', sa.Float(), nullable=False),
        sa.Column('rated', sa.Integer(), nullable=False),
        sa.Column('built_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['match_id'], ['matches.id']),
        sa.PrimaryKeyConstraint('match_id', 'seat'),
    )


def downgrade() -> None:
    raise NotImplementedError("laizi migrations are forward-only")
