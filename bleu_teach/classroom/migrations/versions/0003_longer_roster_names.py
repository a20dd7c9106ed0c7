"""A roster's names as long as the worksheets take them (100 characters, not a nickname's 40), so that the roster
``exercises worksheet`` reads is the roster ``class homework`` reads; the folded name unbounded (NFKC and case
folding may lengthen a name).

SQLite does not hold a text column to its declared length, so only PostgreSQL's columns change.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.alter_column("students", "nickname", type_=sa.String(100), existing_type=sa.String(40), existing_nullable=False)
    op.alter_column("roster", "name", type_=sa.String(100), existing_type=sa.String(40), existing_nullable=False)
    op.alter_column("roster", "folded", type_=sa.Text(), existing_type=sa.String(40), existing_nullable=False)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.alter_column("roster", "folded", type_=sa.String(40), existing_type=sa.Text(), existing_nullable=False)
    op.alter_column("roster", "name", type_=sa.String(40), existing_type=sa.String(100), existing_nullable=False)
    op.alter_column("students", "nickname", type_=sa.String(40), existing_type=sa.String(100), existing_nullable=False)
