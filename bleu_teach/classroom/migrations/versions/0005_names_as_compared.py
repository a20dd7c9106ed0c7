"""Each student's nickname as compared (folded) and as the eye reads it (its look-alike reading), kept and indexed,
so that a join finds a name it clashes with in one read instead of comparing with every name in the session.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bleu_teach.classroom.schema import fold, look_alike

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Columns added in place, never by batch mode's copy of the table: on SQLite the copy drops the old table, and
    # dropping it deletes every answer (the answers' foreign key cascades), which no pragma can stop inside the
    # upgrade's one transaction.
    op.add_column("students", sa.Column("folded", sa.Text, nullable=False, server_default=""))
    op.add_column("students", sa.Column("alike", sa.Text, nullable=False, server_default=""))
    table = sa.table("students", sa.column("id"), sa.column("nickname"), sa.column("folded"), sa.column("alike"))
    bind = op.get_bind()
    for row in bind.execute(sa.select(table.c.id, table.c.nickname)).all():
        bind.execute(
            table.update().where(table.c.id == row.id).values(folded=fold(row.nickname), alike=look_alike(row.nickname))
        )
    op.create_index("students_folded", "students", ["session_id", "folded"])
    op.create_index("students_alike", "students", ["session_id", "alike"])


def downgrade() -> None:
    op.drop_index("students_alike", "students")
    op.drop_index("students_folded", "students")
    op.drop_column("students", "alike")
    op.drop_column("students", "folded")
