"""The game service: the one place where games change, and the face of the games domain.

Every change follows the same path, under the game's lock: check the request (the engine
judges moves), write the change and the event announcing it to the database in one
transaction, and only then change the game in memory and broadcast it (changes.py). So a
change that was broadcast is always in the database, and concurrent requests on one game
are served one at a time (a request made against an old version is refused). The parts:
the games in memory (memory.py), the timed work (timers.py: clocks, and the AI's turns of
ai_turns.py), and catching up with other processes (catch_up.py).
"""

from __future__ import annotations

import logging
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from ...engine import IllegalMoveError, InvalidMoveError
from ...engine.moves import parse_move
from ...i18n import N_
from ..accounts.store import bots_among
from ..aipool.runner import AIRunner
from ..cluster.node import ClusterNode
from ..common.config import Settings
from ..common.errors import ServerError, not_found, refused_move
from ..common.tasks import Background
from ..common.tokens import token_hash
from ..storage.models import EventData, GameData, UserData
from ..storage.store import AddEvent, InsertGame, StaleWrite, Store, UpdateGame, Write
from . import guards, rematches
from .ai_turns import AITurns
from .catch_up import SYNC_EVENTS, CatchUp
from .changes import Changes, finish, state_message, sync_message, turn_start
from .clocks import ClockSpec
from .creation import new_game_data, rematch_data, seat_name
from .hub import Connection, Hub
from .live import Caller, LiveGame
from .memory import GamesInMemory
from .messages import Welcome
from .presence import Presence
from .requests import CreateGame
from .results import Rating, Results
from .schemas import CreatedGame, Joined
from .timers import Timers

log = logging.getLogger("patchwork.server")

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,24}$")


