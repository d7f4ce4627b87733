"""Tournaments on the server (docs/server.md "Tournaments"): an account creates a Swiss event
or an arena (its name, rounds or minutes, start, rules, clock, ratedness, who may join,
whether bots may); accounts join and withdraw before the start (an arena also while it runs),
and withdraw during it (not paired again, their games going on); an arena's players pause
and resume. Everyone lists the events and reads one: its entrants, each round's pairings
with their games and results, and the standings (standings.py, arena.py). The director
(director.py) starts the events, pairs and records the rounds and finishes them.

The database is the truth: every change is a guarded write (store.py), so it happens once on
whichever process makes it.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from ...i18n import N_
from ..common.errors import ServerError
from ..games.creation import new_id
from ..games.requests import ClockIn, PairRules
from ..ratings.rating import provisional
from ..storage.models import UserData, utcnow
from ..storage.store import Store
from . import store
from .arena import ArenaPlayer, ArenaStanding, arena_standings
from .schemas import (
    ArenaStandingView,
    EntrantView,
    PairingView,
    RoundView,
    StandingView,
    TournamentDetail,
    TournamentGameView,
    TournamentIn,
    TournamentList,
    TournamentView,
)
from .standings import Bye, Entrant, Game, swiss_standings
from .store import EntrantRow, PairingRow, TournamentRow

log = logging.getLogger("patchwork.server")

MAX_OPEN = 3  # open events per creator
MAX_AHEAD = dt.timedelta(days=7)  # the latest start


def view(row: TournamentRow) -> TournamentView:
    return TournamentView(
        id=row.id,
        name=row.name,
        kind=row.kind,  # type: ignore[arg-type]
        created_by=row.creator,
        created_at=round(row.created_at.timestamp(), 3),
        starts_at=round(row.starts_at.timestamp(), 3),
        rounds=row.rounds,
        minutes=row.minutes,
        ends_at=None if row.ends_at is None else round(row.ends_at.timestamp(), 3),
        rules=PairRules(edition=row.edition, rotation=row.rotation, flip=row.flip),  # type: ignore[arg-type]
        clock=None if row.clock is None else ClockIn.model_validate(row.clock),
        rated=row.rated,
        entry=row.entry,  # type: ignore[arg-type]
        bots_allowed=row.bots_allowed,
        status=row.status,  # type: ignore[arg-type]
        round=row.round,
        finished_at=None if row.finished_at is None else round(row.finished_at.timestamp(), 3),
        ended_early=row.ended_early,
        entrants=row.entrants,
    )


def played(rows: list[PairingRow], people: list[EntrantRow]) -> tuple[list[Game], list[Bye]]:
    """The finished games and the byes, as standings.py takes them (of the entrants still
    there: a deleted account's games and byes are left out)."""
    known = {p.user_id for p in people}
    found = [
        Game(r.round, r.first_user, r.second_user, r.result)
        for r in rows
        if r.second_user in known and r.first_user in known and r.result is not None
    ]
    byes = [
        Bye(r.round, r.first_user) for r in rows if r.second_user is None and r.first_user in known
    ]
    return found, byes


def table_entrants(people: list[EntrantRow]) -> list[Entrant]:
    return [Entrant(p.user_id, p.rating) for p in people]


def arena_table(people: list[EntrantRow], rows: list[PairingRow]) -> list[ArenaStanding]:
    """The arena's table from its finished games, in the order they were paired."""
    results: dict[str, list[float]] = {p.user_id: [] for p in people}
    for r in rows:
        if r.result is not None and r.first_user in results and r.second_user in results:
            results[r.first_user].append(r.result)
            results[str(r.second_user)].append(1.0 - r.result)
    players = [ArenaPlayer(p.user_id, p.rating, tuple(results[p.user_id])) for p in people]
    return arena_standings(players)


def detail(
    row: TournamentRow, people: list[EntrantRow], rows: list[PairingRow]
) -> TournamentDetail:
    names = {p.user_id: p.name for p in people}
    ratings = {p.user_id: p for p in people}
    rounds: dict[int, list[PairingView]] = {}
    for r in rows:
        rounds.setdefault(r.round, []).append(
            PairingView(
                first=names.get(r.first_user, "?"),
                second=None if r.second_user is None else names.get(r.second_user, "?"),
                game_id=r.game_id,
                result=r.result,
            )
        )
    found, byes = played(rows, people)
    arena = row.kind == "arena"
    table = [] if arena else swiss_standings(table_entrants(people), found, byes)
    arena_rows = arena_table(people, rows) if arena else []
    return TournamentDetail(
        **view(row).model_dump(),
        players=[
            EntrantView(
                name=p.name,
                rating=round(p.rating),
                provisional=provisional(p.rd),
                bot=p.bot,
                withdrawn=p.withdrawn_at is not None,
                paused=p.paused_at is not None,
            )
            for p in people
        ],
        rounds_played=[RoundView(round=n, pairings=pairs) for n, pairs in sorted(rounds.items())],
        standings=[
            StandingView(
                place=s.place,
                name=names[s.id],
                score=s.score,
                buchholz=s.buchholz,
                sonneborn_berger=s.sonneborn_berger,
                rating=round(ratings[s.id].rating),
            )
            for s in table
        ],
        arena_standings=[
            ArenaStandingView(
                place=s.place,
                name=names[s.id],
                points=s.points,
                games=s.games,
                rating=round(s.rating),
                on_fire=s.on_fire,
                results=list(s.results),
            )
            for s in arena_rows
        ],
    )


class Tournaments:
    def __init__(self, db: Store, min_lead: float = 10.0) -> None:
        self.store = db
        self.engine = db.engine
        self.min_lead = dt.timedelta(seconds=min_lead)

    async def _db(self, fn: Any, *args: Any) -> Any:
        try:
            return await self.store.call(fn, self.engine, *args)
        except ServerError:
            raise
        except Exception:
            log.exception("tournaments could not reach the database")
            raise ServerError("unavailable", N_("the database is unavailable")) from None

    # -- reading ------------------------------------------------------------------------------

    async def listing(self, status: str, page: int) -> TournamentList:
        rows: list[TournamentRow] = await self._db(store.listing, status, page)
        return TournamentList(
            tournaments=[view(r) for r in rows], page=page, more=len(rows) == store.LISTED
        )

    async def row(self, tournament_id: str) -> TournamentRow:
        found: TournamentRow | None = await self._db(store.read, tournament_id)
        if found is None:
            raise store.not_found(tournament_id)
        return found

    async def one(self, tournament_id: str) -> TournamentDetail:
        row = await self.row(tournament_id)
        people = await self._db(store.entrants, tournament_id)
        rows = await self._db(store.pairings, tournament_id)
        return detail(row, people, rows)

    async def of_game(self, game_id: str) -> TournamentGameView:
        found: tuple[str, int] | None = await self._db(store.of_game, game_id)
        if found is None:
            raise ServerError(
                "tournament_not_found",
                N_("game {game_id!r} is not a tournament's"),
                {"game_id": game_id},
            )
        row = await self.row(found[0])
        return TournamentGameView(
            tournament_id=row.id,
            name=row.name,
            kind=row.kind,  # type: ignore[arg-type]
            status=row.status,  # type: ignore[arg-type]
            round=found[1],
        )

    # -- changing -----------------------------------------------------------------------------

    async def create(self, user: UserData, body: TournamentIn) -> TournamentDetail:
        now = utcnow()
        starts_at = dt.datetime.fromtimestamp(body.starts_at, dt.UTC)
        if not now + self.min_lead <= starts_at <= now + MAX_AHEAD:
            raise ServerError(
                "invalid_request",
                N_("a tournament starts from {lead:.0f} seconds to 7 days from now"),
                {"lead": self.min_lead.total_seconds()},
            )
        if not body.name.strip():
            raise ServerError("invalid_request", N_("give the tournament a name"))
        tournament_id = new_id()
        row = {
            "id": tournament_id,
            "name": body.name.strip(),
            "kind": body.kind,
            "created_by": user.id,
            "created_at": now,
            "starts_at": starts_at,
            "rounds": body.rounds or 0,
            "minutes": body.minutes,
            "entry": body.entry,
            "edition": body.rules.edition,
            "rotation": body.rules.rotation,
            "flip": body.rules.flip,
            "clock": body.clock.model_dump(),
            "rated": body.rated,
            "bots_allowed": body.bots_allowed,
            "status": "open",
            "round": 0,
            "finished_at": None,
            "ended_early": False,
        }
        await self._db(store.insert_tournament, row, MAX_OPEN)
        return await self.one(tournament_id)

    async def join(self, user: UserData, tournament_id: str) -> TournamentDetail:
        row = await self.row(tournament_id)
        if row.status in ("finished", "cancelled"):
            raise store.closed(row.status)
        if user.bot and not row.bots_allowed:
            raise ServerError("not_allowed", N_("this tournament is for people: no bots"))
        if row.entry == "rated" and provisional(user.rd):
            raise ServerError(
                "not_allowed",
                N_("this tournament is for established ratings: play more rated games first"),
            )
        await self._db(store.join, tournament_id, user.id, utcnow())
        return await self.one(tournament_id)

    async def withdraw(self, user: UserData, tournament_id: str) -> TournamentDetail:
        await self.row(tournament_id)
        await self._db(store.withdraw, tournament_id, user.id, utcnow())
        return await self.one(tournament_id)

    async def pause(self, user: UserData, tournament_id: str, on: bool) -> TournamentDetail:
        """An arena's player takes a break (``on``) or comes back."""
        row = await self.row(tournament_id)
        if row.kind != "arena":
            raise ServerError("not_allowed", N_("only an arena's players pause"))
        await self._db(store.pause, tournament_id, user.id, utcnow(), on)
        return await self.one(tournament_id)

    async def cancel(self, user: UserData, tournament_id: str) -> TournamentDetail:
        """Its creator calls off an event that has not started."""
        row = await self.row(tournament_id)
        if row.created_by != user.id:
            raise ServerError("not_allowed", N_("only its creator may cancel a tournament"))
        await self._db(store.cancel, tournament_id, utcnow(), user.id)
        return await self.one(tournament_id)
