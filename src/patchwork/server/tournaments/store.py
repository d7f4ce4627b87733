"""Tournaments in the database (storage/tournament_tables.py): blocking functions, run through
``Store.call`` as the other domains' are. Every change is a guarded write (the event in the
status it must be in, the round the one expected), so it happens once whichever process
makes it; a round's pairs are written in one transaction with the event's new round number,
keyed by (event, round, first player), so a round is paired once (service.py, director.py).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import Connection, Engine, and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ...i18n import N_
from ..common.errors import ServerError
from ..storage.models import Row, games, users, utcnow
from ..storage.tournament_tables import tournament_entrants, tournament_games, tournaments
from .log import note

LISTED = 50  # events per page of the list


@dataclass(frozen=True)
class TournamentRow(Row):
    """A row of ``tournaments``, with its creator's name and how many entrants it has."""

    TIMES = ("created_at", "starts_at", "finished_at")

    id: str
    name: str
    kind: str
    created_by: str | None
    created_at: dt.datetime
    starts_at: dt.datetime
    rounds: int
    minutes: int | None
    entry: str
    edition: str
    rotation: bool
    flip: bool
    clock: dict[str, Any] | None
    rated: bool
    bots_allowed: bool
    status: str
    round: int
    finished_at: dt.datetime | None
    ended_early: bool
    creator: str | None
    entrants: int

    @property
    def ends_at(self) -> dt.datetime | None:
        """An arena's end (None: a Swiss event)."""
        if self.minutes is None:
            return None
        return self.starts_at + dt.timedelta(minutes=self.minutes)


@dataclass(frozen=True)
class EntrantRow(Row):
    """An entrant of an event, with the account's name, rating and whether it is a bot."""

    TIMES = ("joined_at", "withdrawn_at", "paused_at")

    user_id: str
    name: str
    rating: float
    rd: float
    bot: bool
    joined_at: dt.datetime
    withdrawn_at: dt.datetime | None
    paused_at: dt.datetime | None

    @property
    def waiting(self) -> bool:
        """Still in the event and not taking a break."""
        return self.withdrawn_at is None and self.paused_at is None


@dataclass(frozen=True)
class PairingRow:
    """One row of ``tournament_games``: a game of a round, or a bye (``second_user`` None)."""

    round: int
    first_user: str
    second_user: str | None
    game_id: str | None
    result: float | None


_COUNT = (
    select(func.count())
    .where(tournament_entrants.c.tournament_id == tournaments.c.id)
    .where(tournament_entrants.c.withdrawn_at.is_(None))
    .correlate(tournaments)
    .scalar_subquery()
)
_SELECT = select(tournaments, users.c.name.label("creator"), _COUNT.label("entrants")).select_from(
    tournaments.outerjoin(users, users.c.id == tournaments.c.created_by)
)


def not_found(tournament_id: str) -> ServerError:
    return ServerError(
        "tournament_not_found",
        N_("there is no tournament {tournament_id!r}"),
        {"tournament_id": tournament_id},
    )


def read(engine: Engine, tournament_id: str) -> TournamentRow | None:
    with engine.connect() as conn:
        r = conn.execute(_SELECT.where(tournaments.c.id == tournament_id)).mappings().first()
    return None if r is None else TournamentRow.from_row(r)


def listing(engine: Engine, status: str, page: int) -> list[TournamentRow]:
    """The events in ``status``, newest first (by their start), ``LISTED`` a page."""
    q = (
        _SELECT.where(tournaments.c.status == status)
        .order_by(tournaments.c.starts_at.desc(), tournaments.c.id)
        .offset(page * LISTED)
        .limit(LISTED)
    )
    with engine.connect() as conn:
        return [TournamentRow.from_row(r) for r in conn.execute(q).mappings()]


def entrants(engine: Engine, tournament_id: str) -> list[EntrantRow]:
    """Everyone who joined (withdrawn ones too), in the order they joined."""
    q = (
        select(
            tournament_entrants.c.user_id,
            users.c.name,
            users.c.rating,
            users.c.rd,
            users.c.bot,
            tournament_entrants.c.joined_at,
            tournament_entrants.c.withdrawn_at,
            tournament_entrants.c.paused_at,
        )
        .select_from(tournament_entrants.join(users, users.c.id == tournament_entrants.c.user_id))
        .where(tournament_entrants.c.tournament_id == tournament_id)
        .order_by(tournament_entrants.c.joined_at, tournament_entrants.c.user_id)
    )
    with engine.connect() as conn:
        return [EntrantRow.from_row(r) for r in conn.execute(q).mappings()]