class GameService:
    def __init__(
        self,
        settings: Settings,
        store: Store,
        ai: AIRunner,
        hub: Hub,
        rating: Rating,
        node: ClusterNode | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.ai = ai
        self.hub = hub
        self.node = node  # one of several processes over one database (--redis)
        self.tasks = Background()
        self.presence = Presence(hub, settings.grace_seconds)
        self.memory = GamesInMemory(settings, store, hub, self.presence, self._dropped)
        several = node is not None
        self.changes = Changes(
            store,
            hub,
            self.memory,
            self.presence,
            several=several,
            committed=self._committed,
            changed=self._changed,
        )
        self.ai_turns = AITurns(
            settings,
            ai,
            self.changes,
            several=several,
            catch_up=self._catch_up,
            retry_later=self._retry_later,
        )
        self.timers = Timers(
            self.memory,
            self.changes,
            self.ai_turns,
            self.presence,
            self.tasks,
            node,
            self._catch_up,
        )
        self.syncing = CatchUp(
            store,
            hub,
            self.memory,
            self.presence,
            schedule=self.timers.schedule,
            get=self.get,
            committed=self._committed,
        )
        self.results = Results(
            store,
            rating,
            self.changes,
            several=several,
            committed=self._committed,
            catch_up=self._catch_up,
        )

    # -- the parts told of each other ------------------------------------------------------

    def _committed(self, game_id: str, version: int) -> None:
        if self.node is not None:
            self.node.committed(game_id, version)

    def _changed(self, live: LiveGame) -> None:
        if live.data.status == "finished" and live.data.rated and live.data.ratings is None:
            self.tasks.spawn(self.results.rate(live))
        self.timers.schedule(live)

    def _dropped(self, live: LiveGame) -> None:
        self.timers.cancel(live)

    def _retry_later(self, live: LiveGame) -> None:
        self.timers.retry_later(live)

    async def _catch_up(self, live: LiveGame, behind: bool = False) -> None:
        await self.syncing(live, behind)

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        """Load every unfinished game, restart its clock, and resume AI turns."""
        for game_id in await self.store.call(self.results.rating.unrated_games, self.store.engine):
            try:  # finished but not rated: its process stopped in between
                await self.results.rate(await self.get(game_id))
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
            self.timers.schedule(live)
        if ids:
            log.info("resumed %d unfinished game(s)", len(ids))

    async def close(self) -> None:
        self.tasks.closing = True
        for live in self.memory.all():
            self.timers.cancel(live)
        self.hub.close_all()
        await self.tasks.close()

    def games_in_memory(self) -> int:
        return len(self.memory)

    # -- loading --------------------------------------------------------------------------

    async def get(self, game_id: str) -> LiveGame:
        if not GAME_ID.match(game_id):
            raise not_found(game_id)
        live = self.memory.find(game_id)
        if live is not None:
            self.memory.touch(live)
            if self.node is not None:  # another process may have changed it
                async with live.lock:
                    await self._catch_up(live)
            return live
        async with self.memory.load_lock:
            live = self.memory.find(game_id)
            if live is None:
                live = await self._load(game_id)
                if live is not None:  # read back after an eviction: what is due runs again
                    self.timers.schedule(live)
        if live is None:
            raise not_found(game_id)
        return live

    async def _load(self, game_id: str) -> LiveGame | None:
        live = await self.memory.read(game_id)
        if live is not None and self.node is not None:
            self.hub.remote.pop(live.id, None)  # read afresh, for this copy
            await self.node.load_presence(live.id)
        return live

    def _begin(self, live: LiveGame) -> None:
        """A game just stored: its seats' presence, its place in memory, its timed work."""
        self.presence.start(live)
        self.memory.keep(live)
        self.timers.schedule(live)

    def in_memory(self, game_id: str) -> LiveGame | None:
        return self.memory.find(game_id)

    def forget(self, game_id: str) -> None:
        """Drop a game from memory (it was deleted from the database)."""
        self.memory.forget(game_id)

    # -- who may do what (guards.py) --------------------------------------------------------

    seats = staticmethod(guards.seats)
    require_active = staticmethod(guards.require_active)

    # -- creating, joining and playing ----------------------------------------------------

    async def create(self, req: CreateGame, user: UserData | None = None) -> CreatedGame:
        """A new game; signed in (``user``), the creator's seat is bound to the account."""
        new = new_game_data(req, user)
        data = new.data
        live = LiveGame.build(data, [])
        data.turn_started = turn_start(live, live.game.state, time.time())
        event = EventData(data.id, 1, "created", {"mode": data.mode})
        hooked = self.changes.hooked_new(live)  # stored with it (changes.py)
        try:
            await self.store.commit([InsertGame(data), AddEvent(event), *hooked.writes])
        except Exception:
            log.exception("creating a game failed")
            raise ServerError("unavailable", N_("the database is unavailable")) from None
        self._begin(live)
        hooked.done()
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
        seated = [data.seat0_user, data.seat1_user]
        try:
            bots = await self.store.call(bots_among, self.store.engine, seated)
        except Exception:
            log.exception("reading the paired players failed")
            raise ServerError("unavailable", N_("the database is unavailable")) from None
        data.seat0_bot, data.seat1_bot = (u in bots for u in seated)
        live = LiveGame.build(data, [])
        data.turn_started = turn_start(live, live.game.state, time.time())
        event = EventData(data.id, 1, "created", {"mode": data.mode})
        hooked = self.changes.hooked_new(live)  # stored with it (changes.py)
        try:
            await self.store.commit([*claims, InsertGame(data), AddEvent(event), *hooked.writes])
        except StaleWrite:
            raise
        except Exception:
            log.exception("starting a paired game failed")
            raise ServerError("unavailable", N_("the database is unavailable")) from None
        self._begin(live)
        hooked.done()
        return live

    @staticmethod
    def paths(game_id: str) -> dict[str, str]:
        return {"watch_url": f"/play/{game_id}", "ws_url": f"/ws/games/{game_id}"}

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
                f"seat{seat}_bot": user is not None and user.bot,
                "invite_hash": None,
                "status": "active",
            }
            if data.clock is not None:
                s = live.game.state.current_player
                fields["turn_started"] = time.time() if s is not None else None
            event = await self.changes.commit(live, "joined", {"seat": seat, "name": name}, fields)
            self.presence.reset(live, seat)  # the newcomer's grace period starts now
            self.changes.announce(live, event)
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
            guards.check_version(live, version)
            if await self.timers.check_flag(live):
                raise ServerError(
                    "flagged",
                    N_("player {seat} ran out of time: the game is over"),
                    {"seat": seat},
                )
            try:
                move = parse_move(text)
                await self.changes.play(live, move, seat)
            except (InvalidMoveError, IllegalMoveError) as e:
                raise refused_move(e) from None
        return live

    async def undo(self, game_id: str, caller: Caller, version: int | None) -> LiveGame:
        live = await self.get(game_id)
        async with live.lock:
            seats = self.seats(live, caller)
            if live.data.mode == "online":
                raise ServerError("not_allowed", N_("moves are taken back only against the AI"))
            if live.data.rated:
                raise ServerError("not_allowed", N_("a rated game's moves cannot be taken back"))
            self.require_active(live)
            guards.check_version(live, version)
            humans = [s for s in seats if live.data.kind(s) == "human"]
            # Back to before the last move a person made (with the AI's answers after it).
            keep = max((i for i, s in enumerate(live.movers) if s in humans), default=None)
            if keep is None:
                raise ServerError("nothing_to_undo", N_("there is no move of yours to take back"))
            back_to = live.game.states[keep]
            fields = {"turn_started": turn_start(live, back_to, time.time())}
            await self.changes.take_back(live, keep, fields)
        return live

    async def resign(self, game_id: str, caller: Caller) -> LiveGame:
        live = await self.get(game_id)
        async with live.lock:
            seats = self.seats(live, caller)
            self.require_active(live)
            to_move = live.game.state.current_player
            seat = to_move if len(seats) == 2 and to_move is not None else min(seats)
            fields = finish(live.game.state, "resigned", 1 - seat)
            event = await self.changes.commit(live, "resign", {"seat": seat}, fields)
            self.changes.announce(live, event)
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
            fields = finish(live.game.state, "abandoned", seat)
            event = await self.changes.commit(live, "claim", {"seat": seat}, fields)
            self.changes.announce(live, event)
        return live

    async def no_show(
        self, game_id: str, seconds: float, also: Callable[[str | None], list[Write]]
    ) -> int | None:
        """End a tournament's game whose player to move has made no move of theirs in it and
        let ``seconds`` pass since their turn began: they lose it as an abandoned game, with
        ``also(their account)`` written in the same transaction. The seat that lost (None:
        the game is under way or over)."""
        live = await self.get(game_id)
        async with live.lock:
            seat = live.game.state.current_player
            waited = time.time() - live.data.updated_at.timestamp()
            if live.data.status != "active" or seat is None or seat in live.movers:
                return None
            if waited < seconds:
                return None
            fields = finish(live.game.state, "abandoned", 1 - seat)
            extra = also(live.data.user(seat))
            event = await self.changes.commit(live, "claim", {"seat": 1 - seat}, fields, extra)
            self.changes.announce(live, event)
        return seat

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
            if rematches.between_accounts(data):
                raise rematches.by_challenge()
            seat = min(seats)
            offer = data.rematch_offer
            both_here = data.mode != "online" or len(seats) == 2
            if action == "decline":
                if offer is None:
                    raise ServerError("no_rematch_offer", N_("no rematch has been offered"))
                event = await self.changes.commit(
                    live, "rematch_decline", {"seat": seat}, {"rematch_offer": None}
                )
                self.changes.announce(live, event)
                return live, None
            if both_here or (offer is not None and offer != seat):
                new_id = await self._create_rematch(live)
                return live, new_id
            if action == "accept":
                raise ServerError("no_rematch_offer", N_("your opponent has not offered a rematch"))
            if offer == seat:
                return live, None
            event = await self.changes.commit(
                live, "rematch_offer", {"seat": seat}, {"rematch_offer": seat}
            )
            self.changes.announce(live, event)
            return live, None

    async def _create_rematch(self, old: LiveGame) -> str:
        data = rematch_data(old.data)
        live = LiveGame.build(data, [])
        data.turn_started = turn_start(live, live.game.state, time.time())
        created = EventData(data.id, 1, "created", {"mode": data.mode, "parent_id": old.id})
        hooked = self.changes.hooked_new(live)
        event = await self.changes.commit(
            old,
            "rematch",
            {"game_id": data.id},
            {"rematch_id": data.id, "rematch_offer": None},
            [InsertGame(data), AddEvent(created), *hooked.writes],
        )
        self._begin(live)
        hooked.done()
        self.changes.announce(old, event)
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
                conn.send(state_message(live, None))
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
        live = self.memory.find(conn.game_id)
        if live is not None and not self.tasks.closing:
            self.presence.left(live, conn.seats)
        if self.node is not None and not self.tasks.closing:
            self.node.presence_changed(conn.game_id)

    async def stored_elsewhere(self, game_id: str, version: int) -> None:
        """A change of the game was written to the database outside this service (an
        account deleted): see catch_up.py."""
        await self.syncing.stored_elsewhere(game_id, version)
