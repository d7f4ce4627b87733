"""Ratings (docs/accounts.md, "Ratings"): the AI levels' fixed ratings, rating a finished
rated game once, and the reads behind the profiles and the leaderboard.

Each rated game is its own Glicko-2 rating period (glicko2.py), as on lichess. A game
between two accounts updates both; a game against the AI updates only the person, and only
while they have played no rated game against people (a provisional rating before they meet
people: the AI can't be farmed afterwards). A rating whose deviation is above
:data:`PROVISIONAL_RD` is provisional.

:func:`rate_game` is the store operation: it reads the game and the players' ratings under
row locks, writes their new ratings, their history rows, the game's ``ratings`` (the mark
that it was rated) and the ``rated`` event, all in one transaction.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, and_, case, func, insert, or_, select, update

from ...ai.levels import LEVELS, former
from ..accounts.names import name_key
from ..storage.models import (
    EventData,
    GameData,
    UserData,
    as_utc,
    events,
    games,
    rating_history,
    users,
    utcnow,
)
from ..storage.store import StaleWrite
from . import glicko2
from .glicko2 import Rating

PROVISIONAL_RD = 110.0  # above it a rating is provisional (shown with "?")

# The measured ladder: each level's win rate against the level below, from docs/strength.md
# "Strength: each level against the one below": 200 paired games a step on seed 37000 + N
# (benchmarks/results/ladder/), the top step 55 of 80 games (seeds 9999 and 10001).
MEASURED_WIN_RATES: Mapping[int, float] = {
    2: 0.650, 3: 0.625, 4: 0.715, 5: 0.720, 6: 0.765, 7: 0.695, 8: 0.670, 9: 0.750,
    10: 0.765, 11: 0.660, 12: 0.665, 13: 55 / 80,
}  # fmt: skip
# The anchor: the former beginner (level 1 of the five-level ladder) keeps its 800, so that
# the ratings people earned against the former levels keep their meaning.
ANCHOR_LEVEL = former(1)
ANCHOR_RATING = 800.0
AI_RD = 60.0  # the AI levels' fixed deviation
AI_VOLATILITY = 0.06


def elo_difference(win_rate: float) -> float:
    """The rating difference at which the stronger side scores ``win_rate`` (Elo's logistic
    curve, which Glicko shares)."""
    return 400.0 * math.log10(win_rate / (1.0 - win_rate))


def level_ratings(
    win_rates: Mapping[int, float] = MEASURED_WIN_RATES, anchor: float = ANCHOR_RATING
) -> dict[int, float]:
    """Each AI level's rating: :data:`ANCHOR_LEVEL` at ``anchor``, each level higher than
    the one below by the Elo difference its measured win rate against it means."""
    ratings = {ANCHOR_LEVEL: anchor}
    for level in range(ANCHOR_LEVEL + 1, max(LEVELS) + 1):
        ratings[level] = ratings[level - 1] + elo_difference(win_rates[level])
    for level in range(ANCHOR_LEVEL - 1, min(LEVELS) - 1, -1):
        ratings[level] = ratings[level + 1] - elo_difference(win_rates[level + 1])
    return dict(sorted(ratings.items()))


LEVEL_RATINGS: dict[int, float] = level_ratings()


def ai_rating(level: int) -> Rating:
    return Rating(LEVEL_RATINGS[level], AI_RD, AI_VOLATILITY)


def nearest_level(rating: float) -> int:
    """The AI level whose fixed rating is nearest ``rating`` (the lower one on a tie): the
    bot the lobby offers a player nobody has come for."""
    return min(LEVEL_RATINGS, key=lambda n: (abs(LEVEL_RATINGS[n] - rating), n))


def ai_game_counts(user: UserData) -> bool:
    """Whether a rated game against the AI changes ``user``'s rating: only while they have
    played no rated game against people (the AI can't be farmed afterwards)."""
    return user.people_games == 0


def provisional(rd: float) -> bool:
    return rd > PROVISIONAL_RD


def rating_of(user: UserData) -> Rating:
    return Rating(user.rating, user.rd, user.volatility)


def score_of(winner: int | None, seat: int) -> float:
    """A seat's score: 1 a win, 0 a loss, 0.5 a draw (no winner)."""
    return 0.5 if winner is None else float(winner == seat)


# -- rating a finished game -------------------------------------------------------------------


@dataclass(frozen=True)
class SeatChange:
    """What a rated game does to one seat's account. ``counted`` is False where the game
    does not count for it (against the AI once they have played people; no rated opponent):
    then ``after`` is ``before``."""

    seat: int
    user: UserData
    before: Rating
    after: Rating
    counted: bool
    score: float
    opponent_name: str
    opponent_user: str | None
    opponent: Rating | None
    against_people: bool

    def entry(self) -> dict[str, Any]:
        """The seat's part of ``games.ratings`` (and of the ``rated`` event)."""
        return {
            "before": round(self.before.rating, 2),
            "after": round(self.after.rating, 2),
            "rd": round(self.after.rd, 2),
            "provisional": provisional(self.after.rd),
            "counted": self.counted,
        }


def changes(data: GameData, accounts: Mapping[str, UserData]) -> list[SeatChange | None]:
    """Each seat's change for the finished rated game ``data`` (None: a seat without an
    account), every rating read as it was before the game."""
    seated = [None if (u := data.user(s)) is None else accounts.get(u) for s in (0, 1)]
    result: list[SeatChange | None] = [None, None]
    for seat in (0, 1):
        user = seated[seat]
        if user is None:
            continue
        other = 1 - seat
        opponent_user = seated[other]
        before = rating_of(user)
        opponent: Rating | None = None
        against_people = False
        if data.kind(other) == "ai" and data.ai_level in LEVEL_RATINGS:
            opponent = ai_rating(data.ai_level)
            counted = ai_game_counts(user)
        elif opponent_user is not None and opponent_user.id != user.id:
            opponent = rating_of(opponent_user)
            counted = against_people = True
        else:  # a guest, Automa, or their own other seat: nothing to rate against
            counted = False
        score = score_of(data.winner, seat)
        after = before
        if counted and opponent is not None:
            after = glicko2.rate(before, [glicko2.Game(opponent, score)])
        result[seat] = SeatChange(
            seat=seat,
            user=user,
            before=before,
            after=after,
            counted=counted,
            score=score,
            opponent_name=data.name(other) if opponent_user is None else opponent_user.name,
            opponent_user=None if opponent_user is None else opponent_user.id,
            opponent=opponent,
            against_people=against_people,
        )
    return result


@dataclass(frozen=True)
class RatedGame:
    """A game just rated: its new version and ``ratings``, and the event that says so."""

    game_id: str
    version: int
    updated_at: dt.datetime
    ratings: list[dict[str, Any] | None]
    event: EventData
    seats: list[SeatChange | None]


def rate_game(
    engine: Engine, game_id: str, expected_version: int | None = None
) -> RatedGame | None:
    """Rate the finished rated game ``game_id`` once, in one transaction; None if there is
    nothing to do (no such game, not finished, not rated, or rated already). With
    ``expected_version``, a game at another version raises :class:`StaleWrite`.

    The game's row and then its players' rows are read with row locks (PostgreSQL: SELECT
    ... FOR UPDATE, the users in the order of their ids; SQLite: the database's write lock,
    taken first), so two games finishing at once for one player each see the other's
    update."""
    with engine.begin() as conn:
        return _rate(conn, game_id, expected_version, utcnow())


def _rate(
    conn: Connection, game_id: str, expected_version: int | None, now: dt.datetime
) -> RatedGame | None:
    if conn.dialect.name == "sqlite":
        # SQLite's driver begins the transaction at the first write, and a write takes the
        # database's one write lock: take it before reading, so nobody writes in between.
        conn.execute(update(games).where(games.c.id == game_id).values(version=games.c.version))
    row = (
        conn.execute(select(games).where(games.c.id == game_id).with_for_update())
        .mappings()
        .first()
    )
    if row is None:
        return None
    data = GameData.from_row(row)
    if data.status != "finished" or not data.rated or data.ratings is not None:
        return None
    if expected_version is not None and data.version != expected_version:
        raise StaleWrite(f"game {game_id} is not at version {expected_version}")
    ids = sorted({u for u in (data.seat0_user, data.seat1_user) if u is not None})
    accounts = {
        r["id"]: UserData.from_row(r)
        for r in conn.execute(
            select(users).where(users.c.id.in_(ids)).order_by(users.c.id).with_for_update()
        ).mappings()
    }
    seats = changes(data, accounts)
    for change in seats:
        if change is None or not change.counted:
            continue
        assert change.opponent is not None
        conn.execute(
            insert(rating_history),
            {
                "user_id": change.user.id,
                "game_id": game_id,
                "created_at": now,
                "rating_before": change.before.rating,
                "rd_before": change.before.rd,
                "rating": change.after.rating,
                "rd": change.after.rd,
                "volatility": change.after.volatility,
                "opponent_name": change.opponent_name,
                "opponent_user": change.opponent_user,
                "opponent_rating": change.opponent.rating,
                "score": change.score,
            },
        )
        conn.execute(
            update(users)
            .where(users.c.id == change.user.id)
            .values(
                rating=change.after.rating,
                rd=change.after.rd,
                volatility=change.after.volatility,
                people_games=users.c.people_games + int(change.against_people),
            )
        )
    ratings = [None if c is None else c.entry() for c in seats]
    version = data.version + 1
    done = conn.execute(
        update(games)
        .where(games.c.id == game_id, games.c.version == data.version, games.c.ratings.is_(None))
        .values(ratings=ratings, version=version, updated_at=now)
    )
    if done.rowcount != 1:  # (the row lock makes this impossible; kept as the guard)
        raise StaleWrite(f"game {game_id} changed while it was rated")
    event = EventData(game_id, version, "rated", {"ratings": ratings}, created_at=now)
    conn.execute(
        insert(events),
        {
            "game_id": game_id,
            "version": version,
            "kind": event.kind,
            "data": event.data,
            "created_at": now,
        },
    )
    return RatedGame(game_id, version, now, ratings, event, seats)


def unrated_games(engine: Engine) -> list[str]:
    """The finished rated games not rated yet (their process stopped in between)."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(games.c.id).where(
                games.c.status == "finished", games.c.rated.is_(True), games.c.ratings.is_(None)
            )
        )
        return [r[0] for r in rows]


# -- profiles and the leaderboard ---------------------------------------------------------------


def find_user(engine: Engine, name: str) -> UserData | None:
    """The account called ``name``, regardless of case and look-alikes (accounts/names.py)."""
    with engine.connect() as conn:
        row = (
            conn.execute(select(users).where(users.c.name_key == name_key(name))).mappings().first()
        )
    return None if row is None else UserData.from_row(row)


@dataclass(frozen=True)
class HistoryRow:
    game_id: str
    at: dt.datetime
    rating_before: float
    rd_before: float
    rating: float
    rd: float
    opponent: str
    opponent_rating: float
    score: float


@dataclass(frozen=True)
class Record:
    """An account's finished games: played, won, lost, drawn."""

    played: int
    won: int
    lost: int
    drawn: int


def _mine(user_id: str) -> Any:
    """The games in which the account sat in exactly one seat (not both, at one screen)."""
    return or_(
        and_(games.c.seat0_user == user_id, games.c.seat1_user.is_distinct_from(user_id)),
        and_(games.c.seat1_user == user_id, games.c.seat0_user.is_distinct_from(user_id)),
    )


def history(engine: Engine, user_id: str, limit: int = 500) -> list[HistoryRow]:
    """The account's rating history, oldest first (its last ``limit`` rated games)."""
    h = rating_history.c
    with engine.connect() as conn:
        rows = conn.execute(
            select(rating_history)
            .where(h.user_id == user_id)
            .order_by(h.created_at.desc(), h.id.desc())
            .limit(limit)
        ).mappings()
        found = [
            HistoryRow(
                game_id=r["game_id"],
                at=as_utc(r["created_at"]),
                rating_before=r["rating_before"],
                rd_before=r["rd_before"],
                rating=r["rating"],
                rd=r["rd"],
                opponent=r["opponent_name"],
                opponent_rating=r["opponent_rating"],
                score=r["score"],
            )
            for r in rows
        ]
    return found[::-1]


def record(engine: Engine, user_id: str) -> Record:
    """How the account's finished games went (those in which it sat in one seat)."""
    my_seat = case((games.c.seat0_user == user_id, 0), else_=1)
    with engine.connect() as conn:
        rows = conn.execute(
            select(my_seat, games.c.winner, func.count())
            .where(games.c.status == "finished", _mine(user_id))
            .group_by(my_seat, games.c.winner)
        ).all()
    won = lost = drawn = 0
    for seat, winner, count in rows:
        if winner is None:
            drawn += count
        elif winner == seat:
            won += count
        else:
            lost += count
    return Record(won + lost + drawn, won, lost, drawn)


def recent_games(engine: Engine, user_id: str, limit: int = 20) -> list[GameData]:
    """The account's last ``limit`` finished games, the latest first."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(games)
            .where(games.c.status == "finished", _mine(user_id))
            .order_by(games.c.updated_at.desc())
            .limit(limit)
        ).mappings()
        return [GameData.from_row(r) for r in rows]


@dataclass(frozen=True)
class Standing:
    rank: int
    name: str
    rating: float
    rd: float
    games: int
    bot: bool


def leaderboard(engine: Engine, limit: int) -> list[Standing]:
    """The accounts with an established rating (deviation at most :data:`PROVISIONAL_RD`),
    the highest first, with the number of rated games each has played."""
    played = (
        select(rating_history.c.user_id, func.count().label("games"))
        .group_by(rating_history.c.user_id)
        .subquery()
    )
    with engine.connect() as conn:
        rows = conn.execute(
            select(
                users.c.name,
                users.c.rating,
                users.c.rd,
                func.coalesce(played.c.games, 0),
                users.c.bot,
            )
            .select_from(users.outerjoin(played, played.c.user_id == users.c.id))
            .where(users.c.rd <= PROVISIONAL_RD)
            .order_by(users.c.rating.desc(), users.c.name_key)
            .limit(limit)
        ).all()
    return [
        Standing(rank=i + 1, name=name, rating=rating, rd=rd, games=int(count), bot=bool(bot))
        for i, (name, rating, rd, count, bot) in enumerate(rows)
    ]
