"""Challenges to a named player (docs/server.md "Challenges", docs/accounts.md): an account
challenges another with rules, clock, ratedness, takebacks and its seat; the challenged
player accepts (the game starts at once) or declines with a reason; the challenger may
cancel; an unanswered challenge lapses (:func:`ttl`).

The database is the truth. Every change is a guarded write (open and not lapsed), so each
happens once whichever process does it: accepting stores the game and takes the challenge
in one transaction (:class:`~..storage.store.ClaimChallenge`, as a lobby seek is taken), so
a challenge accepted twice, or on two processes at once, makes one game. Lapsed challenges
are found in the database by every process's sweeper, and marked once. After each change
both players hear it on their own sockets (``/ws/me``, people/hub.py) on every process; a
client that was away reads the challenges again (``GET /api/challenges``) when its socket is
back.

A rematch between two accounts is such a challenge (``rematch_of``): the same rules, clock,
ratedness and takebacks, the seats swapped; offering it while the opponent's offer of the
same rematch is open accepts theirs. A game with a guest keeps the in-game rematch.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from typing import Any

from pydantic import BaseModel

from ...i18n import N_
from ..cluster.limits import SharedLimiter
from ..cluster.redis_cluster import Cluster
from ..common.errors import ServerError, too_soon
from ..common.tasks import Background
from ..games.clocks import ClockSpec
from ..games.creation import PairedPlayer, new_id, paired_game_data
from ..games.live import rules_of
from ..games.rematches import between_accounts, link_rematch
from ..games.requests import ClockIn, PairRules
from ..games.service import GameService
from ..notifications.schemas import ChallengeAbout
from ..notifications.service import Notifications
from ..people.hub import People
from ..ratings.rating import find_user
from ..storage.models import GameData, UserData, utcnow
from ..storage.store import ClaimChallenge, StaleWrite
from . import store
from .schemas import (
    ChallengeAccepted,
    ChallengeCancelled,
    ChallengeDeclined,
    ChallengeExpired,
    ChallengeIn,
    ChallengeNew,
)
from .store import ChallengeRow

log = logging.getLogger("patchwork.server")

MAX_OPEN = 3  # open challenges per challenger
LIVE_TTL = dt.timedelta(minutes=10)  # a challenge to a game with a Fischer clock, or none
SLOW_TTL = dt.timedelta(days=3)  # a challenge to a correspondence game
MADE_BURST = 10  # challenges one account makes at once (then MADE_PER_MINUTE)
MADE_PER_MINUTE = 2.0
SWEEP = 3.0  # seconds between two looks for lapsed challenges
KEEP = dt.timedelta(days=30)  # answered challenges are forgotten after this long
PURGE_EVERY = 3600.0  # seconds between two purges


def ttl(clock: ClockIn | None) -> dt.timedelta:
    """How long a challenge waits for an answer: a correspondence game 3 days, any other
    (Fischer or no clock, played at once) 10 minutes."""
    return SLOW_TTL if clock is not None and clock.kind == "correspondence" else LIVE_TTL


def clock_of(game: GameData) -> ClockIn | None:
    """A game's clock as a challenge asks for it."""
    spec = ClockSpec.from_json(game.clock)
    if spec is None:
        return None
    if spec.kind == "correspondence":
        return ClockIn(kind="correspondence", days=spec.days)
    return ClockIn(
        kind="fischer", initial=spec.initial_ms / 1000, increment=spec.increment_ms / 1000
    )


def _closed(row: ChallengeRow, now: dt.datetime) -> ServerError:
    """The refusal of an answer to a challenge no longer open, in words."""
    words = {
        "accepted": N_("this challenge was accepted already"),
        "declined": N_("this challenge was declined"),
        "cancelled": N_("this challenge was cancelled"),
        "expired": N_("this challenge has expired"),
    }
    return ServerError("challenge_closed", words.get(row.status_at(now), words["expired"]))


def _not_found(challenge_id: str) -> ServerError:
    return ServerError(
        "challenge_not_found",
        N_("you have no challenge {challenge_id!r}"),
        {"challenge_id": challenge_id},
    )


