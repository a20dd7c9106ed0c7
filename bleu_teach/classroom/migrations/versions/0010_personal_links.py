"""Personal join links (``roster.link_digest``: the token of a roster name's link, as a digest, unique;
``roster.link_removed``: the student who joined by it was taken out) and the devices a student is in on besides
their first (``devices``: each one's token, as a digest).

A roster made before this revision has no links until the teacher makes them (class links); its students go on
joining as they did, and each is in on the one device they joined on.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Added in place, as revision 0005 adds its columns: batch mode's copy of the roster table would drop the old
    # one. SQLite adds no column with a UNIQUE constraint in place: the uniqueness is a unique index of its own.
    op.add_column("roster", sa.Column("link_digest", sa.String(64)))
    op.add_column("roster", sa.Column("link_removed", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_index("roster_link", "roster", ["link_digest"], unique=True)
    op.create_table(
        "devices",
        sa.Column("token_digest", sa.String(64), primary_key=True),
        sa.Column("student_id", sa.Integer, sa.ForeignKey("students.id", ondelete="CASCADE"), nullable=False),
        sa.Column("session_id", sa.Integer, sa.ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("added", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("devices_student", "devices", ["student_id"])


def downgrade() -> None:
    op.drop_index("devices_student", table_name="devices")
    op.drop_table("devices")
    op.drop_index("roster_link", table_name="roster")
    op.drop_column("roster", "link_removed")
    op.drop_column("roster", "link_digest")
