"""The lobby's rows (``seeks``) and every read and write of them: blocking functions that
the lobby runs on the store's threads (lobby/service.py). Taking a seek for a game is not
here: it is a write of the game's own transaction (:class:`~.store.ClaimSeek`)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, false, func, insert, select, update

from ..games.creation import PairedPlayer
from ..games.requests import ClockIn
from ..ratings.rating import provisional
from ..storage.models import UserData, as_utc, games, seeks, users
from .messages import SeekRules, SeekView

MAX_ROWS = 2000  # the most seeks read at once


@dataclass(frozen=True)
class SeekRow:
    """A row of ``seeks``, with the seats of the game it became (if any)."""

    id: str
    created_at: dt.datetime
    user_id: str | None
    guest_hash: str | None
    name: str
    rating: float | None
    rd: float | None
    quick: bool
    rated: bool
    edition: str
    rotation: bool
    flip: bool
    clock: dict[str, Any] | None
    rating_min: int | None
    rating_max: int | None
    game_id: str | None
    game_seat0_token: str | None = None
    game_seat0_name: str | None = None
    game_seat1_name: str | None = None
    node: str | None = None  # the process holding its creator's connection
    bot: bool = False  # made by a bot account (users.bot)

    @property
    def open(self) -> bool:
        return self.game_id is None

    def clock_in(self) -> ClockIn | None:
        return None if self.clock is None else ClockIn.model_validate(self.clock)

    def rules(self) -> SeekRules:
        return SeekRules(edition=self.edition, rotation=self.rotation, flip=self.flip)  # type: ignore[arg-type]

    def player(self) -> PairedPlayer:
        assert self.guest_hash is not None
        return PairedPlayer(self.name, self.user_id, self.guest_hash)

    def view(self) -> SeekView:
        return SeekView(
            id=self.id,
            name=self.name,
            bot=self.bot,
            rating=None if self.rating is None else round(self.rating),
            provisional=self.rd is not None and provisional(self.rd),
            rated=self.rated,
            rules=self.rules(),
            clock=self.clock_in(),
            rating_min=self.rating_min,
            rating_max=self.rating_max,
            created_at=round(self.created_at.timestamp(), 3),
            mine=False,
        )


# Whether a seek's maker is a bot account (a guest's seek joins no user: false).
_MAKER_IS_BOT = func.coalesce(users.c.bot, false()).label("bot")


def _row(r: Any) -> SeekRow:
    d = {k: v for k, v in dict(r).items() if k != "expires_at"}
    d["created_at"] = as_utc(d["created_at"])
    return SeekRow(**d)


def read_seeks(engine: Engine, now: dt.datetime) -> list[SeekRow]:
    """Every live seek, open or just accepted, oldest first."""
    q = (
        select(
            seeks,
            games.c.seat0_token.label("game_seat0_token"),
            games.c.seat0_name.label("game_seat0_name"),
            games.c.seat1_name.label("game_seat1_name"),
            _MAKER_IS_BOT,
        )
        .select_from(
            seeks.outerjoin(games, games.c.id == seeks.c.game_id).outerjoin(
                users, users.c.id == seeks.c.user_id
            )
        )
        .where(seeks.c.expires_at > now)
        .order_by(seeks.c.created_at)
        .limit(MAX_ROWS)
    )
    with engine.connect() as conn:
        return [_row(r) for r in conn.execute(q).mappings()]


def read_seek(engine: Engine, seek_id: str, now: dt.datetime) -> SeekRow | None:
    q = (
        select(seeks, _MAKER_IS_BOT)
        .select_from(seeks.outerjoin(users, users.c.id == seeks.c.user_id))
        .where(seeks.c.id == seek_id, seeks.c.expires_at > now)
    )
    with engine.connect() as conn:
        r = conn.execute(q).mappings().first()
    return None if r is None else _row(r)


def insert_seek(engine: Engine, row: dict[str, Any]) -> None:
    with engine.begin() as conn:
        conn.execute(insert(seeks), row)


def delete_open(engine: Engine, ids: list[str]) -> int:
    """Withdraw seeks not accepted (an accepted one stays to tell its creator)."""
    with engine.begin() as conn:
        result = conn.execute(delete(seeks).where(seeks.c.id.in_(ids), seeks.c.game_id.is_(None)))
    return int(result.rowcount)


def delete_open_not_of(engine: Engine, nodes: list[str]) -> int:
    """Withdraw the open seeks held by every process but ``nodes`` (theirs died with them)."""
    with engine.begin() as conn:
        result = conn.execute(
            delete(seeks).where(seeks.c.game_id.is_(None), seeks.c.node.not_in(nodes))
        )
    return int(result.rowcount)


def open_seek_nodes(engine: Engine) -> set[str]:
    """The processes holding open seeks."""
    with engine.connect() as conn:
        found = conn.execute(select(seeks.c.node).where(seeks.c.game_id.is_(None)).distinct())
        return {n for n in found.scalars() if n is not None}


def delete_ids(engine: Engine, ids: list[str]) -> None:
    with engine.begin() as conn:
        conn.execute(delete(seeks).where(seeks.c.id.in_(ids)))


def renew(engine: Engine, ids: list[str], now: dt.datetime, until: dt.datetime) -> int:
    """Keep this process's open seeks alive; sweep every expired seek (a dead process's,
    or an accepted one kept long enough); how many were swept."""
    with engine.begin() as conn:
        if ids:
            conn.execute(
                update(seeks)
                .where(seeks.c.id.in_(ids), seeks.c.game_id.is_(None))
                .values(expires_at=until)
            )
        result = conn.execute(delete(seeks).where(seeks.c.expires_at <= now))
    return int(result.rowcount)


def current_user(engine: Engine, user_id: str) -> UserData | None:
    """An account as it is now (its rating changes with every rated game); None: no such
    account."""
    with engine.connect() as conn:
        row = conn.execute(select(users).where(users.c.id == user_id)).mappings().first()
    return None if row is None else UserData.from_row(row)
