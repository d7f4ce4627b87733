"""Accounts (docs/accounts.md): users, sessions, rating history, the lobby's seeks, and the
seats' accounts, ratedness and rating changes on each game's row.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None

ID = sa.String(24)
TOKEN = sa.String(64)
WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", ID, nullable=False),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("name_key", sa.String(20), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("rd", sa.Double(), nullable=False),
        sa.Column("volatility", sa.Double(), nullable=False),
        sa.Column("people_games", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_users"),
        sa.UniqueConstraint("name_key", name="uq_users_name_key"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", TOKEN, nullable=False),
        sa.Column("user_id", ID, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("csrf_hash", TOKEN, nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("expires_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_sessions_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("token_hash", name="pk_sessions"),
    )
    op.create_index("ix_sessions_user_id", "sessions", ["user_id"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("user_id", ID, nullable=False),
        sa.Column("game_id", ID, nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("rating_before", sa.Double(), nullable=False),
        sa.Column("rd_before", sa.Double(), nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("rd", sa.Double(), nullable=False),
        sa.Column("volatility", sa.Double(), nullable=False),
        sa.Column("opponent_name", sa.String(64), nullable=False),
        sa.Column("opponent_user", ID, nullable=True),
        sa.Column("opponent_rating", sa.Double(), nullable=False),
        sa.Column("score", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_rating_history_user_id_users", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_rating_history_game_id_games", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["opponent_user"],
            ["users.id"],
            name="fk_rating_history_opponent_user_users",
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_rating_history"),
        sa.UniqueConstraint("user_id", "game_id", name="uq_rating_history_user_game"),
    )
    op.create_index("ix_rating_history_user_id", "rating_history", ["user_id"])
    op.create_table(
        "seeks",
        sa.Column("id", ID, nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("expires_at", WHEN, nullable=False),
        sa.Column("user_id", ID, nullable=True),
        sa.Column("guest_hash", TOKEN, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rating", sa.Double(), nullable=True),
        sa.Column("rd", sa.Double(), nullable=True),
        sa.Column("quick", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("edition", sa.String(16), nullable=False),
        sa.Column("rotation", sa.Boolean(), nullable=False),
        sa.Column("flip", sa.Boolean(), nullable=False),
        sa.Column("clock", sa.JSON(), nullable=True),
        sa.Column("rating_min", sa.Integer(), nullable=True),
        sa.Column("rating_max", sa.Integer(), nullable=True),
        sa.Column("node", sa.String(32), nullable=True),
        sa.Column("game_id", ID, nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_seeks_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_seeks"),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("seat0_user", ID, nullable=True))
        batch.add_column(sa.Column("seat1_user", ID, nullable=True))
        batch.add_column(
            sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("ratings", sa.JSON(), nullable=True))
        batch.create_foreign_key(
            "fk_games_seat0_user_users", "users", ["seat0_user"], ["id"], ondelete="SET NULL"
        )
        batch.create_foreign_key(
            "fk_games_seat1_user_users", "users", ["seat1_user"], ["id"], ondelete="SET NULL"
        )
        batch.create_index("ix_games_seat0_user", ["seat0_user"])
        batch.create_index("ix_games_seat1_user", ["seat1_user"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_seat1_user")
        batch.drop_index("ix_games_seat0_user")
        batch.drop_constraint("fk_games_seat1_user_users", type_="foreignkey")
        batch.drop_constraint("fk_games_seat0_user_users", type_="foreignkey")
        batch.drop_column("ratings")
        batch.drop_column("rated")
        batch.drop_column("seat1_user")
        batch.drop_column("seat0_user")
    op.drop_table("seeks")
    op.drop_index("ix_rating_history_user_id", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_sessions_user_id", "sessions")
    op.drop_table("sessions")
    op.drop_table("users")
