"""The projector link (``sessions.projector_digest``: its token as a digest, None while the session has none) and
polls asked as a new variant of a lesson's question (``polls.answer``: the variant's right letter; ``polls.revealed``:
whether the teacher shows the right answer, on the projector too). A variant's question holds its sentences, so
``polls.question`` is no longer held to 400 characters.

A poll asked before this revision keeps what it had: its right answer is its bank question's, not yet shown.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Added in place, as revision 0005 adds its columns: batch mode's copy of a table would drop the old one, and
    # with it (the foreign keys cascade) every row that refers to it.
    op.add_column("sessions", sa.Column("projector_digest", sa.String(64)))
    op.add_column("polls", sa.Column("answer", sa.String(8), nullable=False, server_default=""))
    op.add_column("polls", sa.Column("revealed", sa.Boolean, nullable=False, server_default=sa.false()))
    if op.get_bind().dialect.name == "postgresql":  # SQLite holds no text to its declared length
        op.alter_column("polls", "question", type_=sa.Text, existing_type=sa.String(400), existing_nullable=False)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.alter_column("polls", "question", type_=sa.String(400), existing_type=sa.Text, existing_nullable=False)
    op.drop_column("polls", "revealed")
    op.drop_column("polls", "answer")
    op.drop_column("sessions", "projector_digest")
