"""Notifications (server/notifications): each account's list, its optional mail address
(confirmed by a link before any mail goes to it, with a one-click stop) and the mails waiting
to be sent.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None

ID = sa.String(24)
TOKEN = sa.String(64)
WHEN = sa.DateTime(timezone=True)
SERIAL = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _owner(table: str) -> list[Any]:
    return [
        sa.Column("user_id", ID, nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=f"fk_{table}_user_id_users", ondelete="CASCADE"
        ),
    ]


def upgrade() -> None:
    op.create_table(
        "notifications",
        sa.Column("id", SERIAL, nullable=False),
        *_owner("notifications"),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("read_at", WHEN, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_notifications"),
    )
    op.create_index("ix_notifications_user_id", "notifications", ["user_id", "id"])
    op.create_table(
        "mail_addresses",
        *_owner("mail_addresses"),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("confirm_hash", TOKEN, nullable=True),
        sa.Column("confirmed_at", WHEN, nullable=True),
        sa.Column("stopped_at", WHEN, nullable=True),
        sa.Column("lang", sa.String(16), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name="pk_mail_addresses"),
        sa.UniqueConstraint("confirm_hash", name="uq_mail_addresses_confirm_hash"),
    )
    op.create_table(
        "mails",
        sa.Column("id", SERIAL, nullable=False),
        *_owner("mails"),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("claimed_until", WHEN, nullable=True),
        sa.Column("sent_at", WHEN, nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("sent_to", TOKEN, nullable=True),
        sa.Column("stop_hash", TOKEN, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_mails"),
        sa.UniqueConstraint("key", name="uq_mails_key"),
    )
    op.create_index("ix_mails_sent_at", "mails", ["sent_at"])
    op.create_index("ix_mails_sent_to", "mails", ["sent_to"])


def downgrade() -> None:
    op.drop_table("mails")
    op.drop_table("mail_addresses")
    op.drop_table("notifications")
