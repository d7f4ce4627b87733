"""What mail is due, read from the database's state alone: a correspondence game waiting for
a player who takes mail and has not been seen for a while ("turn:<game>:<version>"), and a
correspondence game that ended, for each player who takes mail and has not been on the site
since ("end:<game>:<seat>"). Whatever process reads it, however often, each key is queued
once (the outbox's unique key). Blocking functions, run on the store's threads, except
:func:`mover`, which replays a game (CPU) and runs on a thread of its own."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, or_, select

from ..games.live import LiveGame
from ..people import seen
from ..storage.models import GameData, MoveData, as_utc, games, mail_addresses
from ..storage.store import Store
from . import outbox
from .addresses import AddressData, readers

END_WINDOW = dt.timedelta(days=3)  # a game that ended longer ago than this gets no mail


@dataclass(frozen=True, slots=True)
class Turn:
    game_id: str
    version: int
    users: tuple[str | None, str | None]

    @property
    def key(self) -> str:
        return f"turn:{self.game_id}:{self.version}"


@dataclass(frozen=True, slots=True)
class End:
    game_id: str
    seat: int
    user_id: str
    ended_at: dt.datetime

    @property
    def key(self) -> str:
        return f"end:{self.game_id}:{self.seat}"


@dataclass(frozen=True, slots=True)
class Recipient:
    address: AddressData
    last_seen: dt.datetime | None


def is_correspondence(clock: Any) -> bool:
    return isinstance(clock, dict) and clock.get("kind") == "correspondence"


def _takers() -> Any:
    """The accounts whose address takes mail (a subquery)."""
    return select(mail_addresses.c.user_id).where(
        mail_addresses.c.confirmed_at.is_not(None), mail_addresses.c.stopped_at.is_(None)
    )


def _games(conn: Connection, status: str, *where: Any) -> list[Any]:
    takers = _takers()
    rows = conn.execute(
        select(
            games.c.id,
            games.c.version,
            games.c.clock,
            games.c.seat0_user,
            games.c.seat1_user,
            games.c.updated_at,
        ).where(
            games.c.status == status,
            games.c.clock.is_not(None),
            or_(games.c.seat0_user.in_(takers), games.c.seat1_user.in_(takers)),
            *where,
        )
    )
    return [r for r in rows if is_correspondence(r.clock)]


def turns(engine: Engine) -> list[Turn]:
    """Running correspondence games where a player takes mail and no mail was queued for
    their current version yet."""
    with engine.connect() as conn:
        found = [
            Turn(r.id, int(r.version), (r.seat0_user, r.seat1_user)) for r in _games(conn, "active")
        ]
        done = outbox.existing(conn, [t.key for t in found])
    return [t for t in found if t.key not in done]


def ends(engine: Engine, now: dt.datetime) -> list[End]:
    """The players of correspondence games ended within ``END_WINDOW`` whose address was
    confirmed before the end and who got no mail about it yet."""
    with engine.connect() as conn:
        found = []
        for r in _games(conn, "finished", games.c.updated_at >= now - END_WINDOW):
            ended = as_utc(r.updated_at)
            for seat, user in enumerate((r.seat0_user, r.seat1_user)):
                if user is not None:
                    found.append(End(r.id, seat, user, ended))
        if not found:
            return []
        done = outbox.existing(conn, [e.key for e in found])
        confirmed = {
            r.user_id: as_utc(r.confirmed_at)
            for r in conn.execute(
                select(mail_addresses.c.user_id, mail_addresses.c.confirmed_at).where(
                    mail_addresses.c.user_id.in_({e.user_id for e in found}),
                    mail_addresses.c.confirmed_at.is_not(None),
                )
            )
        }
    return [
        e
        for e in found
        if e.key not in done and e.user_id in confirmed and confirmed[e.user_id] <= e.ended_at
    ]


def recipients(engine: Engine, user_ids: set[str]) -> dict[str, Recipient]:
    """Those of ``user_ids`` who take mail, with when they were last seen."""
    if not user_ids:
        return {}
    with engine.connect() as conn:
        found = readers(conn, sorted(user_ids))
        return {u: Recipient(a, seen.last_seen(conn, u)) for u, a in found.items()}


def load(store: Store, game_id: str) -> tuple[GameData, list[MoveData]] | None:
    """A game's row and moves from one snapshot."""
    found = store.catch_up(game_id, 2**31 - 1, -1, 0)
    return None if found is None else (found[0], found[1])


def mover(data: GameData, line: list[MoveData]) -> int | None:
    """The seat to move in a running game (the engine says: Patchwork's turns do not
    alternate)."""
    if data.status != "active":
        return None
    seat: int | None = LiveGame.build(data, line).game.state.current_player
    return seat


def game(engine: Engine, game_id: str) -> GameData | None:
    with engine.connect() as conn:
        row = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
    return None if row is None else GameData.from_row(row)
