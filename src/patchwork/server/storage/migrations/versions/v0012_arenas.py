"""Arenas, entry rules and the directors' log (server/tournaments, issue 41): an event's
length in minutes (arenas) and who may enter it; an arena entrant's pause; one log line per
thing that happened to an event (``patchwork admin tournament --log``); a game's event found
by the game.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | None = None
depends_on: str | None = None

WHEN = sa.DateTime(timezone=True)
SERIAL = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("minutes", sa.Integer(), nullable=True))
    op.add_column(
        "tournaments",
        sa.Column("entry", sa.String(12), nullable=False, server_default="everyone"),
    )
    op.add_column("tournament_entrants", sa.Column("paused_at", WHEN, nullable=True))
    op.create_table(
        "tournament_log",
        sa.Column("id", SERIAL, nullable=False),
        sa.Column("tournament_id", sa.String(24), nullable=False),
        sa.Column("at", WHEN, nullable=False),
        sa.Column("what", sa.String(16), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tournament_log"),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name="fk_tournament_log_tournament_id_tournaments",
            ondelete="CASCADE",
        ),
    )
    op.create_index("ix_tournament_log_tournament_id", "tournament_log", ["tournament_id", "id"])
    op.create_index("ix_tournament_games_game_id", "tournament_games", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_games_game_id", "tournament_games")
    op.drop_index("ix_tournament_log_tournament_id", "tournament_log")
    op.drop_table("tournament_log")
    with op.batch_alter_table("tournament_entrants") as batch:
        batch.drop_column("paused_at")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("entry")
        batch.drop_column("minutes")