class Challenges:
    def __init__(
        self,
        svc: GameService,
        people: People,
        cluster: Cluster | None,
        notifications: Notifications | None = None,
    ) -> None:
        self.svc = svc
        self.engine = svc.store.engine
        self.people = people
        self.notifications = notifications
        self._made = SharedLimiter(MADE_PER_MINUTE / 60, MADE_BURST, cluster)
        self._tasks = Background()
        self._sweeper: asyncio.Task[Any] | None = None

    async def start(self) -> None:
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
        await self._tasks.close()

    async def _db(self, fn: Any, *args: Any) -> Any:
        try:
            return await self.svc.store.call(fn, self.engine, *args)
        except ServerError:
            raise
        except Exception:
            log.exception("challenges could not reach the database")
            raise ServerError("unavailable", N_("the database is unavailable")) from None

    # -- telling both players -----------------------------------------------------------------

    def _tell(self, row: ChallengeRow, message: BaseModel) -> None:
        for user_id in (row.challenger_id, row.challenged_id):
            self.people.deliver(user_id, message)

    async def _tell_ids(self, ids: list[str], kind: type[ChallengeExpired]) -> None:
        now = utcnow()
        for challenge_id in ids:
            row = await self._db(store.read, challenge_id)
            if row is not None:
                self._tell(row, kind(challenge=row.view(now)))

    # -- reading ------------------------------------------------------------------------------

    async def listing(self, user: UserData) -> tuple[list[ChallengeRow], list[ChallengeRow]]:
        """The open challenges to ``user`` and from ``user``."""
        rows: list[ChallengeRow] = await self._db(store.open_of, user.id, utcnow())
        return (
            [r for r in rows if r.challenged_id == user.id],
            [r for r in rows if r.challenger_id == user.id],
        )

    async def one(self, user: UserData, challenge_id: str) -> ChallengeRow:
        """A challenge to or from ``user``, in whatever state."""
        row: ChallengeRow | None = await self._db(store.read, challenge_id)
        if row is None or user.id not in (row.challenger_id, row.challenged_id):
            raise _not_found(challenge_id)
        return row

    # -- making -------------------------------------------------------------------------------

    async def create(self, user: UserData, body: ChallengeIn) -> ChallengeRow:
        """Challenge a player, or offer the rematch of a game; the challenge (accepted at
        once where it answers the opponent's open offer of the same rematch)."""
        if body.rematch_of is not None:
            return await self._rematch(user, body.rematch_of)
        assert body.to is not None
        target: UserData | None = await self._db(find_user, body.to)
        if target is None:
            raise ServerError("not_found", N_("there is no player {name!r}"), {"name": body.to})
        seat = body.seat
        return await self._insert(user, target, body, None, None if seat == "random" else seat)

    async def _rematch(self, user: UserData, game_id: str) -> ChallengeRow:
        old = (await self.svc.get(game_id)).data
        if not between_accounts(old) or user.id not in (old.seat0_user, old.seat1_user):
            raise ServerError(
                "not_allowed",
                N_("only a player of an online game between two accounts offers its rematch"),
            )
        if old.status != "finished":
            raise ServerError("game_not_over", N_("a rematch can be had once the game is over"))
        if old.rematch_id is not None:
            raise ServerError("challenge_closed", N_("this game's rematch was played already"))
        seat = 0 if old.seat0_user == user.id else 1
        other_id = old.user(1 - seat)
        assert other_id is not None
        theirs = await self._db(store.open_rematch, game_id, other_id, user.id, utcnow())
        if theirs is not None:  # both offered: the second offer accepts the first
            return await self.accept(user, theirs.id)
        target = await self._db(store.user_by_id, other_id)
        if target is None:
            raise ServerError("not_found", N_("your opponent's account is gone"))
        body = ChallengeIn(
            to=target.name,
            rules=PairRules(edition=old.edition, rotation=old.rotation, flip=old.flip),  # type: ignore[arg-type]
            clock=clock_of(old),
            rated=old.rated,
            takebacks=old.takebacks,
        )
        return await self._insert(user, target, body, game_id, 1 - seat)

    async def _insert(
        self,
        user: UserData,
        target: UserData,
        body: ChallengeIn,
        rematch_of: str | None,
        seat: int | None,
    ) -> ChallengeRow:
        if target.id == user.id:
            raise ServerError("invalid_request", N_("you cannot challenge yourself"))
        wait = await self._made.wait(f"challenges {user.id}")
        if wait is not None:
            raise too_soon(
                N_("you have made many challenges just now: try again in {seconds:.0f} s"), wait
            )
        now = utcnow()
        challenge_id = new_id()
        row = {
            "id": challenge_id,
            "created_at": now,
            "expires_at": now + ttl(body.clock),
            "challenger_id": user.id,
            "challenged_id": target.id,
            "status": "open",
            "reason": None,
            "rated": body.rated,
            "takebacks": body.rated and body.takebacks,
            "edition": body.rules.edition,
            "rotation": body.rules.rotation,
            "flip": body.rules.flip,
            "clock": None if body.clock is None else body.clock.model_dump(),
            "seat": "random" if seat is None else str(seat),
            "rematch_of": rematch_of,
            "game_id": None,
            "answered_at": None,
        }
        # The challenged player's notification is stored with the challenge, or neither is.
        note = None
        if self.notifications is not None:
            about = ChallengeAbout(challenge_id=challenge_id, by=user.name)
            note = self.notifications.batch([(target.id, about)])
        also = None if note is None else note.write.run
        expired = await self._db(store.insert_challenge, row, MAX_OPEN, now, also)
        await self._tell_ids(expired, ChallengeExpired)
        made: ChallengeRow = await self._db(store.read, challenge_id)
        self._tell(made, ChallengeNew(challenge=made.view(now)))
        if note is not None:
            note.deliver()
        return made

    # -- answering ----------------------------------------------------------------------------

    async def accept(self, user: UserData, challenge_id: str) -> ChallengeRow:
        """Start the challenge's game (once: accepted again, the same game); the challenge,
        with its ``game_id``."""
        row = await self.one(user, challenge_id)
        if row.challenged_id != user.id:
            raise ServerError("not_allowed", N_("only the challenged player accepts a challenge"))
        if row.status == "accepted":
            return row
        now = utcnow()
        if not row.is_open(now):
            raise _closed(row, now)
        players = await self._players(row)
        rules = rules_of(row.edition, row.rotation, row.flip, None)
        data, _ = paired_game_data(
            rules, row.clock_in(), row.rated, players, row.seat_choice(), row.takebacks
        )
        try:
            await self.svc.create_paired(data, [ClaimChallenge(row.id, data.id, now)])
        except StaleWrite:  # answered meanwhile (perhaps accepted on another process)
            again = await self.one(user, challenge_id)
            if again.status == "accepted":
                return again
            raise _closed(again, utcnow()) from None
        done = await self.one(user, challenge_id)
        self._tell(done, ChallengeAccepted(challenge=done.view(utcnow()), game_id=data.id))
        if row.rematch_of is not None:
            self._tasks.spawn(self._link(row.rematch_of, data.id))
        return done

    async def _players(self, row: ChallengeRow) -> tuple[PairedPlayer, PairedPlayer]:
        """The challenger and the challenged player. An account plays its seat by its
        session; a rematch keeps the seats' tokens of the old game too (swapped with the
        seats), so that a page playing by its token follows the players there."""
        hashes: list[str | None] = [None, None]
        if row.rematch_of is not None:
            with contextlib.suppress(ServerError):
                old = (await self.svc.get(row.rematch_of)).data
                for i, user_id in enumerate((row.challenger_id, row.challenged_id)):
                    hashes[i] = next(
                        (old.token_hash(s) for s in (0, 1) if old.user(s) == user_id), None
                    )
        return (
            PairedPlayer(row.challenger_name, row.challenger_id, hashes[0]),
            PairedPlayer(row.challenged_name, row.challenged_id, hashes[1]),
        )

    async def _link(self, old_id: str, new_id: str) -> None:
        try:
            await link_rematch(self.svc, old_id, new_id)
        except Exception:  # its players heard of the new game on their own sockets anyway
            log.warning("could not point game %s to its rematch %s", old_id, new_id)

    async def decline(self, user: UserData, challenge_id: str, reason: str) -> ChallengeRow:
        row = await self.one(user, challenge_id)
        if row.challenged_id != user.id:
            raise ServerError(
                "not_allowed", N_("only the challenged player declines: cancel it instead")
            )
        return await self._close(row, "declined", reason, ChallengeDeclined)

    async def cancel(self, user: UserData, challenge_id: str) -> ChallengeRow:
        row = await self.one(user, challenge_id)
        if row.challenger_id != user.id:
            raise ServerError(
                "not_allowed", N_("only the challenger cancels a challenge: decline it instead")
            )
        return await self._close(row, "cancelled", None, ChallengeCancelled)

    async def _close(
        self,
        row: ChallengeRow,
        status: str,
        reason: str | None,
        kind: type[ChallengeDeclined] | type[ChallengeCancelled],
    ) -> ChallengeRow:
        now = utcnow()
        if not await self._db(store.answer, row.id, status, reason, now):
            again: ChallengeRow = await self._db(store.read, row.id)
            raise _closed(again, utcnow())
        done: ChallengeRow = await self._db(store.read, row.id)
        self._tell(done, kind(challenge=done.view(now)))
        return done

    # -- lapsing ------------------------------------------------------------------------------

    async def _sweep(self) -> None:
        """Every SWEEP seconds mark the lapsed challenges expired and tell their players
        (every process does; each challenge is marked by one); now and then forget the old."""
        since_purge = PURGE_EVERY
        while True:
            await asyncio.sleep(SWEEP)
            try:
                ids = await self._db(store.expire_lapsed, utcnow())
                await self._tell_ids(ids, ChallengeExpired)
                since_purge += SWEEP
                if since_purge >= PURGE_EVERY:
                    since_purge = 0.0
                    await self._db(store.purge, utcnow() - KEEP)
            except ServerError:
                pass  # the database is away: next time
            except Exception:
                log.exception("sweeping the lapsed challenges failed")