def pairings(engine: Engine, tournament_id: str) -> list[PairingRow]:
    """Every round's rows, by round."""
    c = tournament_games.c
    q = (
        select(c.round, c.first_user, c.second_user, c.game_id, c.result)
        .where(c.tournament_id == tournament_id)
        .order_by(c.round, c.first_user)
    )
    with engine.connect() as conn:
        return [PairingRow(**r) for r in conn.execute(q).mappings()]


def of_game(engine: Engine, game_id: str) -> tuple[str, int] | None:
    """The event a game was played in, and its round (None: not a tournament's game)."""
    c = tournament_games.c
    q = select(c.tournament_id, c.round).where(c.game_id == game_id).limit(1)
    with engine.connect() as conn:
        found = conn.execute(q).first()
    return None if found is None else (found.tournament_id, found.round)


# -- entering ----------------------------------------------------------------------------------


def insert_tournament(engine: Engine, row: dict[str, Any], max_open: int) -> None:
    """Store a new event: refused if its creator has ``max_open`` open ones already."""
    me = row["created_by"]
    with engine.begin() as conn:
        # One creator's events are counted one request at a time (PostgreSQL locks the
        # account's row; SQLite has one writer anyway).
        conn.execute(select(users.c.id).where(users.c.id == me).with_for_update())
        held = conn.execute(
            select(func.count()).where(
                tournaments.c.created_by == me, tournaments.c.status == "open"
            )
        ).scalar_one()
        if held >= max_open:
            raise ServerError(
                "too_many_tournaments",
                N_("at most {limit} open tournaments of yours at a time"),
                {"limit": max_open},
            )
        conn.execute(insert(tournaments), row)
        note(conn, row["id"], "created", row["created_at"], by=me)


def _locked(conn: Connection, tournament_id: str) -> str:
    """The event's status, its row locked until the transaction ends (PostgreSQL), so that
    joining and starting happen one after the other."""
    status = conn.execute(
        select(tournaments.c.status).where(tournaments.c.id == tournament_id).with_for_update()
    ).scalar_one_or_none()
    if status is None:
        raise not_found(tournament_id)
    return str(status)


def closed(status: str) -> ServerError:
    words = {
        "running": N_("this tournament has started"),
        "finished": N_("this tournament is over"),
        "cancelled": N_("this tournament was cancelled"),
    }
    return ServerError("tournament_closed", words.get(status, words["finished"]))


def join(engine: Engine, tournament_id: str, user_id: str, now: dt.datetime) -> None:
    """Enter an event before its start, or an arena while it runs."""
    try:
        with engine.begin() as conn:
            status = _locked(conn, tournament_id)
            kind = conn.execute(
                select(tournaments.c.kind).where(tournaments.c.id == tournament_id)
            ).scalar_one()
            if status != "open" and not (status == "running" and kind == "arena"):
                raise closed(status)
            conn.execute(
                insert(tournament_entrants),
                {"tournament_id": tournament_id, "user_id": user_id, "joined_at": now},
            )
            note(conn, tournament_id, "joined", now, user=user_id)
    except IntegrityError:
        raise ServerError("already_joined", N_("you are in this tournament already")) from None


def withdraw(engine: Engine, tournament_id: str, user_id: str, now: dt.datetime) -> None:
    """Before the start the entrant is forgotten (and may join again); during the event they
    are marked withdrawn: not paired from the next round on, their games going on."""
    e = tournament_entrants.c
    mine = and_(e.tournament_id == tournament_id, e.user_id == user_id)
    with engine.begin() as conn:
        status = _locked(conn, tournament_id)
        if status == "open":
            done = conn.execute(delete(tournament_entrants).where(mine))
        elif status == "running":
            done = conn.execute(
                update(tournament_entrants)
                .where(mine, e.withdrawn_at.is_(None))
                .values(withdrawn_at=now)
            )
        else:
            raise closed(status)
        if done.rowcount != 1:
            raise ServerError("not_joined", N_("you are not in this tournament"))
        note(conn, tournament_id, "withdrew", now, user=user_id)


