"""club pictures: an uploaded picture of a club (clubs.picture, club_pictures)

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01 22:00:00

Additive revisions only (new tables, new nullable columns, new indexes): a server of the
previous version must keep running against the upgraded schema while a cluster rolls.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0012'
down_revision: str | Sequence[str] | None = '0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('clubs', schema=None) as batch_op:
        batch_op.add_column(sa.Column('picture', sa.String(length=64), nullable=True))
    op.create_table('club_pictures',
    sa.Column('club_id', sa.Integer(), nullable=False),
    sa.Column('image', sa.LargeBinary(), nullable=False),
    sa.Column('media_type', sa.String(length=32), nullable=False),
    sa.Column('etag', sa.String(length=64), nullable=False),
    sa.Column('updated_by', sa.String(length=32), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('club_id')
    )


def downgrade() -> None:
    raise NotImplementedError("laizi migrations are forward-only")
