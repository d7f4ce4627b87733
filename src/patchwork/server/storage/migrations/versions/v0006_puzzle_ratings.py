"""Puzzle ratings (docs/puzzles.md, "Puzzle rating"): each account's puzzle rating, and its
attempts, one row per account and puzzle (only the first attempt counts). Existing accounts
get no row: an account without one has the starting rating.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None

ID = sa.String(24)
WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "puzzle_ratings",
        sa.Column("user_id", ID, nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("rd", sa.Double(), nullable=False),
        sa.Column("volatility", sa.Double(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_puzzle_ratings_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", name="pk_puzzle_ratings"),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("user_id", ID, nullable=False),
        sa.Column("puzzle_id", sa.String(8), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_puzzle_attempts_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", "puzzle_id", name="pk_puzzle_attempts"),
    )


def downgrade() -> None:
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_ratings")
