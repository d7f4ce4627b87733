"""The ``notifications`` table: each account keeps its newest ``KEEP`` (older ones are pruned
in the transaction that adds new ones). Blocking functions: the writes run inside another
transaction (a game's change, storage/store.py ``Execute``), the reads on the store's
threads."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable, Sequence

from pydantic import ValidationError
from sqlalchemy import Connection, Engine, delete, func, insert, select, update

from ..storage.models import as_utc, follows, notifications
from .schemas import About, Notification, about_adapter

log = logging.getLogger("patchwork.server")
KEEP = 200  # notifications kept per account
FAN_OUT = 200  # followers told of a player's new game: the first to follow them
PAGE = 50  # the most one read returns

_T = notifications.c


def add(
    conn: Connection, items: Sequence[tuple[str, About]], now: dt.datetime
) -> list[tuple[str, Notification]]:
    """Store ``items`` (account, what) and prune those accounts' lists; each account with its
    new notification, in the order given."""
    if not items:
        return []
    rows = [
        {
            "user_id": user_id,
            "kind": about.kind,
            "data": about.model_dump(mode="json", exclude={"kind"}),
            "created_at": now,
        }
        for user_id, about in items
    ]
    stmt = insert(notifications).returning(_T.id, sort_by_parameter_order=True)
    ids = list(conn.execute(stmt, rows).scalars())
    prune(conn, {user_id for user_id, _ in items})
    at = now.timestamp()
    return [
        (user_id, Notification(id=i, at=at, read=False, about=about))
        for i, (user_id, about) in zip(ids, items, strict=True)
    ]


def prune(conn: Connection, user_ids: Iterable[str]) -> None:
    """Delete all but the newest ``KEEP`` notifications of each of these accounts (one pass
    over their rows)."""
    users = sorted(set(user_ids))
    if not users:
        return
    rank = (
        select(
            _T.id, func.row_number().over(partition_by=_T.user_id, order_by=_T.id.desc()).label("n")
        )
        .where(_T.user_id.in_(users))
        .subquery()
    )
    old = select(rank.c.id).where(rank.c.n > KEEP)
    conn.execute(delete(notifications).where(_T.id.in_(old)))


def followers(
    conn: Connection, targets: Sequence[str], cap: int = FAN_OUT
) -> list[tuple[str, str]]:
    """(follower, followed) for the first ``cap`` followers of each target, by when they
    followed."""
    found: list[tuple[str, str]] = []
    for target in targets:
        rows = conn.execute(
            select(follows.c.user_id)
            .where(follows.c.target_id == target)
            .order_by(follows.c.created_at, follows.c.user_id)
            .limit(cap)
        )
        found += [(user_id, target) for (user_id,) in rows]
    return found


def _notification(row: object) -> Notification | None:
    r = row._mapping  # type: ignore[attr-defined]
    try:
        about = about_adapter.validate_python({**r["data"], "kind": r["kind"]})
    except ValidationError:
        log.warning("notification %s is not readable; it is left out", r["id"])
        return None
    return Notification(
        id=r["id"],
        at=as_utc(r["created_at"]).timestamp(),
        read=r["read_at"] is not None,
        about=about,
    )


def unread(conn: Connection, user_id: str) -> int:
    count = conn.execute(
        select(func.count())
        .select_from(notifications)
        .where(_T.user_id == user_id, _T.read_at.is_(None))
    ).scalar_one()
    return int(count)


def page(
    engine: Engine, user_id: str, before: int | None, limit: int
) -> tuple[list[Notification], int, bool]:
    """The account's notifications older than ``before`` (None: the newest), newest first, at
    most ``limit``; with the unread count and whether older ones exist."""
    query = select(notifications).where(_T.user_id == user_id)
    if before is not None:
        query = query.where(_T.id < before)
    with engine.connect() as conn:
        rows = conn.execute(query.order_by(_T.id.desc()).limit(limit + 1)).all()
        count = unread(conn, user_id)
    found = [n for n in map(_notification, rows[:limit]) if n is not None]
    return found, count, len(rows) > limit


def mark_read(engine: Engine, user_id: str, ids: list[int] | None, now: dt.datetime) -> int:
    """Mark the account's ``ids`` (None: all) read (others' ids change nothing); how many of
    its notifications are left unread."""
    stmt = update(notifications).where(_T.user_id == user_id, _T.read_at.is_(None))
    if ids is not None:
        stmt = stmt.where(_T.id.in_(ids))
    with engine.begin() as conn:
        conn.execute(stmt.values(read_at=now))
        return unread(conn, user_id)
