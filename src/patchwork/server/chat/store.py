"""Chat's rows (``chat_messages``, ``chat_reports``, ``chat_mutes``) and every read and write
of them: blocking functions run on the store's threads (service.py) or by the admin command
(admin.py). Who blocked whom is the people domain's to say (people/blocks.py)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..people.blocks import blocked, blockers
from ..storage.models import as_utc, chat_messages, chat_mutes, chat_reports, users
from .messages import StoredLine

_LINE = (
    chat_messages.c.id,
    chat_messages.c.room,
    chat_messages.c.user_id,
    chat_messages.c.name,
    chat_messages.c.text,
    chat_messages.c.preset,
    chat_messages.c.seat,
    chat_messages.c.created_at,
)


def _line(r: Any) -> StoredLine:
    d = dict(r._mapping) if hasattr(r, "_mapping") else dict(r)
    d["created_at"] = as_utc(d["created_at"])
    return StoredLine(**d)


class Refused(Exception):
    """What stops a message before it is stored: ``muted`` (with the note) or ``repeated``."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


@dataclass(frozen=True)
class NewLine:
    room: str
    user_id: str | None
    name: str
    text: str
    preset: str | None
    seat: int | None
    created_at: dt.datetime


def _muted(conn: Connection, user_id: str) -> bool:
    row = conn.execute(select(chat_mutes.c.user_id).where(chat_mutes.c.user_id == user_id))
    return row.first() is not None


def add(engine: Engine, line: NewLine) -> tuple[StoredLine, set[str]]:
    """Store ``line`` (Refused when its author is muted site-wide or said the same words last
    in the room): the stored line and the accounts that blocked its author."""
    with engine.begin() as conn:
        if line.user_id is not None and _muted(conn, line.user_id):
            raise Refused("muted")
        author = (
            chat_messages.c.user_id == line.user_id
            if line.user_id is not None
            else chat_messages.c.seat == line.seat
        )
        last = conn.execute(
            select(chat_messages.c.text)
            .where(chat_messages.c.room == line.room, author)
            .order_by(chat_messages.c.id.desc())
            .limit(1)
        ).first()
        if last is not None and last[0] == line.text:
            raise Refused("repeated")
        inserted = conn.execute(
            insert(chat_messages).values(
                room=line.room,
                user_id=line.user_id,
                name=line.name,
                text=line.text,
                preset=line.preset,
                seat=line.seat,
                created_at=line.created_at,
            )
        ).inserted_primary_key
        assert inserted is not None
        new_id = inserted[0]
        hidden = set() if line.user_id is None else blockers(conn, line.user_id)
    stored = StoredLine(id=int(new_id), **{k: getattr(line, k) for k in NewLine.__annotations__})
    return stored, hidden


