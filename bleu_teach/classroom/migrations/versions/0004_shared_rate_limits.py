"""The rate limits' counters in the database, where every worker process counts in the same place (PostgreSQL).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_counts",
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("slot", sa.BigInteger, nullable=False),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("key", "slot"),
    )


def downgrade() -> None:
    op.drop_table("rate_counts")