def pause(engine: Engine, tournament_id: str, user_id: str, now: dt.datetime, on: bool) -> None:
    """An arena's player takes a break (``on``: not paired until they come back) or ends it;
    their game under way goes on."""
    e = tournament_entrants.c
    with engine.begin() as conn:
        status = _locked(conn, tournament_id)
        if status not in ("open", "running"):
            raise closed(status)
        done = conn.execute(
            update(tournament_entrants)
            .where(
                e.tournament_id == tournament_id,
                e.user_id == user_id,
                e.withdrawn_at.is_(None),
                e.paused_at.is_(None) if on else e.paused_at.is_not(None),
            )
            .values(paused_at=now if on else None)
        )
        if done.rowcount == 1:
            note(conn, tournament_id, "paused" if on else "resumed", now, user=user_id)
            return
        joined = conn.execute(
            select(e.withdrawn_at).where(e.tournament_id == tournament_id, e.user_id == user_id)
        ).first()
        if joined is None or joined.withdrawn_at is not None:
            raise ServerError("not_joined", N_("you are not in this tournament"))


def remove(engine: Engine, tournament_id: str, user_id: str, now: dt.datetime) -> str:
    """Whoever runs the server takes a player out: forgotten before the start, withdrawn
    during the event; what happened ("forgotten" or "withdrawn")."""
    e = tournament_entrants.c
    mine = and_(e.tournament_id == tournament_id, e.user_id == user_id)
    with engine.begin() as conn:
        status = _locked(conn, tournament_id)
        if status == "open":
            done, what = conn.execute(delete(tournament_entrants).where(mine)), "forgotten"
        elif status == "running":
            done = conn.execute(
                update(tournament_entrants)
                .where(mine, e.withdrawn_at.is_(None))
                .values(withdrawn_at=now)
            )
            what = "withdrawn"
        else:
            raise closed(status)
        if done.rowcount != 1:
            raise ServerError("not_joined", N_("that player is not in this tournament"))
        note(conn, tournament_id, "removed", now, user=user_id)
        return what


def cancel(engine: Engine, tournament_id: str, now: dt.datetime, by: str | None = None) -> None:
    """Call an event off: whoever runs the server an open or running one (``by`` None), its
    creator (``by`` their id) one that has not started. Nothing is paired any more; games
    under way are played on as ordinary games."""
    with engine.begin() as conn:
        status = _locked(conn, tournament_id)
        if status not in ("open", "running") or (by is not None and status != "open"):
            raise closed(status)
        conn.execute(
            update(tournaments)
            .where(tournaments.c.id == tournament_id)
            .values(status="cancelled", finished_at=now)
        )
        note(conn, tournament_id, "cancelled", now, by=by or "admin")


# -- directing (director.py) -------------------------------------------------------------------


def due(engine: Engine, now: dt.datetime) -> list[str]:
    """The events to direct: open ones whose start has come, and running ones."""
    t = tournaments.c
    q = select(t.id).where(((t.status == "open") & (t.starts_at <= now)) | (t.status == "running"))
    with engine.connect() as conn:
        return list(conn.execute(q.order_by(t.starts_at).limit(500)).scalars())


def begin(engine: Engine, tournament_id: str, now: dt.datetime) -> str:
    """Start an open event whose time has come: ``cancelled`` with fewer than 2 entrants,
    else ``running`` (round 0: the first round is paired next); the status it has after."""
    with engine.begin() as conn:
        status = _locked(conn, tournament_id)
        if status != "open":
            return status
        count = conn.execute(
            select(func.count()).where(tournament_entrants.c.tournament_id == tournament_id)
        ).scalar_one()
        values: dict[str, Any] = {"status": "running"}
        if count < 2:
            values = {"status": "cancelled", "finished_at": now}
            note(conn, tournament_id, "cancelled", now, by="entrants")
        else:
            note(conn, tournament_id, "started", now)
        conn.execute(update(tournaments).where(tournaments.c.id == tournament_id).values(values))
        return str(values["status"])


