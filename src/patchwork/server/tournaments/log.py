"""An event's log: one line per thing that happened to it, written in the transaction that
made it happen (so a line is never missing nor doubled, whichever process wrote it), read by
``patchwork admin tournament ID --log``. ``what`` is one of :data:`WHATS`; ``data`` holds
account ids (named when read: a name may change, an id not) and numbers."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, insert, select

from ..storage.models import users
from ..storage.tournament_tables import tournament_log

WHATS = (
    "created",  # by: the creator
    "joined",  # user
    "withdrew",  # user
    "paused",  # user (arena)
    "resumed",  # user (arena)
    "started",
    "round",  # round, pairs [[first, second], ...], bye (a user or null)
    "no_show",  # round, user (lost, withdrawn or paused), game
    "finished",  # early: bool
    "cancelled",  # by: "admin", "entrants" (fewer than 2 at the start), or the creator
    "removed",  # user (by whoever runs the server)
)
USER_KEYS = ("by", "user", "bye")


@dataclass(frozen=True)
class LogLine:
    at: dt.datetime
    what: str
    data: dict[str, Any]


def note(conn: Connection, tournament_id: str, what: str, at: dt.datetime, **data: Any) -> None:
    assert what in WHATS, what
    conn.execute(
        insert(tournament_log),
        {"tournament_id": tournament_id, "at": at, "what": what, "data": data},
    )


def lines(engine: Engine, tournament_id: str) -> tuple[list[LogLine], dict[str, str]]:
    """The event's lines, oldest first, and the names of the accounts they name."""
    c = tournament_log.c
    q = select(c.at, c.what, c.data).where(c.tournament_id == tournament_id).order_by(c.id)
    with engine.connect() as conn:
        found = [LogLine(r.at, r.what, dict(r.data)) for r in conn.execute(q)]
        ids = {v for line in found for k, v in line.data.items() if k in USER_KEYS and v}
        ids |= {u for line in found for pair in line.data.get("pairs", []) for u in pair}
        named = conn.execute(select(users.c.id, users.c.name).where(users.c.id.in_(ids)))
        names = {r.id: r.name for r in named}
    return found, names
