"""The rows of ``challenges`` and every read and write of them: blocking functions that the
service runs on the store's threads. Accepting is not here: it is a write of the game's own
transaction (:class:`~..storage.store.ClaimChallenge`), guarded by the challenge being open.

A challenge lapses at ``expires_at``: it is open no longer from then on for every reader and
writer (each condition says ``expires_at > now``), whichever process marks it ``expired``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from ...i18n import N_
from ..common.errors import ServerError
from ..games.requests import ClockIn, PairRules
from ..people.blocks import blocked
from ..ratings.rating import provisional
from ..storage.models import Row, UserData, challenges, users
from .schemas import REASONS, ChallengeView

_challenger = aliased(users, name="challenger")
_challenged = aliased(users, name="challenged")
_SELECT = select(
    challenges,
    _challenger.c.name.label("challenger_name"),
    _challenger.c.rating.label("challenger_rating"),
    _challenger.c.rd.label("challenger_rd"),
    _challenger.c.bot.label("challenger_bot"),
    _challenged.c.name.label("challenged_name"),
    _challenged.c.rating.label("challenged_rating"),
    _challenged.c.rd.label("challenged_rd"),
    _challenged.c.bot.label("challenged_bot"),
).select_from(
    challenges.join(_challenger, _challenger.c.id == challenges.c.challenger_id).join(
        _challenged, _challenged.c.id == challenges.c.challenged_id
    )
)
MAX_LISTED = 100  # the most open challenges listed each way (at most 3 each way per player)


@dataclass(frozen=True)
class ChallengeRow(Row):
    """A row of ``challenges`` with both players' names and ratings."""

    TIMES = ("created_at", "expires_at", "answered_at")

    id: str
    created_at: dt.datetime
    expires_at: dt.datetime
    challenger_id: str
    challenged_id: str
    status: str
    reason: str | None
    rated: bool
    takebacks: bool
    edition: str
    rotation: bool
    flip: bool
    clock: dict[str, Any] | None
    seat: str
    rematch_of: str | None
    game_id: str | None
    answered_at: dt.datetime | None
    challenger_name: str
    challenger_rating: float
    challenger_rd: float
    challenger_bot: bool
    challenged_name: str
    challenged_rating: float
    challenged_rd: float
    challenged_bot: bool

    def is_open(self, now: dt.datetime) -> bool:
        return self.status == "open" and self.expires_at > now

    def status_at(self, now: dt.datetime) -> str:
        """Its status as everyone sees it: lapsed is expired, marked so yet or not."""
        return "expired" if self.status == "open" and self.expires_at <= now else self.status

    def clock_in(self) -> ClockIn | None:
        return None if self.clock is None else ClockIn.model_validate(self.clock)

    def seat_choice(self) -> int | None:
        """The challenger's seat (None: drawn when the game starts)."""
        return None if self.seat == "random" else int(self.seat)

    def view(self, now: dt.datetime, reason_text: str | None = None) -> ChallengeView:
        seat = self.seat_choice()
        return ChallengeView(
            id=self.id,
            challenger=self.challenger_name,
            challenger_rating=round(self.challenger_rating),
            challenger_provisional=provisional(self.challenger_rd),
            challenger_bot=self.challenger_bot,
            challenged=self.challenged_name,
            challenged_rating=round(self.challenged_rating),
            challenged_provisional=provisional(self.challenged_rd),
            challenged_bot=self.challenged_bot,
            rules=PairRules(edition=self.edition, rotation=self.rotation, flip=self.flip),  # type: ignore[arg-type]
            clock=self.clock_in(),
            rated=self.rated,
            takebacks=self.takebacks,
            seat="random" if seat is None else seat,  # type: ignore[arg-type]
            rematch_of=self.rematch_of,
            status=self.status_at(now),  # type: ignore[arg-type]
            reason=self.reason,  # type: ignore[arg-type]
            reason_text=reason_text
            if reason_text is not None or self.reason is None
            else REASONS.get(self.reason),
            game_id=self.game_id,
            created_at=round(self.created_at.timestamp(), 3),
            expires_at=round(self.expires_at.timestamp(), 3),
        )


def _read(conn: Connection, challenge_id: str) -> ChallengeRow | None:
    r = conn.execute(_SELECT.where(challenges.c.id == challenge_id)).mappings().first()
    return None if r is None else ChallengeRow.from_row(r)


def read(engine: Engine, challenge_id: str) -> ChallengeRow | None:
    with engine.connect() as conn:
        return _read(conn, challenge_id)


def open_of(engine: Engine, user_id: str, now: dt.datetime) -> list[ChallengeRow]:
    """The open challenges to and from ``user_id``, oldest first."""
    live = (challenges.c.status == "open", challenges.c.expires_at > now)
    found: list[ChallengeRow] = []
    with engine.connect() as conn:
        for column in (challenges.c.challenged_id, challenges.c.challenger_id):
            q = _SELECT.where(column == user_id, *live).order_by(challenges.c.created_at)
            rows = conn.execute(q.limit(MAX_LISTED)).mappings()
            found += [ChallengeRow.from_row(r) for r in rows]
    return found


