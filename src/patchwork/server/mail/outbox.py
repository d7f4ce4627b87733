"""The outbox (``mails``): each mail queued once under its key ("turn:<game>:<version>",
"end:<game>:<seat>", "confirm:<random>"), claimed by one process before it is sent, marked
sent once the SMTP server took it, tried again later when that failed.

A claim is a conditional update (the row is still unsent, unclaimed or its claim lapsed, and
its ``attempts`` are what this process read), so of several processes exactly one wins it;
its claim lasts ``CLAIM`` and counts as an attempt, so a mail whose sender keeps dying is
given up after ``MAX_ATTEMPTS`` too. Blocking functions, run on the store's threads.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, delete, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from ..common.tokens import token_hash
from ..storage.models import as_utc, mails

CLAIM = dt.timedelta(minutes=2)  # what one send may take, SMTP timeouts included
MAX_ATTEMPTS = 5
BACKOFF = (60, 300, 1800, 7200)  # seconds before the 2nd, 3rd, 4th and 5th attempt
KEEP = dt.timedelta(days=180)  # a mail's row (its stop link works while it is kept)
SENT_BY_US = ("turn", "end")  # the kinds the sender sends (a confirm mail goes at once)


@dataclass(frozen=True, slots=True)
class MailData:
    id: int
    user_id: str
    key: str
    kind: str
    data: dict[str, Any]
    created_at: dt.datetime
    attempts: int


@dataclass(frozen=True, slots=True)
class StopLink:
    """A stop link's secret made for one mail: ``token`` goes in the mail, ``hash`` in its row."""

    token: str
    hash: str

    @classmethod
    def new(cls, mail_id: int) -> StopLink:
        secret = secrets.token_urlsafe(24)
        return cls(f"{mail_id}.{secret}", token_hash(secret))


def _insert(conn: Connection) -> Any:
    return postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert


def queue(engine: Engine, rows: list[dict[str, Any]], now: dt.datetime) -> int:
    """Queue each of ``rows`` (``user_id``, ``key``, ``kind``, ``data``) unless a mail with its
    key exists; the number queued."""
    queued = 0
    with engine.begin() as conn:
        insert = _insert(conn)
        for row in rows:
            stmt = insert(mails).values(**row, created_at=now, attempts=0)
            stmt = stmt.on_conflict_do_nothing(index_elements=["key"]).returning(mails.c.id)
            queued += len(conn.execute(stmt).all())  # (psycopg's rowcount says -1 here)
    return queued


def existing(conn: Connection, keys: list[str]) -> set[str]:
    """Which of ``keys`` are queued (or sent) already."""
    found: set[str] = set()
    for i in range(0, len(keys), 500):
        rows = conn.execute(select(mails.c.key).where(mails.c.key.in_(keys[i : i + 500])))
        found.update(r[0] for r in rows)
    return found


def add_claimed(
    conn: Connection, user_id: str, kind: str, sent_to: str, now: dt.datetime
) -> tuple[int, StopLink]:
    """A mail this process sends at once (a confirmation): queued already claimed, with its
    stop link; its id and that link."""
    result = conn.execute(
        mails.insert()
        .values(
            user_id=user_id,
            key=f"{kind}:{secrets.token_hex(16)}",
            kind=kind,
            data={},
            created_at=now,
            claimed_until=now + CLAIM,
            attempts=1,
            sent_to=sent_to,
        )
        .returning(mails.c.id)
    )
    mail_id = int(result.scalar_one())
    stop = StopLink.new(mail_id)
    conn.execute(update(mails).where(mails.c.id == mail_id).values(stop_hash=stop.hash))
    return mail_id, stop


def count_since(conn: Connection, kind: str, since: dt.datetime, **match: str) -> list[dt.datetime]:
    """When the mails of ``kind`` matching ``match`` (``user_id``, ``sent_to``) made since
    ``since`` were made, oldest first."""
    where = [mails.c.kind == kind, mails.c.created_at > since]
    where += [mails.c[name] == value for name, value in match.items()]
    rows = conn.execute(select(mails.c.created_at).where(*where).order_by(mails.c.created_at))
    return [as_utc(r[0]) for r in rows]


