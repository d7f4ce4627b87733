"""Each account's mail address (``mail_addresses``): set, replaced or removed by its owner,
confirmed by the link of a mail sent to it, stopped by the link in any mail.

A new address (or the same one again after a stop) waits for its confirmation: nothing but
the confirmation mail goes to it until its link is opened, within ``CONFIRM_DAYS``. Only the
hash of that link's secret is stored. Confirmation mails are limited per account and per
address (``PER_ACCOUNT``, ``PER_ADDRESS`` a day, counted in the outbox, so on every process
alike): a stranger cannot make the server mail someone over and over, from one account or
from many. The same address may be confirmed on several accounts (a person with two): each
asks for its own confirmation, and nobody learns whether another account uses it.
Blocking functions, run on the store's threads.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass
from typing import Literal

from sqlalchemy import Connection, Engine, delete, select, update
from sqlalchemy.dialects import postgresql, sqlite

from ...i18n import N_
from ..common.errors import ServerError
from ..common.tokens import token_hash
from ..storage.models import as_utc, mail_addresses
from . import outbox
from .address import address_key

CONFIRM_DAYS = 7
PER_ACCOUNT = 5  # confirmation mails an account may have sent in a day...
PER_ADDRESS = 3  # ...and one address may receive in a day, from every account together
DAY = dt.timedelta(days=1)


@dataclass(frozen=True, slots=True)
class AddressData:
    user_id: str
    address: str
    created_at: dt.datetime
    confirmed: bool
    stopped: bool
    lang: str

    @property
    def takes_mail(self) -> bool:
        return self.confirmed and not self.stopped


@dataclass(frozen=True, slots=True)
class Pending:
    """A confirmation to send: the address, the link's secret, and the mail's row and stop
    link."""

    address: str
    lang: str
    secret: str
    mail_id: int
    stop: outbox.StopLink


def _data(row: object) -> AddressData:
    r = row._mapping  # type: ignore[attr-defined]
    return AddressData(
        user_id=r["user_id"],
        address=r["address"],
        created_at=as_utc(r["created_at"]),
        confirmed=r["confirmed_at"] is not None,
        stopped=r["stopped_at"] is not None,
        lang=r["lang"],
    )


def _row(conn: Connection, user_id: str, lock: bool = False) -> AddressData | None:
    query = select(mail_addresses).where(mail_addresses.c.user_id == user_id)
    row = conn.execute(query.with_for_update() if lock else query).first()
    return None if row is None else _data(row)


def read(engine: Engine, user_id: str) -> AddressData | None:
    with engine.connect() as conn:
        return _row(conn, user_id)


def readers(conn: Connection, user_ids: list[str]) -> dict[str, AddressData]:
    """The addresses of ``user_ids`` that take mail (confirmed, not stopped)."""
    rows = conn.execute(
        select(mail_addresses).where(
            mail_addresses.c.user_id.in_(user_ids),
            mail_addresses.c.confirmed_at.is_not(None),
            mail_addresses.c.stopped_at.is_(None),
        )
    )
    return {d.user_id: d for d in map(_data, rows)}


def confirmed_since(conn: Connection, user_id: str) -> dt.datetime | None:
    row = conn.execute(
        select(mail_addresses.c.confirmed_at).where(mail_addresses.c.user_id == user_id)
    ).first()
    return None if row is None or row[0] is None else as_utc(row[0])


def _limit(conn: Connection, user_id: str, sent_to: str, now: dt.datetime) -> None:
    since = now - DAY
    mine = outbox.count_since(conn, "confirm", since, user_id=user_id)
    if len(mine) >= PER_ACCOUNT:
        raise ServerError(
            "rate_limited",
            N_("you asked for {limit} confirmation mails today; try again tomorrow"),
            {"limit": PER_ACCOUNT},
            retry_after=round((mine[0] + DAY - now).total_seconds()),
        )
    theirs = outbox.count_since(conn, "confirm", since, sent_to=sent_to)
    if len(theirs) >= PER_ADDRESS:
        raise ServerError(
            "rate_limited",
            N_("this address got {limit} confirmation mails today; try again tomorrow"),
            {"limit": PER_ADDRESS},
            retry_after=round((theirs[0] + DAY - now).total_seconds()),
        )


def _pending(
    conn: Connection, user_id: str, address: str, lang: str, now: dt.datetime, new: bool
) -> Pending:
    """Store a fresh confirmation for the account's ``address`` (a new row when ``new``) and
    its mail, claimed by this process."""
    sent_to = address_key(address)
    _limit(conn, user_id, sent_to, now)
    secret = secrets.token_urlsafe(32)
    fields = {
        "address": address,
        "created_at": now,
        "confirm_hash": token_hash(secret),
        "confirmed_at": None,
        "stopped_at": None,
        "lang": lang,
    }
    if new:
        insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
        stmt = insert(mail_addresses).values(user_id=user_id, **fields)
        conn.execute(stmt.on_conflict_do_update(index_elements=["user_id"], set_=fields))
    else:
        conn.execute(
            update(mail_addresses).where(mail_addresses.c.user_id == user_id).values(**fields)
        )
    outbox.drop_unsent(conn, user_id, now)
    mail_id, stop = outbox.add_claimed(conn, user_id, "confirm", sent_to, now)
    return Pending(address, lang, secret, mail_id, stop)


def set_address(
    engine: Engine, user_id: str, address: str, lang: str, now: dt.datetime
) -> Pending | None:
    """Give the account ``address`` (normalized already): a confirmation to send, or None
    when it is the account's confirmed address already, in any case (then only its spelling
    and language change)."""
    with engine.begin() as conn:
        found = _row(conn, user_id, lock=True)
        same = found is not None and address_key(found.address) == address_key(address)
        if found is not None and same and found.takes_mail:
            conn.execute(
                update(mail_addresses)
                .where(mail_addresses.c.user_id == user_id)
                .values(address=address, lang=lang)
            )
            return None
        return _pending(conn, user_id, address, lang, now, new=found is None)


def resend(engine: Engine, user_id: str, lang: str, now: dt.datetime) -> Pending | None:
    """A new confirmation of the account's address (the old link stops working); None when
    it is confirmed already."""
    with engine.begin() as conn:
        found = _row(conn, user_id, lock=True)
        if found is None:
            raise ServerError("not_found", N_("you have given no mail address"))
        if found.takes_mail:
            return None
        return _pending(conn, user_id, found.address, lang, now, new=False)


def remove(engine: Engine, user_id: str, now: dt.datetime) -> bool:
    with engine.begin() as conn:
        outbox.drop_unsent(conn, user_id, now)
        result = conn.execute(delete(mail_addresses).where(mail_addresses.c.user_id == user_id))
        return result.rowcount > 0


Confirmed = Literal["confirmed", "expired", "unknown"]


def confirm(engine: Engine, secret: str, now: dt.datetime) -> Confirmed:
    """Open a confirmation link: ``confirmed``, ``expired`` (older than ``CONFIRM_DAYS``) or
    ``unknown`` (never made, used already, or replaced by a newer one)."""
    if not 16 <= len(secret) <= 100:
        return "unknown"
    with engine.begin() as conn:
        row = conn.execute(
            select(mail_addresses)
            .where(mail_addresses.c.confirm_hash == token_hash(secret))
            .with_for_update()
        ).first()
        if row is None:
            return "unknown"
        found = _data(row)
        if found.created_at + dt.timedelta(days=CONFIRM_DAYS) < now:
            return "expired"
        conn.execute(
            update(mail_addresses)
            .where(mail_addresses.c.user_id == found.user_id)
            .values(confirmed_at=now, confirm_hash=None)
        )
    return "confirmed"


def stop(engine: Engine, token: str, now: dt.datetime) -> bool:
    """Open a mail's stop link: no more mail to the address it went to, on that account
    (its confirmation link stops working too). False for a link that is no stop link."""
    with engine.begin() as conn:
        found = outbox.stop_mail(conn, token)
        if found is None:
            return False
        user_id, sent_to = found
        current = _row(conn, user_id, lock=True)
        if current is not None and address_key(current.address) == sent_to:
            if not current.stopped:
                conn.execute(
                    update(mail_addresses)
                    .where(mail_addresses.c.user_id == user_id)
                    .values(stopped_at=now, confirm_hash=None)
                )
            outbox.drop_unsent(conn, user_id, now)
    return True
