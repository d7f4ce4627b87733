"""Who blocked whom (``blocks``): a blocked player cannot challenge the blocker, and the
blocker never sees their chat. Blocking functions run on the store's threads."""

from __future__ import annotations

from sqlalchemy import Connection, select

from ..storage.models import blocks


def blockers(conn: Connection, user_id: str) -> set[str]:
    """The accounts that blocked ``user_id`` (they see nothing of theirs)."""
    rows = conn.execute(select(blocks.c.user_id).where(blocks.c.target_id == user_id))
    return {r[0] for r in rows}


def blocked(conn: Connection, by: str, whom: str) -> bool:
    """``by`` blocked ``whom``."""
    row = conn.execute(
        select(blocks.c.user_id).where(blocks.c.user_id == by, blocks.c.target_id == whom)
    ).first()
    return row is not None
