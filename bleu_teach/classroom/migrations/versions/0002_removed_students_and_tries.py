"""A teacher can remove a student (their answers leave the counts, the export keeps them marked), and a homework
has a number of tries per question.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("students") as students:
        students.add_column(sa.Column("removed", sa.DateTime(timezone=True)))
    with op.batch_alter_table("sessions") as sessions:
        sessions.add_column(sa.Column("tries", sa.Integer))


def downgrade() -> None:
    with op.batch_alter_table("sessions") as sessions:
        sessions.drop_column("tries")
    with op.batch_alter_table("students") as students:
        students.drop_column("removed")
