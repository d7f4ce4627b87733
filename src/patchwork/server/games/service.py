"""The game service: the one place where games change.

Every change follows the same path, under the game's lock: check the request (the engine
judges moves), write the change and the event announcing it to the database in one
transaction, and only then change the game in memory and broadcast the new state. So a
change that was broadcast is always in the database, and concurrent requests on one game
are served one at a time (a request made against an old version is refused).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from ...engine import IllegalMoveError, InvalidMoveError, Move, PatchworkError, State
from ...engine.moves import parse_move
from ...i18n import N_
from ..aipool.runner import AIRunner
from ..common.config import Settings
from ..common.errors import ServerError, not_found
from ..common.tokens import token_hash
from ..ratings import rating as ratings
from ..storage.models import EventData, GameData, MoveData, UserData, utcnow
from ..storage.store import (
    AddEvent,
    AddMoves,
    DeleteMoves,
    InsertGame,
    StaleWrite,
    Store,
    UpdateGame,
    Write,
)
from . import clocks
from .clocks import ClockSpec
from .creation import new_game_data, rematch_data, seat_name
from .hub import Connection, Hub
from .live import Caller, LiveGame
from .messages import StateMessage, SyncMessage, UpdateMessage, Welcome, events
from .presence import Presence
from .schemas import CreatedGame, CreateGame, Joined, MoveEvent
from .upkeep import is_idle
from .views import history_entry

if TYPE_CHECKING:
    from ..cluster.node import ClusterNode

log = logging.getLogger("patchwork.server")

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,24}$")
SYNC_EVENTS = 200  # a client further behind than this gets the full state only
AI_RETRY_SECONDS = 2.0  # after a failed write, an AI turn or a flag is tried again


def _finish(state: State, termination: str, winner: int | None) -> dict[str, Any]:
    return {
        "status": "finished",
        "termination": termination,
        "winner": winner,
        "scores": list(state.scores()),
        "turn_started": None,
        "rematch_offer": None,
    }


class GameService:
    def __init__(self, settings: Settings, store: Store, ai: AIRunner, hub: Hub) -> None:
        self.settings = settings
        self.store = store
        self.ai = ai
        self.hub = hub
        self._active: dict[str, LiveGame] = {}
        self._finished: OrderedDict[str, LiveGame] = OrderedDict()
        self._load_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = False
        self.presence = Presence(hub, settings.grace_seconds)
        # One of several processes over one database (--redis): see node.py.
        self.node: ClusterNode | None = None

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        """Load every unfinished game, restart its clock, and resume AI turns."""
        for game_id in await self.store.call(ratings.unrated_games, self.store.engine):
            try:  # finished but not rated: its process stopped in between
                await self._rate(await self.get(game_id))
            except Exception:
                log.exception("game %s could not be rated", game_id)
        ids = await self.store.call(self.store.unfinished)
        if self.node is not None:
            # The other processes may be running: whoever gets a game's lease resumes it.
            for game_id in ids:
                self.node.want(game_id)
            return
        now = time.time()
        for game_id in ids:
            try:
                live = await self._load(game_id)
            except Exception:
                log.exception("game %s could not be rebuilt; it is left out", game_id)
                continue
            if live is None:
                continue
            spec = ClockSpec.from_json(live.data.clock)
            if live.data.turn_started is not None and spec is not None and spec.kind == "fischer":
                # A Fischer turn in progress starts again with the time its player had when
                # it began: the server's downtime is not charged. (Days per move are long
                # enough to count on regardless.)
                await self.store.commit([UpdateGame(live.id, live.version, {"turn_started": now})])
                live.data.turn_started = now
                live.invalidate()
            self._schedule(live)
        if ids:
            log.info("resumed %d unfinished game(s)", len(ids))

    async def close(self) -> None:
        self._closing = True
        for task in list(self._tasks):
            task.cancel()
        for live in [*self._active.values(), *self._finished.values()]:
            self._cancel_timers(live)
        self.hub.close_all()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    def games_in_memory(self) -> int:
        return len(self._active) + len(self._finished)

    # -- loading --------------------------------------------------------------------------

    async def get(self, game_id: str) -> LiveGame:
        if not GAME_ID.match(game_id):
            raise not_found(game_id)
        live = self._active.get(game_id) or self._finished.get(game_id)
        if live is not None:
            if live.data.status == "finished":
                self._finished.move_to_end(game_id)
            else:  # the most recently used last, for eviction
                self._active[game_id] = self._active.pop(game_id)
            if self.node is not None:  # another process may have changed it
                async with live.lock:
                    await self._catch_up(live)
            return live
        async with self._load_lock:
            live = self._active.get(game_id) or self._finished.get(game_id)
            if live is None:
                live = await self._load(game_id)
                if live is not None:  # read back after an eviction: what is due runs again
                    self._schedule(live)
        if live is None:
            raise not_found(game_id)
        return live

    async def _load(self, game_id: str) -> LiveGame | None:
        loaded = await self.store.call(self.store.load, game_id)
        if loaded is None:
            return None
        live = LiveGame.build(*loaded)
        self.presence.start(live)
        if self.node is not None:
            self.hub.remote.pop(live.id, None)  # read afresh, for this copy
            await self.node.load_presence(live)
        self._keep(live)
        return live

    def _keep(self, live: LiveGame) -> None:
        if live.data.status == "finished":
            self._active.pop(live.id, None)
            self._finished[live.id] = live
            self._finished.move_to_end(live.id)
            excess = len(self._finished) - self.settings.finished_cache
            for old_id in list(self._finished)[: max(0, excess)]:
                # A game someone is watching stays, so it never exists twice in memory.
                if not self.hub.has_clients(old_id):
                    self._cancel_timers(self._finished.pop(old_id))
        else:
            self._active[live.id] = live
            if len(self._active) > self.settings.games_cache:
                self._evict_idle(live.id)

    def _evict_idle(self, keep_id: str) -> None:
        """Beyond the cache's size, forget the least recently used unfinished games that
        nothing needs now (``get`` reads them back from the database when asked for)."""
        excess = len(self._active) - self.settings.games_cache
        for old_id in list(self._active):
            if excess <= 0:
                break
            old = self._active[old_id]
            if old_id != keep_id and is_idle(old, self.hub):
                self._cancel_timers(self._active.pop(old_id))
                excess -= 1

    def in_memory(self, game_id: str) -> LiveGame | None:
        return self._active.get(game_id) or self._finished.get(game_id)

    def forget(self, game_id: str) -> None:
        """Drop a game from memory (it was deleted from the database)."""
        for kept in (self._active, self._finished):
            live = kept.pop(game_id, None)
            if live is not None:
                self._cancel_timers(live)

    # -- authorisation --------------------------------------------------------------------

    @staticmethod
    def seats(live: LiveGame, caller: Caller) -> frozenset[int]:
        if not caller:
            raise ServerError("missing_token", N_("this needs the secret token of a seat"))
        seats = live.seats_of(caller)
        if not seats:
            raise ServerError("bad_token", N_("that token plays no seat of this game"))
        return seats

    @staticmethod
    def require_active(live: LiveGame) -> None:
        if live.data.status == "waiting":
            raise ServerError(
                "game_not_started", N_("the game waits for the second player to join")
            )
        if live.data.status == "finished":
            raise ServerError("game_over", N_("the game is over"))

    @staticmethod
    def _check_version(live: LiveGame, version: int | None) -> None:
        if version is not None and version != live.version:
            raise ServerError(
                "stale_version",
                N_(
                    "the game is at version {current}, not {version}: "
                    "look at the new state and choose again"
                ),
                {"current": live.version, "version": version},
                version=live.version,
            )

    # -- committing -----------------------------------------------------------------------

    async def _commit(
        self,
        live: LiveGame,
        kind: str,
        data: dict[str, Any],
        fields: dict[str, Any],
        extra: list[Write] | None = None,
    ) -> EventData:
        """Store a change of ``live`` (fields of its row, the event, ``extra`` writes) in
        one transaction; on success the row in memory takes the new fields."""
        version = live.version + 1
        fields = {**fields, "version": version, "updated_at": utcnow()}
        event = EventData(live.id, version, kind, data)
        writes: list[Write] = [UpdateGame(live.id, live.version, fields), *(extra or [])]
        writes.append(AddEvent(event))
        try:
            await self.store.commit(writes)
        except StaleWrite:
            if self.node is not None:  # another process moved first: ours is refused
                raise ServerError(
                    "stale_version", N_("the game changed elsewhere; try again")
                ) from None
            log.error("game %s changed in the database behind this server's back", live.id)
            self._active.pop(live.id, None)
            self._finished.pop(live.id, None)
            raise ServerError("unavailable", N_("the game changed elsewhere; try again")) from None
        except Exception:
            log.exception("writing game %s failed", live.id)
            raise ServerError(
                "unavailable", N_("the database is unavailable; nothing was changed")
            ) from None
        live.data.update(fields)
        live.invalidate()
        if self.node is not None:
            self.node.committed(live.id, version)
        return event

    def _announce(self, live: LiveGame, event: EventData | None) -> None:
        """Broadcast the change (after it was stored) and arrange what comes next: a move as
        an update (what it changed), any other change as the whole game."""
        self._keep(live)
        if event is not None and event.kind == "move":
            self.hub.broadcast(live.id, self.update_message(live, event))
        else:
            self.hub.broadcast(live.id, self.state_message(live, event))
        if live.data.status == "finished":
            self.presence.disarm(live)
            if live.data.rated and live.data.ratings is None:
                self._spawn(self._rate(live))
        self._schedule(live)

    async def _rate(self, live: LiveGame) -> None:
        """Rate a finished rated game (once: ratings.py) and announce it to its clients as
        the event ``rated``. If that fails, the next start of a server rates it."""
        async with live.lock:
            for _ in range(3):
                if live.data.ratings is not None:
                    return
                try:
                    rated = await self.store.call(
                        ratings.rate_game, self.store.engine, live.id, live.version
                    )
                except StaleWrite:  # another process changed the game: read it, try again
                    rated = None
                except Exception:
                    log.exception("rating game %s failed (the next start rates it)", live.id)
                    return
                if rated is not None:
                    live.data.ratings = rated.ratings
                    live.data.version = rated.version
                    live.data.updated_at = rated.updated_at
                    live.invalidate()
                    if self.node is not None:
                        self.node.committed(live.id, rated.version)
                    self._announce(live, rated.event)
                    return
                if self.node is None:
                    return
                with contextlib.suppress(ServerError):  # rated elsewhere, or changed
                    await self._catch_up(live)

    @staticmethod
    def state_message(live: LiveGame, event: EventData | None) -> StateMessage:
        return StateMessage(
            version=live.version,
            event=None if event is None else events.validate_python(event.message()),
            server_time=round(time.time(), 3),
            game=live.view(),
        )

    @staticmethod
    def update_message(live: LiveGame, event: EventData) -> UpdateMessage:
        move = live.game.moves[-1]
        ply = len(live.movers)
        before, after = live.game.states[-2:]
        return UpdateMessage(
            since=live.version - 1,
            version=live.version,
            event=MoveEvent.model_validate(event.message()),
            server_time=round(time.time(), 3),
            entry=history_entry(ply, live.movers[-1], move, before, after),
            changes=live.play_view(),
        )

    # -- what happens next: AI turns, clocks ----------------------------------------------

    def _schedule(self, live: LiveGame) -> None:
        self._cancel_clock(live)
        if self._closing:
            return
        state = live.game.state
        seat = state.current_player
        if self.node is not None:  # timed work runs where the game's lease is held
            timed = live.data.status == "active" and seat is not None
            timed = timed and (live.data.kind(seat) == "ai" or live.data.turn_started is not None)  # type: ignore[arg-type]
            if not timed:
                self.node.done(live.id)
                return
            if not self.node.holds(live.id):
                self.node.want(live.id)
                return
        if live.data.status != "active":
            return
        if seat is not None and live.data.kind(seat) == "ai" and live.ai_version != live.version:
            live.ai_version = live.version
            live.ai_task = self._spawn(self._ai_turn(live, live.version))
        remaining = live.data.remaining()
        if seat is not None and live.data.turn_started is not None and remaining is not None:
            flag_at = clocks.flag_time(remaining[seat], live.data.turn_started)
            delay = max(0.0, flag_at - time.time()) + 0.005
            loop = asyncio.get_running_loop()
            live.clock_timer = loop.call_later(
                delay, lambda: self._spawn(self._flag_timer(live.id))
            )

    @staticmethod
    def _cancel_clock(live: LiveGame) -> None:
        if live.clock_timer is not None:
            live.clock_timer.cancel()
            live.clock_timer = None

    def _cancel_timers(self, live: LiveGame) -> None:
        self._cancel_clock(live)
        self.presence.disarm(live)

    async def _flag_timer(self, game_id: str) -> None:
        live = self._active.get(game_id)
        if live is None:
            return
        async with live.lock:
            try:
                if self.node is not None:
                    await self._catch_up(live)
                if not await self._check_flag(live):
                    self._schedule(live)  # woke a little early
            except ServerError:  # the database is away: look again in a while
                loop = asyncio.get_running_loop()
                loop.call_later(AI_RETRY_SECONDS, lambda: self._schedule(live))

    async def _check_flag(self, live: LiveGame) -> bool:
        """End the game on time if the running clock is out (call under the lock)."""
        remaining = live.data.remaining()
        seat = live.game.state.current_player
        started = live.data.turn_started
        if live.data.status != "active" or seat is None or started is None or remaining is None:
            return False
        if not clocks.is_flagged(remaining[seat], started, time.time()):
            return False
        fields = _finish(live.game.state, "time", 1 - seat)
        fields[f"remaining{seat}"] = 0
        event = await self._commit(live, "flag", {"seat": seat}, fields)
        self._announce(live, event)
        return True

    async def _ai_turn(self, live: LiveGame, version: int) -> None:
        seat = live.game.state.current_player
        level = live.data.ai_level or 1
        position = live.game.state.to_text()
        seed = (live.data.ai_seed + 7919 * version) % 2**62
        move_text: str | None = None
        for attempt in range(3):
            try:
                move_text = await self.ai.choose(position, level, seed, live.id)
                break
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the AI failed in game %s (attempt %d)", live.id, attempt + 1)
                await asyncio.sleep(0.5 * (attempt + 1))
        if move_text is None:  # the pool keeps failing: the beginner plays, right here
            from ...ai import level as ai_level

            state = State.from_text(position)
            move_text = str(await asyncio.to_thread(ai_level(1, seed=seed).choose, state))
        wait = live.data.updated_at.timestamp() + self.settings.ai_move_delay - time.time()
        if wait > 0:
            await asyncio.sleep(wait)
        async with live.lock:
            if self.node is not None:
                try:
                    await self._catch_up(live)
                except ServerError:  # the database is away: try the turn again in a while
                    live.ai_version = -1
                    asyncio.get_running_loop().call_later(
                        AI_RETRY_SECONDS, lambda: self._schedule(live)
                    )
                    return
            if live.version != version or live.data.status != "active":
                return  # undone, resigned, or flagged meanwhile
            state = live.game.state
            if seat is None or state.current_player != seat:
                return
            try:
                await self._play(live, parse_move(move_text), seat)
            except PatchworkError:
                log.error("the AI chose %r, which the engine refuses", move_text)
            except ServerError:  # the database is away: try the turn again in a while
                live.ai_version = -1
                asyncio.get_running_loop().call_later(
                    AI_RETRY_SECONDS, lambda: self._schedule(live)
                )
            else:
                after = live.game.state
                if live.data.status == "active" and after.current_player not in (None, seat):
                    self.ai.ponder(after.to_text(), level, live.id)  # the person's turn

    # -- creating and joining -------------------------------------------------------------

    async def create(self, req: CreateGame, user: UserData | None = None) -> CreatedGame:
        """A new game; signed in (``user``), the creator's seat is bound to the account."""
        new = new_game_data(req, user)
        data = new.data
        live = LiveGame.build(data, [])
        data.turn_started = self._turn_start(live, live.game.state, time.time())
        event = EventData(data.id, 1, "created", {"mode": data.mode})
        try:
            await self.store.commit([InsertGame(data), AddEvent(event)])
        except Exception:
            log.exception("creating a game failed")
            raise ServerError("unavailable", N_("the database is unavailable")) from None
        self.presence.start(live)
        self._keep(live)
        self._schedule(live)
        paths = self.paths(data.id)
        invite = new.invite
        return CreatedGame(
            game_id=data.id,
            seat=new.seat,
            token=new.token,
            invite_code=invite,
            invite_url=None if invite is None else f"{paths['watch_url']}#invite={invite}",
            **paths,
            game=live.view(),
        )

    async def create_paired(self, data: GameData, claims: list[Write]) -> LiveGame:
        """Start a game the lobby paired (creation.paired_game_data): stored in one
        transaction with ``claims``, the seeks it takes, so that it exists only if every
        seek was still open (else ``StaleWrite``: someone else took one first)."""
        live = LiveGame.build(data, [])
        data.turn_started = self._turn_start(live, live.game.state, time.time())
        event = EventData(data.id, 1, "created", {"mode": data.mode})
        try:
            await self.store.commit([*claims, InsertGame(data), AddEvent(event)])
        except StaleWrite:
            raise
        except Exception:
            log.exception("starting a paired game failed")
            raise ServerError("unavailable", N_("the database is unavailable")) from None
        self.presence.start(live)
        self._keep(live)
        self._schedule(live)
        return live

    @staticmethod
    def paths(game_id: str) -> dict[str, str]:
        return {"watch_url": f"/play/{game_id}", "ws_url": f"/ws/games/{game_id}"}

    def _turn_start(self, live: LiveGame, state: State, now: float) -> float | None:
        """When a clock starts running for the player to move (None: no clock runs)."""
        seat = state.current_player
        if live.data.clock is None or live.data.status != "active" or seat is None:
            return None
        return now if live.data.kind(seat) == "human" else None

    async def join(
        self, game_id: str, invite: str, name: str | None, user: UserData | None = None
    ) -> Joined:
        """Take the free seat of an online game; signed in (``user``), it is bound to the
        account and carries its name."""
        live = await self.get(game_id)
        async with live.lock:
            data = live.data
            if data.mode != "online":
                raise ServerError("not_allowed", N_("only online games take a second player"))
            if data.status != "waiting":
                raise ServerError("seat_taken", N_("both seats of this game are taken"))
            if data.invite_hash is None or not secrets.compare_digest(
                data.invite_hash, token_hash(invite)
            ):
                raise ServerError("invite_invalid", N_("that invitation is not this game's"))
            seat = 0 if data.seat0_token is None else 1
            if user is not None and data.user(1 - seat) == user.id:
                raise ServerError(
                    "not_allowed", N_("your account already plays the other seat of this game")
                )
            name = user.name if user is not None else name or seat_name(seat)
            token = secrets.token_urlsafe(24)
            fields: dict[str, Any] = {
                f"seat{seat}_token": token_hash(token),
                f"seat{seat}_name": name,
                f"seat{seat}_user": None if user is None else user.id,
                "invite_hash": None,
                "status": "active",
            }
            if data.clock is not None:
                s = live.game.state.current_player
                fields["turn_started"] = time.time() if s is not None else None
            event = await self._commit(live, "joined", {"seat": seat, "name": name}, fields)
            self.presence.reset(live, seat)  # the newcomer's grace period starts now
            self._announce(live, event)
            return Joined(game_id=live.id, seat=seat, token=token, game=live.view())  # type: ignore[arg-type]

    # -- playing --------------------------------------------------------------------------

    async def move(self, game_id: str, caller: Caller, text: str, version: int) -> LiveGame:
        live = await self.get(game_id)
        async with live.lock:
            seats = self.seats(live, caller)
            self.require_active(live)
            state = live.game.state
            seat = state.current_player
            assert seat is not None
            if seat not in seats:
                raise ServerError(
                    "not_your_turn", N_("it is player {seat}'s turn"), {"seat": seat}, to_move=seat
                )
            self._check_version(live, version)
            if await self._check_flag(live):
                raise ServerError(
                    "flagged",
                    N_("player {seat} ran out of time: the game is over"),
                    {"seat": seat},
                )
            try:
                move = parse_move(text)
            except InvalidMoveError as e:
                raise ServerError("invalid_move", e.template, e.params) from None
            try:
                await self._play(live, move, seat)
            except IllegalMoveError as e:
                raise ServerError("illegal_move", e.template, e.params, plain=e.plain) from None
        return live

    async def _play(self, live: LiveGame, move: Move, seat: int) -> None:
        """Play a move, store it and broadcast it (call under the lock). The game's push
        judges it, once (IllegalMoveError: nothing changed); if it cannot be stored, it is
        taken back."""
        live.play_view()  # the view of the stored game, made before the game moves on
        after = live.game.push(move)
        try:
            event = await self._store_move(live, move, seat, after)
        except BaseException:
            live.game.pop()
            raise
        live.movers.append(seat)
        live.invalidate()
        self._announce(live, event)

    async def _store_move(self, live: LiveGame, move: Move, seat: int, after: State) -> EventData:
        """Write the move just pushed, with the clock and the result it brings."""
        now = time.time()
        ply = len(live.game)
        fields: dict[str, Any] = {}
        remaining = live.data.remaining()
        spec = ClockSpec.from_json(live.data.clock)
        mover_time: int | None = None
        if spec is not None and remaining is not None and live.data.turn_started is not None:
            mover_time = clocks.after_move(spec, remaining[seat], live.data.turn_started, now)
            fields[f"remaining{seat}"] = mover_time
        fields["turn_started"] = self._turn_start(live, after, now)
        if after.is_terminal():
            fields.update(_finish(after, "finished", after.winner()))
        row = MoveData(live.id, ply, seat, str(move), remaining=mover_time)
        return await self._commit(
            live, "move", {"ply": ply, "seat": seat, "move": str(move)}, fields, [AddMoves([row])]
        )

    async def undo(self, game_id: str, caller: Caller, version: int | None) -> LiveGame:
        live = await self.get(game_id)
        async with live.lock:
            seats = self.seats(live, caller)
            if live.data.mode == "online":
                raise ServerError("not_allowed", N_("moves are taken back only against the AI"))
            if live.data.rated:
                raise ServerError("not_allowed", N_("a rated game's moves cannot be taken back"))
            self.require_active(live)
            self._check_version(live, version)
            humans = [s for s in seats if live.data.kind(s) == "human"]
            # Back to before the last move a person made (with the AI's answers after it).
            keep = max((i for i, s in enumerate(live.movers) if s in humans), default=None)
            if keep is None:
                raise ServerError("nothing_to_undo", N_("there is no move of yours to take back"))
            removed = [str(m) for m in live.game.moves[keep:]]
            back_to = live.game.states[keep]
            fields = {"turn_started": self._turn_start(live, back_to, time.time())}
            event = await self._commit(
                live,
                "undo",
                {"removed": removed, "ply": keep},
                fields,
                [DeleteMoves(live.id, keep + 1)],
            )
            for _ in removed:  # stored: now the game in memory goes back too
                live.game.pop()
            live.movers = live.movers[:keep]
            live.invalidate()
            self._announce(live, event)
        return live

    async def resign(self, game_id: str, caller: Caller) -> LiveGame:
        live = await self.get(game_id)
        async with live.lock:
            seats = self.seats(live, caller)
            self.require_active(live)
            to_move = live.game.state.current_player
            seat = to_move if len(seats) == 2 and to_move is not None else min(seats)
            fields = _finish(live.game.state, "resigned", 1 - seat)
            event = await self._commit(live, "resign", {"seat": seat}, fields)
            self._announce(live, event)
        return live

    async def claim(self, game_id: str, caller: Caller) -> LiveGame:
        live = await self.get(game_id)
        async with live.lock:
            seats = self.seats(live, caller)
            if live.data.mode != "online":
                raise ServerError("not_allowed", N_("only an online game can be claimed"))
            self.require_active(live)
            seat = min(seats)
            claim_from = self.presence.claim_from(live, 1 - seat)
            if claim_from is None:
                raise ServerError("not_allowed", N_("your opponent is connected"))
            now = time.time()
            if now < claim_from:
                raise ServerError(
                    "claim_too_early",
                    N_("your opponent has {seconds:.1f} s left to come back"),
                    {"seconds": claim_from - now},
                    retry_after=round(claim_from - now, 3),
                )
            fields = _finish(live.game.state, "abandoned", seat)
            event = await self._commit(live, "claim", {"seat": seat}, fields)
            self._announce(live, event)
        return live

    async def rematch(
        self, game_id: str, caller: Caller, action: str
    ) -> tuple[LiveGame, str | None]:
        live = await self.get(game_id)
        async with live.lock:
            seats = self.seats(live, caller)
            data = live.data
            if data.status != "finished":
                raise ServerError("game_not_over", N_("a rematch can be had once the game is over"))
            if data.rematch_id is not None:
                return live, data.rematch_id
            seat = min(seats)
            offer = data.rematch_offer
            both_here = data.mode != "online" or len(seats) == 2
            if action == "decline":
                if offer is None:
                    raise ServerError("no_rematch_offer", N_("no rematch has been offered"))
                event = await self._commit(
                    live, "rematch_decline", {"seat": seat}, {"rematch_offer": None}
                )
                self._announce(live, event)
                return live, None
            if both_here or (offer is not None and offer != seat):
                new_id = await self._create_rematch(live)
                return live, new_id
            if action == "accept":
                raise ServerError("no_rematch_offer", N_("your opponent has not offered a rematch"))
            if offer == seat:
                return live, None
            event = await self._commit(
                live, "rematch_offer", {"seat": seat}, {"rematch_offer": seat}
            )
            self._announce(live, event)
            return live, None

    async def _create_rematch(self, old: LiveGame) -> str:
        data = rematch_data(old.data)
        live = LiveGame.build(data, [])
        data.turn_started = self._turn_start(live, live.game.state, time.time())
        created = EventData(data.id, 1, "created", {"mode": data.mode, "parent_id": old.id})
        event = await self._commit(
            old,
            "rematch",
            {"game_id": data.id},
            {"rematch_id": data.id, "rematch_offer": None},
            [InsertGame(data), AddEvent(created)],
        )
        self.presence.start(live)
        self._keep(live)
        self._schedule(live)
        self._announce(old, event)
        return data.id

    # -- websocket clients ----------------------------------------------------------------

    async def events_since(self, live: LiveGame, since: int) -> list[EventData]:
        return await self.store.call(self.store.events_since, live.id, since, SYNC_EVENTS)

    async def attach(self, conn: Connection, last_version: int | None) -> LiveGame:
        """Register a client and send it the welcome and what it missed (or the full state).

        Done under the game's lock, so that no change falls between the snapshot the client
        gets and the broadcasts it receives."""
        live = await self.get(conn.game_id)
        async with live.lock:
            seats = sorted(conn.seats)
            conn.send(
                Welcome(
                    game_id=live.id,
                    seats=seats,  # type: ignore[arg-type]
                    role="player" if seats else "spectator",
                    version=live.version,
                    server_time=round(time.time(), 3),
                )
            )
            if last_version is not None and 0 <= live.version - last_version <= SYNC_EVENTS:
                missed = await self.events_since(live, last_version)
                conn.send(sync_message(live, last_version, missed))
            else:
                conn.send(self.state_message(live, None))
            self.hub.add(conn)
            if self.node is not None:
                # What another process committed while this client was greeted: its
                # announcement was not for this process yet (it had no client here).
                await self._catch_up(live)
            if not self.presence.arrived(live, conn.seats):
                conn.send(self.presence.message(live))
        if self.node is not None:
            self.node.presence_changed(live.id)
        return live

    def detach(self, conn: Connection) -> None:
        self.hub.remove(conn)
        live = self._active.get(conn.game_id) or self._finished.get(conn.game_id)
        if live is not None and not self._closing:
            self.presence.left(live, conn.seats)
        if self.node is not None and not self._closing:
            self.node.presence_changed(conn.game_id)

    # -- several processes (--redis) ------------------------------------------------------

    async def catch_up(self, live: LiveGame, announced: int | None = None) -> None:
        """Bring the game in memory up to the database (another process changed it, and
        announced version ``announced``, when known)."""
        async with live.lock:
            if announced is not None and live.version >= announced:
                return  # caught up meanwhile
            # The database away: the next request or announcement tries again.
            with contextlib.suppress(ServerError):
                await self._catch_up(live, behind=announced is not None)

    async def stored_elsewhere(self, game_id: str, version: int) -> None:
        """A change of the game was written to the database outside this service (an
        account deleted): the copy in memory, if any, catches up and tells its clients, and
        the other processes are told."""
        live = self.in_memory(game_id)
        if live is not None:
            with contextlib.suppress(ServerError):  # (gone, or the database away: next time)
                async with live.lock:
                    await self._catch_up(live)
        if self.node is not None:
            self.node.committed(game_id, version)

    async def _catch_up(self, live: LiveGame, behind: bool = False) -> None:
        """(Under the lock.) If the database holds a later version of the game than memory,
        read what changed and tell this process's clients, in version order: one move as an
        ``update``, more as a ``sync`` of the events missed. A process that cannot read the
        database refuses (``unavailable``) rather than answer from its copy."""
        try:
            if not behind:  # (an announcement of a later version says so already)
                stored = await self.store.call(self.store.version_of, live.id)
                if stored is None:
                    self.forget(live.id)
                    raise not_found(live.id)
                if stored <= live.version:
                    return
            found = await self.store.call(
                self.store.catch_up, live.id, live.version, len(live.movers), SYNC_EVENTS
            )
        except ServerError:
            raise
        except Exception:
            log.exception("reading game %s failed", live.id)
            raise ServerError("unavailable", N_("the database is unavailable")) from None
        if found is None:
            self.forget(live.id)
            raise not_found(live.id)
        data, line, missed = found
        since = live.version
        if data.version <= since:
            return
        missed = [e for e in missed if e.version <= data.version]
        if not self._push_stored(live, line, missed):  # an undo: rebuild it whole
            loaded = await self.store.call(self.store.load, live.id)
            if loaded is None:
                self.forget(live.id)
                raise not_found(live.id)
            rebuilt = LiveGame.build(*loaded)
            data = rebuilt.data
            live.game, live.movers = rebuilt.game, rebuilt.movers
        live.data = data
        live.invalidate()
        self._keep(live)
        if len(missed) == 1 and missed[0].kind == "move" and len(line) == 1:
            self.hub.broadcast(live.id, self.update_message(live, missed[0]))
        elif missed and missed[-1].version == live.version and missed[0].version == since + 1:
            self.hub.broadcast(live.id, sync_message(live, since, missed))
        else:  # too many missed to list: the whole game
            self.hub.broadcast(live.id, self.state_message(live, None))
        if live.data.status == "finished":
            self.presence.disarm(live)
        self._schedule(live)

    @staticmethod
    def _push_stored(live: LiveGame, line: list[MoveData], missed: list[EventData]) -> bool:
        """Play the stored moves after the copy's last one onto it; False (the copy as it
        was) if the changes took moves back, so that it must be rebuilt."""
        if any(e.kind == "undo" for e in missed):
            return False
        pushed = 0
        try:
            for m in line:
                if live.game.state.current_player != m.seat:
                    raise ValueError(f"ply {m.ply} is stored for seat {m.seat}")
                live.game.push(parse_move(m.move))
                live.movers.append(m.seat)
                pushed += 1
        except (PatchworkError, ValueError):
            log.exception("game %s: the stored moves do not follow the copy", live.id)
            for _ in range(pushed):
                live.game.pop()
                live.movers.pop()
            return False
        return True

    async def take_over(self, game_id: str) -> None:
        """This process got the game's lease: run what is due in it (an AI turn, a clock)."""
        live = await self.get(game_id)
        async with live.lock:
            await self._catch_up(live)
            live.ai_version = -1 if live.ai_task is None or live.ai_task.done() else live.ai_version
            self._schedule(live)

    def remote_presence(self, live: LiveGame, remote: tuple[frozenset[int], int]) -> None:
        """Who is connected to the game on the other processes, as Redis says now."""
        if remote != self.hub.remote.get(live.id, (frozenset(), 0)):
            if remote[0] or remote[1]:
                self.hub.remote[live.id] = remote
            else:
                self.hub.remote.pop(live.id, None)
            self.presence.refresh(live)


def sync_message(live: LiveGame, since: int, missed: list[EventData]) -> SyncMessage:
    """The events after version ``since`` and the game as it is now, in one message."""
    return SyncMessage(
        since=since,
        version=live.version,
        events=[events.validate_python(e.message()) for e in missed],
        server_time=round(time.time(), 3),
        game=live.view(),
    )
