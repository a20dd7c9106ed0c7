"""A roster name whose student the teacher took out (``roster.student_removed``): the dashboard's roster and the
gradebook file say "removed" for it, not "not yet" as for a name no one has joined as, until a student takes the
name again.

A name whose student was taken out before this revision is known by its link (``link_removed``, which a new link
clears, and no student since): those are marked; one whose link was made again since reads "not yet", as it did.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Added in place, as revisions 0005 and 0010 add theirs: batch mode's copy of the roster table would drop the old
    # one.
    op.add_column("roster", sa.Column("student_removed", sa.Boolean, nullable=False, server_default=sa.false()))
    roster = sa.table(
        "roster", sa.column("student_id"), sa.column("link_removed"), sa.column("student_removed", sa.Boolean)
    )
    op.execute(
        roster.update()
        .where(roster.c.link_removed == sa.true(), roster.c.student_id.is_(None))
        .values(student_removed=sa.true())
    )


def downgrade() -> None:
    op.drop_column("roster", "student_removed")