def due(engine: Engine, now: dt.datetime, limit: int = 20) -> list[MailData]:
    """Unsent mails no process holds now, oldest first."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(mails)
            .where(
                mails.c.kind.in_(SENT_BY_US),
                mails.c.sent_at.is_(None),
                mails.c.attempts < MAX_ATTEMPTS,
                or_(mails.c.claimed_until.is_(None), mails.c.claimed_until < now),
            )
            .order_by(mails.c.id)
            .limit(limit)
        ).mappings()
        return [
            MailData(
                id=int(r["id"]),
                user_id=r["user_id"],
                key=r["key"],
                kind=r["kind"],
                data=dict(r["data"]),
                created_at=as_utc(r["created_at"]),
                attempts=int(r["attempts"]),
            )
            for r in rows
        ]


def claim(engine: Engine, mail: MailData, sent_to: str, now: dt.datetime) -> StopLink | None:
    """Claim ``mail`` for this process (None: another one has it, or it was sent); its stop
    link, whose hash is stored with the claim."""
    stop = StopLink.new(mail.id)
    with engine.begin() as conn:
        result = conn.execute(
            update(mails)
            .where(
                mails.c.id == mail.id,
                mails.c.sent_at.is_(None),
                mails.c.attempts == mail.attempts,
                or_(mails.c.claimed_until.is_(None), mails.c.claimed_until < now),
            )
            .values(
                claimed_until=now + CLAIM,
                attempts=mail.attempts + 1,
                sent_to=sent_to,
                stop_hash=stop.hash,
            )
        )
    return stop if result.rowcount == 1 else None


def mark_sent(engine: Engine, mail_id: int, now: dt.datetime) -> None:
    with engine.begin() as conn:
        conn.execute(
            update(mails).where(mails.c.id == mail_id).values(sent_at=now, claimed_until=None)
        )


def mark_failed(engine: Engine, mail_id: int, attempts: int, now: dt.datetime) -> None:
    """The SMTP server did not take it: not again before the backoff of ``attempts``."""
    wait = BACKOFF[min(max(attempts, 1), len(BACKOFF)) - 1]
    with engine.begin() as conn:
        conn.execute(
            update(mails)
            .where(mails.c.id == mail_id, mails.c.sent_at.is_(None))
            .values(claimed_until=now + dt.timedelta(seconds=wait))
        )


def drop(engine: Engine, mail_id: int) -> None:
    """Forget an unsent mail whose address no longer takes mail."""
    with engine.begin() as conn:
        conn.execute(delete(mails).where(mails.c.id == mail_id, mails.c.sent_at.is_(None)))


def drop_unsent(conn: Connection, user_id: str, now: dt.datetime) -> None:
    """Forget the account's queued mails that no process is sending now."""
    conn.execute(
        delete(mails).where(
            mails.c.user_id == user_id,
            mails.c.sent_at.is_(None),
            mails.c.kind.in_(SENT_BY_US),
            or_(mails.c.claimed_until.is_(None), mails.c.claimed_until < now),
        )
    )


def prune(engine: Engine, now: dt.datetime) -> None:
    with engine.begin() as conn:
        conn.execute(delete(mails).where(mails.c.created_at < now - KEEP))


def stop_mail(conn: Connection, token: str) -> tuple[str, str | None] | None:
    """The account and address hash of the mail whose stop link ``token`` is, or None."""
    number, dot, secret = token.partition(".")
    if not dot or not number.isdigit() or len(number) > 18 or not 16 <= len(secret) <= 100:
        return None
    row = conn.execute(
        select(mails.c.user_id, mails.c.sent_to, mails.c.stop_hash).where(mails.c.id == int(number))
    ).first()
    if row is None or row.stop_hash is None:
        return None
    if not secrets.compare_digest(row.stop_hash, token_hash(secret)):
        return None
    return row.user_id, row.sent_to
