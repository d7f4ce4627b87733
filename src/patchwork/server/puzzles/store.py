"""The database side of puzzle ratings (blocking; run through ``Store.call``): an account's
rating and attempts. The truth is in the tables only: an attempt and the rating it moves are
written in one transaction, so several server processes, or one killed in between, never
count an attempt twice or lose one."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, Table, select, update
from sqlalchemy.dialects import postgresql, sqlite

from ...puzzles import Puzzle
from ..ratings.glicko2 import Rating
from ..storage.models import as_utc, puzzle_attempts, puzzle_ratings, utcnow
from . import rating


@dataclass(frozen=True)
class Standing:
    """An account's puzzle rating (the starting one before any attempt), its rated attempts,
    the puzzles solved at the first attempt, and the puzzles attempted."""

    rating: Rating
    attempts: int
    solved: int
    attempted: frozenset[str]
    updated_at: dt.datetime | None


@dataclass(frozen=True)
class Attempt:
    """An answer (or a give-up) by an account: its rating after, and ``before`` when it was
    the first attempt at the puzzle (the one that counts), else None."""

    after: Rating
    before: Rating | None

    @property
    def change(self) -> float | None:
        return None if self.before is None else self.after.rating - self.before.rating


def _insert_new(conn: Connection, table: Table, row: dict[str, Any]) -> bool:
    """Insert ``row`` unless its primary key is there already (then nothing): whether it was
    new (as RETURNING says: an insert's rowcount is not told by every driver). Under a
    concurrent insert of the same key, PostgreSQL waits for its outcome."""
    insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    done = conn.execute(
        insert(table).values(row).on_conflict_do_nothing().returning(*table.primary_key)
    )
    return done.first() is not None


def _rating(row: Any) -> Rating:
    return Rating(row.rating, row.rd, row.volatility)


def attempt(engine: Engine, user_id: str, puzzle: Puzzle, won: bool) -> Attempt:
    """The account's attempt at ``puzzle``: the first is stored and rated, in one transaction;
    a later one changes nothing.

    The attempt's row is written first (on SQLite that takes the database's write lock before
    anything is read); then the account's rating row is made if missing and read under a row
    lock (PostgreSQL: SELECT ... FOR UPDATE), so two first attempts at once, on different
    puzzles and server processes, each rate from the other's result."""
    now = utcnow()
    r = puzzle_ratings.c
    with engine.begin() as conn:
        first = _insert_new(
            conn,
            puzzle_attempts,
            {"user_id": user_id, "puzzle_id": puzzle.id, "won": won, "created_at": now},
        )
        start = Rating()
        _insert_new(
            conn,
            puzzle_ratings,
            {
                "user_id": user_id,
                "rating": start.rating,
                "rd": start.rd,
                "volatility": start.volatility,
                "attempts": 0,
                "updated_at": now,
            },
        )
        row = conn.execute(
            select(r.rating, r.rd, r.volatility).where(r.user_id == user_id).with_for_update()
        ).one()
        before = _rating(row)
        if not first:
            return Attempt(before, None)
        after = rating.after_attempt(before, puzzle, won)
        conn.execute(
            update(puzzle_ratings)
            .where(r.user_id == user_id)
            .values(
                rating=after.rating,
                rd=after.rd,
                volatility=after.volatility,
                attempts=r.attempts + 1,
                updated_at=now,
            )
        )
    return Attempt(after, before)


def attempted(engine: Engine, user_id: str, puzzle_id: str) -> bool:
    """Whether the account has answered the puzzle or given it up."""
    a = puzzle_attempts.c
    with engine.connect() as conn:
        found = conn.execute(
            select(a.puzzle_id).where(a.user_id == user_id, a.puzzle_id == puzzle_id)
        ).first()
    return found is not None


def standing(engine: Engine, user_id: str) -> Standing:
    """The account's puzzle rating and attempts."""
    r, a = puzzle_ratings.c, puzzle_attempts.c
    with engine.connect() as conn:
        row = conn.execute(select(puzzle_ratings).where(r.user_id == user_id)).first()
        done = conn.execute(select(a.puzzle_id, a.won).where(a.user_id == user_id)).all()
    if row is None:
        return Standing(Rating(), 0, 0, frozenset(), None)
    return Standing(
        rating=_rating(row),
        attempts=row.attempts,
        solved=sum(won for _, won in done),
        attempted=frozenset(p for p, _ in done),
        updated_at=as_utc(row.updated_at),
    )
