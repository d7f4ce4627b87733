"""The director of tournaments: every process runs one. Each event that is open and whose
start has come, or running, is directed by one process at a time: with ``--redis`` the one
holding the event's lease (``tlease:<id>``, the games' lease mechanism: taken when free,
renewed every tick, free again 3 s after its holder died), else the only process.

Directing, every :data:`EVERY` seconds: at the start, an event with fewer than 2 entrants is
cancelled, any other starts. Finished games give their rows the first player's result. A
game whose player to move has not made a move of theirs for ``no_show`` seconds since their
turn began is lost by them, and they are taken out of the pairings (store.absent).

- Swiss: a round is paired from the entrants who have not withdrawn (standings.
  next_round_players, swiss.pair_round) once every game of the round before is finished;
  the event finishes after its last round, or early when no round can be paired
  (:class:`~.swiss.NoPairing`) or fewer than 2 players are left.
- Arena: until its end, the entrants who are neither playing, paused nor withdrawn are paired
  whenever two or more wait (arena.pair_waiting, in the table's order); each pairing is a
  round of its own. Games under way at the end are played out and count; the arena finishes
  when the last one ends.

Each player paired hears of it (a ``tournament`` notification, stored with their game, or
with the round for a bye).

A round is paired once and never lost, whichever process dies where: its rows (one per pair,
keyed by event, round and first player; the bye a row with no game and result 1) are written
first, with game ids made beforehand, in one transaction that also moves the event to that
round, guarded by the event being at the round before (store.write_round). Only then are
the games created, and every tick creates those of the current round's rows whose game does
not exist yet, so a process that died between the two steps leaves the games to whoever
directs next (a game is created with its id, once: creating it again fails on its key).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import Callable
from functools import partial
from typing import Any

from redis.exceptions import RedisError

from ..cluster.redis_cluster import Cluster
from ..common.errors import ServerError
from ..games.creation import PairedPlayer, new_id, paired_game_data
from ..games.live import rules_of
from ..games.requests import ClockIn
from ..games.service import GameService
from ..notifications.schemas import TournamentAbout
from ..notifications.service import Notifications
from ..storage.models import utcnow
from ..storage.store import Execute, Write
from . import store
from .arena import Waiting, pair_waiting
from .service import arena_table, played, table_entrants
from .standings import next_round_players
from .store import EntrantRow, PairingRow, TournamentRow
from .swiss import BYE_POINTS, NoPairing, Pair, pair_round

log = logging.getLogger("patchwork.server")

EVERY = 0.5  # seconds between two looks at the events to direct
LEASE = "tlease"


def _out(tournament_id: str, game_id: str) -> Callable[[str | None], list[Write]]:
    """What takes a no-show out of the pairings, written with the end of their game."""

    def writes(user: str | None) -> list[Write]:
        if user is None:  # (a tournament's seats are accounts)
            return []
        return [
            Execute(
                partial(
                    store.absent,
                    tournament_id=tournament_id,
                    user_id=user,
                    game_id=game_id,
                    now=utcnow(),
                )
            )
        ]

    return writes


class Director:
    def __init__(
        self,
        svc: GameService,
        cluster: Cluster | None,
        notes: Notifications,
        no_show: float = 60.0,
    ) -> None:
        self.svc = svc
        self.notes = notes
        self.no_show = dt.timedelta(seconds=no_show)
        self.store = svc.store
        self.engine = svc.store.engine
        self.cluster = cluster
        self._held: set[str] = set()
        self._made: set[str] = set()  # games known to exist
        self._task: asyncio.Task[Any] | None = None

    async def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if self.cluster is not None:
            for tournament_id in self._held:
                with contextlib.suppress(RedisError, OSError):
                    await self.cluster.release(tournament_id, LEASE)

    async def _db(self, fn: Any, *args: Any) -> Any:
        return await self.store.call(fn, self.engine, *args)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(EVERY)
            try:
                await self.tick()
            except Exception:
                log.exception("directing the tournaments failed")

    async def tick(self) -> None:
        """Direct once every event this process directs now."""
        ids: list[str] = await self._db(store.due, utcnow())
        if self.cluster is not None:
            try:
                mine = await self.cluster.renew(ids, LEASE)
            except (RedisError, OSError):
                return  # nobody can tell who directs: wait for Redis
            self._held = mine
            ids = [i for i in ids if i in mine]
        for tournament_id in ids:
            try:
                await self.direct(tournament_id)
            except ServerError:
                pass  # the database is away: next time
            except Exception:
                log.exception("directing tournament %s failed", tournament_id)

    async def direct(self, tournament_id: str) -> None:
        row: TournamentRow | None = await self._db(store.read, tournament_id)
        if row is None:
            return
        now = utcnow()
        if row.status == "open":
            if row.starts_at > now:
                return
            if await self._db(store.begin, tournament_id, now) != "running":
                return
            row = await self._db(store.read, tournament_id)
            assert row is not None
        if row.status != "running":
            return
        people: list[EntrantRow] = await self._db(store.entrants, tournament_id)
        rows: list[PairingRow] = await self._db(store.pairings, tournament_id)
        if any(r.result is None for r in rows):
            await self._create_games(row, people, [r for r in rows if r.result is None])
            await self._db(store.record_results, tournament_id, None)
            if await self._no_shows(row, now):
                people = await self._db(store.entrants, tournament_id)
            rows = await self._db(store.pairings, tournament_id)
        if row.kind == "arena":
            await self._arena(row, people, rows, now)
        else:
            await self._swiss(row, people, rows)

    async def _no_shows(self, row: TournamentRow, now: dt.datetime) -> bool:
        """End the games lost by an absent player (GameService.no_show); whether any was."""
        if row.clock is not None and row.clock["kind"] == "correspondence":
            return False  # days a move: the clock itself says when a player is gone
        stale: list[str] = await self._db(store.stale_games, row.id, now - self.no_show)
        ended = False
        for game_id in stale:
            seat = await self.svc.no_show(
                game_id, self.no_show.total_seconds(), _out(row.id, game_id)
            )
            ended = ended or seat is not None
        if ended:
            await self._db(store.record_results, row.id, None)
        return ended

    async def _swiss(
        self, row: TournamentRow, people: list[EntrantRow], rows: list[PairingRow]
    ) -> None:
        if any(r.result is None for r in rows if r.round == row.round):
            return  # games still being played
        if row.round > 0 and row.round >= row.rounds:
            await self._db(store.finish, row.id, utcnow(), False)
            return
        withdrawn = {p.user_id for p in people if p.withdrawn_at is not None}
        if len(people) - len(withdrawn) < 2:
            await self._db(store.finish, row.id, utcnow(), True)
            return
        found, byes = played(rows, people)
        players = next_round_players(table_entrants(people), found, byes, withdrawn)
        try:
            pairing = pair_round(players)
        except NoPairing as e:
            log.info("tournament %s ends early: %s", row.id, e)
            await self._db(store.finish, row.id, utcnow(), True)
            return
        await self._write(row, people, pairing.pairs, pairing.bye)

    async def _arena(
        self, row: TournamentRow, people: list[EntrantRow], rows: list[PairingRow], now: dt.datetime
    ) -> None:
        playing = {u for r in rows if r.result is None for u in (r.first_user, r.second_user)}
        assert row.ends_at is not None
        if now >= row.ends_at:
            if not playing:
                await self._db(store.finish, row.id, utcnow(), False)
            return
        free = {p.user_id for p in people if p.waiting} - playing
        if len(free) < 2:
            return
        last: dict[str, str] = {}
        balance: dict[str, int] = {}
        for r in rows:  # by round: the last opponent is the latest one
            if r.second_user is not None:
                last[r.first_user], last[r.second_user] = r.second_user, r.first_user
                balance[r.first_user] = balance.get(r.first_user, 0) + 1
                balance[r.second_user] = balance.get(r.second_user, 0) - 1
        waiting = [
            Waiting(s.id, last.get(s.id), balance.get(s.id, 0))
            for s in arena_table(people, rows)
            if s.id in free
        ]
        await self._write(row, people, pair_waiting(waiting).pairs, None)

    async def _write(
        self,
        row: TournamentRow,
        people: list[EntrantRow],
        pairs: tuple[Pair, ...],
        bye: str | None,
    ) -> None:
        """Store the next round (its pairs, and a Swiss bye) and start its games."""
        number = row.round + 1
        new = [PairingRow(number, p.first, p.second, new_id(), None) for p in pairs]
        if bye is not None:
            new.append(PairingRow(number, bye, None, None, BYE_POINTS))
        told = self.notes.batch([(bye, self._about(row, number, None, None))] if bye else [])
        if await self._db(store.write_round, row.id, number, new, told.write.run):
            told.deliver()
            await self._create_games(row, people, new)

    @staticmethod
    def _about(
        row: TournamentRow, number: int, game_id: str | None, opponent: str | None
    ) -> TournamentAbout:
        return TournamentAbout(
            tournament_id=row.id,
            tournament=row.name,
            round=number,
            arena=row.kind == "arena",
            game_id=game_id,
            opponent=opponent,
        )

    async def _create_games(
        self, row: TournamentRow, people: list[EntrantRow], current: list[PairingRow]
    ) -> None:
        """Create the games of these rows that do not exist yet (each with its row's id),
        each stored with its players' notifications."""
        wanted = [r for r in current if r.game_id is not None and r.game_id not in self._made]
        if not wanted:
            return
        if len(self._made) > 10_000:  # only the current rounds' are asked about again
            self._made.clear()
        there: set[str] = await self._db(store.existing_games, [r.game_id for r in wanted])
        self._made |= there
        names = {p.user_id: p.name for p in people}
        rules = rules_of(row.edition, row.rotation, row.flip, None)
        clock = None if row.clock is None else ClockIn.model_validate(row.clock)
        for r in wanted:
            if r.game_id in there:
                continue
            assert r.game_id is not None and r.second_user is not None
            first, second = names.get(r.first_user, "?"), names.get(r.second_user, "?")
            players = (
                PairedPlayer(first, r.first_user, None),
                PairedPlayer(second, r.second_user, None),
            )
            data, _ = paired_game_data(rules, clock, row.rated, players, seat=0)
            data.id = r.game_id
            told = self.notes.batch(
                [
                    (r.first_user, self._about(row, r.round, r.game_id, second)),
                    (r.second_user, self._about(row, r.round, r.game_id, first)),
                ]
            )
            await self.svc.create_paired(data, [told.write])
            told.deliver()
            self._made.add(r.game_id)
