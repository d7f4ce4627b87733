"""Bots (server/bots): an account may become a bot, once and for good; each game keeps
whether a bot account sat in each seat (its BOT label stays with the game's record).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None

COLUMNS = (("users", "bot"), ("games", "seat0_bot"), ("games", "seat1_bot"))


def upgrade() -> None:
    for table, column in COLUMNS:
        op.add_column(
            table, sa.Column(column, sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    for table, column in COLUMNS:
        with op.batch_alter_table(table) as batch:
            batch.drop_column(column)
