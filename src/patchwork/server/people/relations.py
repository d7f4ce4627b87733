"""Follows and blocks (``follows``, ``blocks``): an account follows up to ``MAX_FOLLOWS``
players and blocks up to ``MAX_BLOCKS``. Blocking someone also ends the follows between the
two, both ways. Blocking functions run on the store's threads."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Engine, Table, and_, delete, func, or_, select
from sqlalchemy.dialects import postgresql, sqlite

from ...i18n import N_
from ..common.errors import ServerError
from ..ratings.rating import provisional
from ..storage.models import UserData, blocks, follows, games, users, utcnow
from .blocks import blocked
from .schemas import PersonView

MAX_FOLLOWS = 500
MAX_BLOCKS = 500
PLAYING_WITHIN = dt.timedelta(minutes=15)  # a game moved in this recently is being played


def _add(engine: Engine, table: Table, limit: int, user: UserData, target: UserData) -> None:
    if user.id == target.id:
        raise ServerError("invalid_request", N_("that is your own account"))
    insert = postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert
    with engine.begin() as conn:
        count = conn.execute(
            select(func.count()).select_from(table).where(table.c.user_id == user.id)
        ).scalar_one()
        if count >= limit:
            raise ServerError(
                "too_many_listed", N_("you may list at most {limit} players here"), {"limit": limit}
            )
        row = {"user_id": user.id, "target_id": target.id, "created_at": utcnow()}
        conn.execute(insert(table).values(row).on_conflict_do_nothing())
        if table is blocks:
            pair = or_(
                and_(follows.c.user_id == user.id, follows.c.target_id == target.id),
                and_(follows.c.user_id == target.id, follows.c.target_id == user.id),
            )
            conn.execute(delete(follows).where(pair))


def follow(engine: Engine, user: UserData, target: UserData) -> None:
    with engine.connect() as conn:
        if blocked(conn, target.id, user.id) or blocked(conn, user.id, target.id):
            raise ServerError("blocked", N_("you cannot follow this player"))
    _add(engine, follows, MAX_FOLLOWS, user, target)


def block(engine: Engine, user: UserData, target: UserData) -> None:
    _add(engine, blocks, MAX_BLOCKS, user, target)


def remove(engine: Engine, table: Table, user_id: str, target_id: str) -> None:
    with engine.begin() as conn:
        pair = (table.c.user_id == user_id, table.c.target_id == target_id)
        conn.execute(delete(table).where(*pair))


def listed(engine: Engine, table: Table, user_id: str) -> list[UserData]:
    """The accounts ``user_id`` follows (or blocked), by name."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(users)
            .join(table, table.c.target_id == users.c.id)
            .where(table.c.user_id == user_id)
            .order_by(users.c.name_key)
        ).mappings()
        return [UserData.from_row(r) for r in rows]


def relation(engine: Engine, user_id: str, target_id: str) -> tuple[bool, bool]:
    """Whether ``user_id`` follows ``target_id``, and whether it blocked them."""
    with engine.connect() as conn:
        found = []
        for table in (follows, blocks):
            row = conn.execute(
                select(table.c.user_id).where(
                    table.c.user_id == user_id, table.c.target_id == target_id
                )
            ).first()
            found.append(row is not None)
    return found[0], found[1]


def users_by_id(engine: Engine, ids: set[str], limit: int) -> list[UserData]:
    """Those accounts, the highest rated first."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(users).where(users.c.id.in_(sorted(ids))).order_by(users.c.rating.desc())
        ).mappings()
        return [UserData.from_row(r) for r in rows][:limit]


def playing(engine: Engine, ids: list[str]) -> dict[str, str]:
    """The game each of these accounts is playing now (moved in within PLAYING_WITHIN)."""
    if not ids:
        return {}
    since = utcnow() - PLAYING_WITHIN
    found: dict[str, str] = {}
    with engine.connect() as conn:
        for column in (games.c.seat0_user, games.c.seat1_user):
            rows = conn.execute(
                select(column, games.c.id)
                .where(column.in_(ids), games.c.status == "active", games.c.updated_at >= since)
                .order_by(games.c.updated_at)
            )
            for user_id, game_id in rows:
                found[user_id] = game_id
    return found


def views(engine: Engine, people: list[UserData], online: set[str]) -> list[PersonView]:
    games_now = playing(engine, [p.id for p in people])
    return [
        PersonView(
            name=p.name,
            bot=p.bot,
            rating=round(p.rating),
            provisional=provisional(p.rd),
            online=p.id in online,
            playing=games_now.get(p.id),
        )
        for p in people
    ]
