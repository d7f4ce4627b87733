"""People (server/people): follows, blocks, when each account was last seen, challenges to a
named player; and on each game, whether both players agreed to takebacks in a rated game.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-05
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None

ID = sa.String(24)
WHEN = sa.DateTime(timezone=True)


def _user(table: str, column: str, nullable: bool = False) -> list[Any]:
    return [
        sa.Column(column, ID, nullable=nullable),
        sa.ForeignKeyConstraint(
            [column], ["users.id"], name=f"fk_{table}_{column}_users", ondelete="CASCADE"
        ),
    ]


def upgrade() -> None:
    op.add_column(
        "games", sa.Column("takebacks", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column("games", sa.Column("takeback_offer", sa.Integer(), nullable=True))
    op.add_column("games", sa.Column("takeback_declined", sa.Integer(), nullable=True))
    for table in ("follows", "blocks"):
        op.create_table(
            table,
            *_user(table, "user_id"),
            *_user(table, "target_id"),
            sa.Column("created_at", WHEN, nullable=False),
            sa.PrimaryKeyConstraint("user_id", "target_id", name=f"pk_{table}"),
        )
        op.create_index(f"ix_{table}_target_id", table, ["target_id"])
    op.create_table(
        "seen",
        *_user("seen", "user_id"),
        sa.Column("at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("user_id", name="pk_seen"),
    )
    op.create_table(
        "challenges",
        sa.Column("id", ID, nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("expires_at", WHEN, nullable=False),
        *_user("challenges", "challenger_id"),
        *_user("challenges", "challenged_id"),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("reason", sa.String(16), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("takebacks", sa.Boolean(), nullable=False),
        sa.Column("edition", sa.String(16), nullable=False),
        sa.Column("rotation", sa.Boolean(), nullable=False),
        sa.Column("flip", sa.Boolean(), nullable=False),
        sa.Column("clock", sa.JSON(), nullable=True),
        sa.Column("seat", sa.String(8), nullable=False),
        sa.Column("rematch_of", ID, nullable=True),
        sa.Column("game_id", ID, nullable=True),
        sa.Column("answered_at", WHEN, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_challenges"),
    )
    op.create_index("ix_challenges_challenged_id", "challenges", ["challenged_id"])
    op.create_index("ix_challenges_challenger_id", "challenges", ["challenger_id"])
    op.create_index("ix_challenges_status", "challenges", ["status", "expires_at"])
    open_only = sa.text("status = 'open'")
    op.create_index(
        "uq_challenges_open_pair",
        "challenges",
        ["challenger_id", "challenged_id"],
        unique=True,
        sqlite_where=open_only,
        postgresql_where=open_only,
    )


def downgrade() -> None:
    op.drop_table("challenges")
    op.drop_table("seen")
    op.drop_table("blocks")
    op.drop_table("follows")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("takeback_declined")
        batch.drop_column("takeback_offer")
        batch.drop_column("takebacks")
