"""The first schema: games, moves and events.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(24), nullable=False),
        sa.Column("parent_id", sa.String(24), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mode", sa.String(8), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("edition", sa.String(16), nullable=False),
        sa.Column("rotation", sa.Boolean(), nullable=False),
        sa.Column("flip", sa.Boolean(), nullable=False),
        sa.Column("circle", sa.JSON(), nullable=False),
        sa.Column("first_player", sa.Integer(), nullable=False),
        sa.Column("seat0_kind", sa.String(8), nullable=False),
        sa.Column("seat1_kind", sa.String(8), nullable=False),
        sa.Column("seat0_name", sa.String(64), nullable=False),
        sa.Column("seat1_name", sa.String(64), nullable=False),
        sa.Column("seat0_token", sa.String(64), nullable=True),
        sa.Column("seat1_token", sa.String(64), nullable=True),
        sa.Column("invite_hash", sa.String(64), nullable=True),
        sa.Column("ai_level", sa.Integer(), nullable=True),
        sa.Column("ai_seed", sa.BigInteger(), nullable=False),
        sa.Column("clock", sa.JSON(), nullable=True),
        sa.Column("remaining0", sa.BigInteger(), nullable=True),
        sa.Column("remaining1", sa.BigInteger(), nullable=True),
        sa.Column("turn_started", sa.Double(), nullable=True),
        sa.Column("termination", sa.String(16), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("scores", sa.JSON(), nullable=True),
        sa.Column("rematch_offer", sa.Integer(), nullable=True),
        sa.Column("rematch_id", sa.String(24), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(24), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("move", sa.String(16), nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("remaining", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_moves_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "ply", name="pk_moves"),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("game_id", sa.String(24), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_events_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_events"),
        sa.UniqueConstraint("game_id", "version", name="uq_events_game_version"),
    )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_table("moves")
    op.drop_index("ix_games_status", table_name="games")
    op.drop_table("games")
