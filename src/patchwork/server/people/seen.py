"""When each account was last seen (``seen``): while it has a socket open, renewed every
minute, and when its last socket closes. The mail domain reads it ("you have not been seen
for a while"); profiles show it."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Connection, Engine, select
from sqlalchemy.dialects import postgresql, sqlite

from ..storage.models import as_utc, seen


def mark(engine: Engine, user_ids: list[str], at: dt.datetime) -> None:
    if not user_ids:
        return
    insert = postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert
    rows = [{"user_id": u, "at": at} for u in sorted(set(user_ids))]
    with engine.begin() as conn:
        stmt = insert(seen).values(rows)
        conn.execute(stmt.on_conflict_do_update(index_elements=["user_id"], set_={"at": at}))


def last_seen(conn: Connection, user_id: str) -> dt.datetime | None:
    row = conn.execute(select(seen.c.at).where(seen.c.user_id == user_id)).first()
    return None if row is None else as_utc(row[0])


def when(engine: Engine, user_id: str) -> str | None:
    """When the account was last seen (ISO 8601), or None."""
    with engine.connect() as conn:
        at = last_seen(conn, user_id)
    return None if at is None else at.isoformat()
