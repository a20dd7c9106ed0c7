"""LTI 1.3: the learning platforms that launch the tool, its keys, the logins and launches, the links to sessions
and the sessions offered to each course, who each launched student is on the platform, and the teachers a launch
let in.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "lti_platforms",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("issuer", sa.String(255), nullable=False),
        sa.Column("client_id", sa.String(255), nullable=False),
        sa.Column("login_url", sa.String(1000), nullable=False),
        sa.Column("token_url", sa.String(1000), nullable=False),
        sa.Column("jwks_url", sa.String(1000), nullable=False),
        sa.Column("created", WHEN, nullable=False),
        sa.UniqueConstraint("issuer", "client_id"),
    )
    op.create_table(
        "lti_deployments",
        sa.Column("platform_id", sa.Integer, sa.ForeignKey("lti_platforms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("deployment_id", sa.String(255), nullable=False),
        sa.PrimaryKeyConstraint("platform_id", "deployment_id"),
    )
    op.create_table(
        "lti_keys",
        sa.Column("kid", sa.String(64), primary_key=True),
        sa.Column("private_jwk", sa.Text, nullable=False),
        sa.Column("created", WHEN, nullable=False),
        sa.Column("retired", WHEN),
    )
    op.create_table(
        "lti_states",
        sa.Column("state", sa.String(64), primary_key=True),
        sa.Column("nonce", sa.String(64), nullable=False),
        sa.Column("browser", sa.String(64), nullable=False),
        sa.Column("platform_id", sa.Integer, sa.ForeignKey("lti_platforms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", WHEN, nullable=False),
    )
    op.create_table(
        "lti_nonces",
        sa.Column("platform_id", sa.Integer, sa.ForeignKey("lti_platforms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("nonce", sa.String(255), nullable=False),
        sa.Column("expires", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("platform_id", "nonce"),
    )
    op.create_table(
        "lti_links",
        sa.Column("platform_id", sa.Integer, sa.ForeignKey("lti_platforms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("resource_link_id", sa.String(255), nullable=False),
        sa.Column("session_id", sa.Integer, sa.ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("context_id", sa.String(255), nullable=False),
        sa.Column("line_item_url", sa.String(1000), nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.PrimaryKeyConstraint("platform_id", "resource_link_id"),
    )
    op.create_table(
        "lti_scores",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("platform_id", sa.Integer, sa.ForeignKey("lti_platforms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("session_id", sa.Integer, sa.ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("line_item_url", sa.String(1000), nullable=False),
        sa.Column("subject", sa.String(255), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created", WHEN, nullable=False),
        sa.Column("next_try", WHEN, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("sent", WHEN),
        sa.Column("problem", sa.String(300), nullable=False),
    )
    op.create_index("lti_scores_waiting", "lti_scores", ["sent", "next_try"])
    op.create_table(
        "lti_offers",
        sa.Column("platform_id", sa.Integer, sa.ForeignKey("lti_platforms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("context_id", sa.String(255), nullable=False),
        sa.Column("session_id", sa.Integer, sa.ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
        sa.PrimaryKeyConstraint("platform_id", "context_id", "session_id"),
    )
    op.create_table(
        "lti_users",
        sa.Column("session_id", sa.Integer, sa.ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("platform_id", sa.Integer, sa.ForeignKey("lti_platforms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("subject", sa.String(255), nullable=False),
        sa.Column("student_id", sa.Integer, sa.ForeignKey("students.id", ondelete="CASCADE"), nullable=False),
        sa.Column("context_id", sa.String(255), nullable=False),
        sa.PrimaryKeyConstraint("session_id", "platform_id", "subject"),
    )
    op.create_table(
        "lti_teachers",
        sa.Column("session_id", sa.Integer, sa.ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("created", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("session_id", "digest"),
    )


def downgrade() -> None:
    for name in (
        "lti_teachers",
        "lti_scores",
        "lti_users",
        "lti_offers",
        "lti_links",
        "lti_nonces",
        "lti_states",
        "lti_keys",
        "lti_deployments",
        "lti_platforms",
    ):
        op.drop_table(name)
