"""A homework's late policy (``sessions.late``: accept, refuse, or a penalty in percent) and its students'
extensions (``extensions``: a name and the time it may answer until).

A homework made before this revision keeps what it did: late answers taken and counted in full ("accept").

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Added in place, as revision 0005 adds its columns: batch mode's copy of the sessions table would drop the old
    # one, and with it (the foreign keys cascade) every student and answer.
    op.add_column("sessions", sa.Column("late", sa.String(12), nullable=False, server_default="accept"))
    op.create_table(
        "extensions",
        sa.Column("session_id", sa.Integer, sa.ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("folded", sa.Text, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.PrimaryKeyConstraint("session_id", "folded"),
    )


def downgrade() -> None:
    op.drop_table("extensions")
    op.drop_column("sessions", "late")
