"""matches.fixed_dealers: a duplicate round's match deals hand n from seat n-1 (no 连庄)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 15:20:00

Additive revisions only (new tables, new nullable columns, new indexes): a server of the
previous version must keep running against the upgraded schema while a cluster rolls.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0008'
down_revision: str | Sequence[str] | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column('matches', sa.Column('fixed_dealers', sa.Boolean(), nullable=True))


def downgrade() -> None:
    raise NotImplementedError("laizi migrations are forward-only")
