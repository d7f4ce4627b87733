"""Chat (server/chat): the messages of each room, the reports on them, and the accounts muted
site-wide by whoever runs the server.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None

ID = sa.String(24)
WHEN = sa.DateTime(timezone=True)
SERIAL = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", SERIAL, nullable=False),
        sa.Column("room", sa.String(40), nullable=False),
        sa.Column("user_id", ID, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("preset", sa.String(8), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_chat_messages_user_id_users", ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_chat_messages"),
    )
    op.create_index("ix_chat_messages_room", "chat_messages", ["room", "id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", SERIAL, nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        sa.Column("reporter_id", ID, nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("resolved_at", WHEN, nullable=True),
        sa.ForeignKeyConstraint(
            ["message_id"],
            ["chat_messages.id"],
            name="fk_chat_reports_message_id_chat_messages",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["reporter_id"],
            ["users.id"],
            name="fk_chat_reports_reporter_id_users",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_chat_reports"),
        sa.UniqueConstraint("message_id", "reporter_id", name="uq_chat_reports_message_reporter"),
    )
    op.create_table(
        "chat_mutes",
        sa.Column("user_id", ID, nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("note", sa.String(200), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_chat_mutes_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", name="pk_chat_mutes"),
    )


def downgrade() -> None:
    op.drop_table("chat_mutes")
    op.drop_table("chat_reports")
    op.drop_table("chat_messages")
