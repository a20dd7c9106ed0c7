"""The schema of the first release with a classroom server (commit 9d3fdb5): sessions, students, answers, polls,
votes, a homework's roster and its drawn variants.

A database made by that release has these tables and no record of a revision; ``Store.open`` marks it as being at
this revision (adding ``roster.reopened`` first to one made before that column existed) and goes on from here.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    moment = sa.DateTime(timezone=True)
    op.create_table(
        "sessions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(6), nullable=False, unique=True),
        sa.Column("teacher_digest", sa.String(64), nullable=False),
        sa.Column("title", sa.String(120), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("created", moment, nullable=False),
        sa.Column("due", moment),
        sa.Column("closed", moment),
    )
    op.create_table(
        "students",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("session_id", sa.Integer, sa.ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("nickname", sa.String(40), nullable=False),
        sa.Column("token_digest", sa.String(64), nullable=False, unique=True),
        sa.Column("joined", moment, nullable=False),
        sa.UniqueConstraint("session_id", "nickname"),
    )
    op.create_table(
        "answers",
        sa.Column("session_id", sa.Integer, sa.ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("student_id", sa.Integer, sa.ForeignKey("students.id", ondelete="CASCADE"), nullable=False),
        sa.Column("answer_id", sa.String(36), nullable=False),
        sa.Column("exercise", sa.String(16), nullable=False),
        sa.Column("answer", sa.String(200), nullable=False),
        sa.Column("verdict", sa.String(16), nullable=False),
        sa.Column("mistake", sa.String(120), nullable=False),
        sa.Column("at", moment, nullable=False),
        sa.Column("late", sa.Boolean, nullable=False),
        sa.PrimaryKeyConstraint("session_id", "student_id", "answer_id"),
    )
    op.create_table(
        "polls",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("session_id", sa.Integer, sa.ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("question", sa.String(400), nullable=False),
        sa.Column("options", sa.String(2000), nullable=False),
        sa.Column("exercise", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("first_round", sa.Integer),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("opened", moment, nullable=False),
    )
    op.create_table(
        "votes",
        sa.Column("poll_id", sa.Integer, sa.ForeignKey("polls.id", ondelete="CASCADE"), nullable=False),
        sa.Column("student_id", sa.Integer, sa.ForeignKey("students.id", ondelete="CASCADE"), nullable=False),
        sa.Column("vote_id", sa.String(36), nullable=False),
        sa.Column("choice", sa.String(8), nullable=False),
        sa.Column("at", moment, nullable=False),
        sa.PrimaryKeyConstraint("poll_id", "student_id"),
    )
    op.create_table(
        "roster",
        sa.Column("session_id", sa.Integer, sa.ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("folded", sa.String(40), nullable=False),
        sa.Column("identifier", sa.String(200), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("student_id", sa.Integer, sa.ForeignKey("students.id", ondelete="SET NULL")),
        sa.Column("reopened", sa.Boolean, nullable=False, default=False),
        sa.PrimaryKeyConstraint("session_id", "folded"),
    )
    op.create_table(
        "homework_variants",
        sa.Column("session_id", sa.Integer, sa.ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("exercise", sa.String(16), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("inputs", sa.Text, nullable=False),
        sa.Column("question", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("session_id", "exercise", "number"),
    )


def downgrade() -> None:
    for table in ("homework_variants", "roster", "votes", "polls", "answers", "students", "sessions"):
        op.drop_table(table)
