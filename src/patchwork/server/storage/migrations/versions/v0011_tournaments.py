"""Tournaments (server/tournaments, issue 41): the events, their entrants and each round's
games (storage/tournament_tables.py).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-05
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None

ID = sa.String(24)
WHEN = sa.DateTime(timezone=True)


def _event(table: str) -> list[Any]:
    return [
        sa.Column("tournament_id", ID, nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=f"fk_{table}_tournament_id_tournaments",
            ondelete="CASCADE",
        ),
    ]


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", ID, nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("created_by", ID, nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("starts_at", WHEN, nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("edition", sa.String(16), nullable=False),
        sa.Column("rotation", sa.Boolean(), nullable=False),
        sa.Column("flip", sa.Boolean(), nullable=False),
        sa.Column("clock", sa.JSON(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("bots_allowed", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("finished_at", WHEN, nullable=True),
        sa.Column("ended_early", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.PrimaryKeyConstraint("id", name="pk_tournaments"),
        sa.ForeignKeyConstraint(
            ["created_by"],
            ["users.id"],
            name="fk_tournaments_created_by_users",
            ondelete="SET NULL",
        ),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status", "starts_at"])
    op.create_index("ix_tournaments_created_by", "tournaments", ["created_by"])
    op.create_table(
        "tournament_entrants",
        *_event("tournament_entrants"),
        sa.Column("user_id", ID, nullable=False),
        sa.Column("joined_at", WHEN, nullable=False),
        sa.Column("withdrawn_at", WHEN, nullable=True),
        sa.PrimaryKeyConstraint("tournament_id", "user_id", name="pk_tournament_entrants"),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name="fk_tournament_entrants_user_id_users",
            ondelete="CASCADE",
        ),
    )
    op.create_index("ix_tournament_entrants_user_id", "tournament_entrants", ["user_id"])
    op.create_table(
        "tournament_games",
        *_event("tournament_games"),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("first_user", ID, nullable=False),
        sa.Column("second_user", ID, nullable=True),
        sa.Column("game_id", ID, nullable=True),
        sa.Column("result", sa.Double(), nullable=True),
        sa.PrimaryKeyConstraint("tournament_id", "round", "first_user", name="pk_tournament_games"),
    )


def downgrade() -> None:
    op.drop_table("tournament_games")
    op.drop_table("tournament_entrants")
    op.drop_table("tournaments")
