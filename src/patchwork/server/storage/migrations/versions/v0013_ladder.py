"""The AI ladder of thirteen levels (ai/levels.py, issue 37): a game stored against one of the
five former levels names the level of the new ladder that plays exactly as it did, in its
``ai_level`` and in the AI seat's name ("AI level 3" becomes "AI level 8").

One UPDATE per column, each a CASE over the old values, so that no game is renumbered twice
(the former level 2 becomes 4 while the former 4 becomes 10).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from patchwork.ai.levels import FORMER_LEVELS

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | None = None
depends_on: str | None = None

games = sa.table(
    "games",
    sa.column("ai_level", sa.Integer),
    sa.column("seat0_kind", sa.String),
    sa.column("seat1_kind", sa.String),
    sa.column("seat0_name", sa.String),
    sa.column("seat1_name", sa.String),
)


def _renumber(mapping: dict[int, int]) -> None:
    names = {f"AI level {a}": f"AI level {b}" for a, b in mapping.items()}
    values: dict[str, sa.ColumnElement[object]] = {
        "ai_level": sa.case(mapping, value=games.c.ai_level, else_=games.c.ai_level)
    }
    for seat in (0, 1):
        kind, name = games.c[f"seat{seat}_kind"], games.c[f"seat{seat}_name"]
        values[f"seat{seat}_name"] = sa.case(
            (kind == "ai", sa.case(names, value=name, else_=name)), else_=name
        )
    op.execute(games.update().where(games.c.ai_level.is_not(None)).values(values))


def upgrade() -> None:
    _renumber(dict(FORMER_LEVELS))


def downgrade() -> None:
    # A level the former ladder did not have goes back as the former level just below it.
    back = {}
    for new in range(1, max(FORMER_LEVELS.values()) + 1):
        below = [old for old, n in FORMER_LEVELS.items() if n <= new]
        back[new] = max(below, default=1)
    _renumber(back)