def open_rematch(
    engine: Engine, game_id: str, challenger_id: str, challenged_id: str, now: dt.datetime
) -> ChallengeRow | None:
    """The open rematch of ``game_id`` that ``challenger_id`` offered ``challenged_id``."""
    q = _SELECT.where(
        challenges.c.rematch_of == game_id,
        challenges.c.challenger_id == challenger_id,
        challenges.c.challenged_id == challenged_id,
        challenges.c.status == "open",
        challenges.c.expires_at > now,
    )
    with engine.connect() as conn:
        r = conn.execute(q).mappings().first()
    return None if r is None else ChallengeRow.from_row(r)


def _expire(conn: Connection, ids: list[str], now: dt.datetime) -> list[str]:
    """Mark these lapsed challenges expired; those this call marked (each is marked once, by
    one caller, on any process: that caller tells the players)."""
    marked = []
    for challenge_id in ids:
        done = conn.execute(
            update(challenges)
            .where(
                challenges.c.id == challenge_id,
                challenges.c.status == "open",
                challenges.c.expires_at <= now,
            )
            .values(status="expired", answered_at=now)
        )
        if done.rowcount == 1:
            marked.append(challenge_id)
    return marked


def _lapsed(conn: Connection, now: dt.datetime, *where: Any, limit: int = 100) -> list[str]:
    q = select(challenges.c.id).where(
        challenges.c.status == "open", challenges.c.expires_at <= now, *where
    )
    return list(conn.execute(q.limit(limit)).scalars())


def expire_lapsed(engine: Engine, now: dt.datetime, limit: int = 100) -> list[str]:
    """Mark expired the open challenges that lapsed (up to ``limit``); those marked here."""
    with engine.begin() as conn:
        return _expire(conn, _lapsed(conn, now, limit=limit), now)


def insert_challenge(
    engine: Engine,
    row: dict[str, Any],
    max_open: int,
    now: dt.datetime,
    also: Callable[[Connection], None] | None = None,
) -> list[str]:
    """Store a new challenge (and ``also``'s rows, in the same transaction): refused
    (ServerError) if either player blocked the other, if the challenger has ``max_open`` open
    challenges already, or one to this player. The challenger's own lapsed challenges are
    marked expired first: their ids are returned."""
    me, them = row["challenger_id"], row["challenged_id"]
    try:
        with engine.begin() as conn:
            # One challenger's challenges are counted one request at a time (PostgreSQL
            # locks the account's row; SQLite has one writer anyway).
            conn.execute(select(users.c.id).where(users.c.id == me).with_for_update())
            if blocked(conn, them, me):
                raise ServerError("blocked", N_("you cannot challenge this player"))
            if blocked(conn, me, them):
                raise ServerError(
                    "blocked", N_("you blocked this player: unblock them to challenge them")
                )
            expired = _expire(conn, _lapsed(conn, now, challenges.c.challenger_id == me), now)
            mine = conn.execute(
                select(challenges.c.challenged_id).where(
                    challenges.c.challenger_id == me, challenges.c.status == "open"
                )
            ).scalars()
            held = list(mine)
            if them in held:
                raise _already_open()
            if len(held) >= max_open:
                raise ServerError(
                    "too_many_challenges",
                    N_("at most {limit} open challenges at a time: cancel one first"),
                    {"limit": max_open},
                )
            conn.execute(insert(challenges), row)
            if also is not None:
                also(conn)
    except IntegrityError:  # the same pair at the same moment, on another process
        raise _already_open() from None
    return expired


def _already_open() -> ServerError:
    return ServerError(
        "challenge_open",
        N_("you have an open challenge to this player already: wait for the answer or cancel it"),
    )


def answer(
    engine: Engine, challenge_id: str, status: str, reason: str | None, now: dt.datetime
) -> bool:
    """Close an open challenge that has not lapsed (declined or cancelled); whether it was."""
    with engine.begin() as conn:
        done = conn.execute(
            update(challenges)
            .where(
                challenges.c.id == challenge_id,
                challenges.c.status == "open",
                challenges.c.expires_at > now,
            )
            .values(status=status, reason=reason, answered_at=now)
        )
    return bool(done.rowcount == 1)


def purge(engine: Engine, before: dt.datetime) -> int:
    """Forget the challenges answered (or lapsed) before ``before``."""
    with engine.begin() as conn:
        done = conn.execute(
            delete(challenges).where(
                challenges.c.status != "open", challenges.c.created_at < before
            )
        )
    return int(done.rowcount)


def user_by_id(engine: Engine, user_id: str) -> UserData | None:
    with engine.connect() as conn:
        row = conn.execute(select(users).where(users.c.id == user_id)).mappings().first()
    return None if row is None else UserData.from_row(row)