def write_round(
    engine: Engine,
    tournament_id: str,
    number: int,
    rows: Sequence[PairingRow],
    also: Callable[[Connection], None],
) -> bool:
    """Store round ``number``'s rows and make it the event's round, in one transaction
    guarded by the event being running at round ``number - 1``: False if another process
    paired it first (nothing written). ``also`` writes more in that transaction (the byes'
    notifications)."""
    try:
        with engine.begin() as conn:
            done = conn.execute(
                update(tournaments)
                .where(
                    tournaments.c.id == tournament_id,
                    tournaments.c.status == "running",
                    tournaments.c.round == number - 1,
                )
                .values(round=number)
            )
            if done.rowcount != 1:
                return False
            conn.execute(
                insert(tournament_games),
                [{"tournament_id": tournament_id, **asdict(row)} for row in rows],
            )
            pairs = [[r.first_user, r.second_user] for r in rows if r.second_user is not None]
            bye = next((r.first_user for r in rows if r.second_user is None), None)
            note(conn, tournament_id, "round", utcnow(), round=number, pairs=pairs, bye=bye)
            also(conn)
    except IntegrityError:  # the same round, written by another process meanwhile
        return False
    return True


def existing_games(engine: Engine, game_ids: Sequence[str]) -> set[str]:
    with engine.connect() as conn:
        return set(conn.execute(select(games.c.id).where(games.c.id.in_(game_ids))).scalars())


def record_results(engine: Engine, tournament_id: str, number: int | None) -> None:
    """Copy the results of round ``number``'s (None: every round's) finished games into
    their rows: the first player's (seat 0's) 1, 0 or 0.5 (a finished game without a
    winner)."""
    g, c = games.c, tournament_games.c
    q = (
        select(c.round, c.first_user, g.winner)
        .select_from(tournament_games.join(games, games.c.id == c.game_id))
        .where(c.tournament_id == tournament_id, c.result.is_(None), g.status == "finished")
    )
    if number is not None:
        q = q.where(c.round == number)
    with engine.begin() as conn:
        for played, first, winner in conn.execute(q).all():
            result = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
            conn.execute(
                update(tournament_games)
                .where(
                    c.tournament_id == tournament_id,
                    c.round == played,
                    c.first_user == first,
                    c.result.is_(None),
                )
                .values(result=result)
            )


def finish(engine: Engine, tournament_id: str, now: dt.datetime, early: bool) -> None:
    with engine.begin() as conn:
        done = conn.execute(
            update(tournaments)
            .where(tournaments.c.id == tournament_id, tournaments.c.status == "running")
            .values(status="finished", finished_at=now, ended_early=early)
        )
        if done.rowcount == 1:
            note(conn, tournament_id, "finished", now, early=early)


# -- no-shows ----------------------------------------------------------------------------------


def stale_games(engine: Engine, tournament_id: str, before: dt.datetime) -> list[str]:
    """The event's games being played that nothing happened in since ``before``."""
    g, c = games.c, tournament_games.c
    q = (
        select(g.id)
        .select_from(tournament_games.join(games, games.c.id == c.game_id))
        .where(
            c.tournament_id == tournament_id,
            c.result.is_(None),
            g.status == "active",
            g.updated_at <= before,
        )
    )
    with engine.connect() as conn:
        return list(conn.execute(q).scalars())


def absent(
    conn: Connection, tournament_id: str, user_id: str, game_id: str, now: dt.datetime
) -> None:
    """A player lost a game by not showing up (in the transaction that ends it): taken out
    of the pairings (withdrawn from a Swiss event; paused in an arena, where coming back is
    one press), and logged."""
    e = tournament_entrants.c
    row = conn.execute(
        select(tournaments.c.kind, tournaments.c.round).where(tournaments.c.id == tournament_id)
    ).one()
    column = "paused_at" if row.kind == "arena" else "withdrawn_at"
    conn.execute(
        update(tournament_entrants)
        .where(
            e.tournament_id == tournament_id,
            e.user_id == user_id,
            e.withdrawn_at.is_(None),
            e[column].is_(None),
        )
        .values({column: now})
    )
    note(conn, tournament_id, "no_show", now, round=row.round, user=user_id, game=game_id)