def recent(
    engine: Engine, room: str, limit: int, readers: list[str]
) -> tuple[list[StoredLine], dict[str, set[str]]]:
    """The room's latest ``limit`` lines, oldest first, and for each of ``readers`` (account
    ids) the authors among them that reader blocked."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(*_LINE)
            .where(chat_messages.c.room == room)
            .order_by(chat_messages.c.id.desc())
            .limit(limit)
        ).all()
        lines = [_line(r) for r in reversed(rows)]
        authors = {x.user_id for x in lines if x.user_id is not None}
        hidden = {
            reader: {a for a in authors if a != reader and blocked(conn, reader, a)}
            for reader in set(readers)
        }
    return lines, hidden


def muted(engine: Engine, user_id: str) -> bool:
    with engine.connect() as conn:
        return _muted(conn, user_id)


def line(engine: Engine, message_id: int) -> StoredLine | None:
    with engine.connect() as conn:
        row = conn.execute(select(*_LINE).where(chat_messages.c.id == message_id)).first()
    return None if row is None else _line(row)


def user_name(engine: Engine, user_id: str) -> str | None:
    with engine.connect() as conn:
        row = conn.execute(select(users.c.name).where(users.c.id == user_id)).first()
    return None if row is None else str(row[0])


def add_report(
    engine: Engine, message_id: int, reporter_id: str, reason: str, now: dt.datetime
) -> bool:
    """Store a report; False if this reporter reported that message already."""
    try:
        with engine.begin() as conn:
            conn.execute(
                insert(chat_reports).values(
                    message_id=message_id, reporter_id=reporter_id, reason=reason, created_at=now
                )
            )
    except IntegrityError:
        return False
    return True


# -- for whoever runs the server (admin.py) --------------------------------------------------


@dataclass(frozen=True)
class Report:
    id: int
    created_at: dt.datetime
    resolved_at: dt.datetime | None
    reason: str
    reporter: str
    line: StoredLine
    author_muted: bool


def reports(engine: Engine, resolved: bool, limit: int) -> list[Report]:
    """Open reports (or, ``resolved``, every report), oldest first."""
    reporter = users.alias("reporter")
    query = (
        select(
            chat_reports.c.id.label("report_id"),
            chat_reports.c.created_at.label("reported_at"),
            chat_reports.c.resolved_at,
            chat_reports.c.reason,
            reporter.c.name.label("reporter"),
            chat_mutes.c.user_id.label("muted"),
            *_LINE,
        )
        .join(chat_messages, chat_messages.c.id == chat_reports.c.message_id)
        .join(reporter, reporter.c.id == chat_reports.c.reporter_id)
        .outerjoin(chat_mutes, chat_mutes.c.user_id == chat_messages.c.user_id)
        .order_by(chat_reports.c.id)
        .limit(limit)
    )
    if not resolved:
        query = query.where(chat_reports.c.resolved_at.is_(None))
    with engine.connect() as conn:
        rows = conn.execute(query).all()
    found = []
    for r in rows:
        m = r._mapping
        found.append(
            Report(
                id=int(m["report_id"]),
                created_at=as_utc(m["reported_at"]),
                resolved_at=None if m["resolved_at"] is None else as_utc(m["resolved_at"]),
                reason=str(m["reason"]),
                reporter=str(m["reporter"]),
                line=_line({k: m[k] for k in StoredLine.__annotations__}),
                author_muted=m["muted"] is not None,
            )
        )
    return found


def resolve(engine: Engine, report_id: int, now: dt.datetime) -> bool:
    """Mark a report resolved; False if there is no such report."""
    with engine.begin() as conn:
        found = conn.execute(
            select(chat_reports.c.resolved_at).where(chat_reports.c.id == report_id)
        ).first()
        if found is None:
            return False
        if found[0] is None:
            conn.execute(
                update(chat_reports).where(chat_reports.c.id == report_id).values(resolved_at=now)
            )
    return True


def mute(engine: Engine, user_id: str, note: str, now: dt.datetime) -> None:
    """Mute an account site-wide (again: the note replaced)."""
    with engine.begin() as conn:
        conn.execute(delete(chat_mutes).where(chat_mutes.c.user_id == user_id))
        conn.execute(insert(chat_mutes).values(user_id=user_id, note=note, created_at=now))


def unmute(engine: Engine, user_id: str) -> bool:
    """False if the account was not muted."""
    with engine.begin() as conn:
        gone = conn.execute(delete(chat_mutes).where(chat_mutes.c.user_id == user_id))
    return bool(gone.rowcount)


@dataclass(frozen=True)
class Mute:
    name: str
    note: str
    created_at: dt.datetime


def mutes(engine: Engine) -> list[Mute]:
    with engine.connect() as conn:
        rows = conn.execute(
            select(users.c.name, chat_mutes.c.note, chat_mutes.c.created_at)
            .join(users, users.c.id == chat_mutes.c.user_id)
            .order_by(chat_mutes.c.created_at)
        ).all()
    return [Mute(str(r[0]), str(r[1]), as_utc(r[2])) for r in rows]
