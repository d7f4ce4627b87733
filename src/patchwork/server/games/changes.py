"""How a game changes: every change is written to the database first (the game's row, the
event announcing it and any other rows, in one transaction), and only then made in memory and
broadcast. So a change that was broadcast is always in the database. The callers hold the
game's lock (games/service.py).

The domains above games add their own rows to a change's transaction through ``hooks``
(registered by the app, http/app.py): a notification of a move is stored with the move or
not at all, so it is never lost nor made twice, on any process, even under kill -9."""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...engine import Move, State
from ...i18n import N_
from ..common.errors import ServerError
from ..storage.models import EventData, GameData, MoveData, utcnow
from ..storage.store import AddEvent, AddMoves, DeleteMoves, StaleWrite, Store, UpdateGame, Write
from . import clocks
from .clocks import ClockSpec
from .hub import Hub
from .live import LiveGame
from .memory import GamesInMemory
from .messages import StateMessage, SyncMessage, UpdateMessage, events
from .presence import Presence
from .schemas import MoveEvent
from .views import history_entry

log = logging.getLogger("patchwork.server")


@dataclass(frozen=True)
class Change:
    """A change of a game as a hook sees it, before it is stored (valid during the call)."""

    game: GameData  # the game's row as it will be once the change is stored
    before: GameData | None  # the row before the change (None: a new game)
    kind: str  # the event's kind ("created" for a new game)
    data: dict[str, Any]  # the event's data
    to_move: int | None  # the seat to move after the change (None: nobody; the game is over)


@dataclass
class Extra:
    """What hooks add to a change: ``writes``, stored in its transaction, and ``then``, called
    once that transaction is committed (never if it is not)."""

    writes: list[Write] = field(default_factory=list)
    then: list[Callable[[], None]] = field(default_factory=list)

    def done(self) -> None:
        """The transaction was committed: call ``then`` (a failure is logged, never raised)."""
        for f in self.then:
            try:
                f()
            except Exception:
                log.exception("what follows a stored change failed")


# A hook: given a change about to be stored, what to add to it (None: nothing). It runs on
# the event loop under the game's lock: quick, reading nothing (its writes may read).
Hook = Callable[[Change], Extra | None]


def finish(state: State, termination: str, winner: int | None) -> dict[str, Any]:
    """The fields of a game's row that end it."""
    return {
        "status": "finished",
        "termination": termination,
        "winner": winner,
        "scores": list(state.scores()),
        "turn_started": None,
        "rematch_offer": None,
        "takeback_offer": None,  # a takeback asked for ends with the game (takebacks.py)
        "takeback_declined": None,
    }


def turn_start(live: LiveGame, state: State, now: float) -> float | None:
    """When a clock starts running for the player to move (None: no clock runs)."""
    seat = state.current_player
    if live.data.clock is None or live.data.status != "active" or seat is None:
        return None
    return now if live.data.kind(seat) == "human" else None


def state_message(live: LiveGame, event: EventData | None) -> StateMessage:
    return StateMessage(
        version=live.version,
        event=None if event is None else events.validate_python(event.message()),
        server_time=round(time.time(), 3),
        game=live.view(),
    )


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


def sync_message(live: LiveGame, since: int, missed: list[EventData]) -> SyncMessage:
    """The events after version ``since`` and the game as it is now, in one message."""
    return SyncMessage(
        since=since,
        version=live.version,
        events=[events.validate_python(e.message()) for e in missed],
        server_time=round(time.time(), 3),
        game=live.view(),
    )


class Changes:
    def __init__(
        self,
        store: Store,
        hub: Hub,
        memory: GamesInMemory,
        presence: Presence,
        *,
        several: bool,
        committed: Callable[[str, int], None],
        changed: Callable[[LiveGame], None],
    ) -> None:
        self.store = store
        self.hub = hub
        self.memory = memory
        self.presence = presence
        self.several = several  # one process of several over one database
        self.committed = committed  # a version was stored here (the others are told)
        self.changed = changed  # a change was broadcast: arrange what comes next
        self.hooks: list[Hook] = []  # told of every change before it is stored

    def hooked(self, change: Change) -> Extra:
        """What the hooks add to ``change``, together (a hook that fails is logged and left
        out: a game never stops for what is told of it)."""
        extra = Extra()
        for hook in self.hooks:
            try:
                found = hook(change)
            except Exception:
                log.exception("a hook failed on game %s", change.game.id)
                continue
            if found is not None:
                extra.writes += found.writes
                extra.then += found.then
        return extra

    def hooked_new(self, live: LiveGame) -> Extra:
        """What the hooks add to the transaction that stores the new game ``live`` (the
        caller stores ``writes`` with it and calls ``done()`` once it is committed)."""
        data = live.data
        to_move = live.game.state.current_player if data.status == "active" else None
        return self.hooked(Change(data, None, "created", {"mode": data.mode}, to_move))

    async def commit(
        self,
        live: LiveGame,
        kind: str,
        data: dict[str, Any],
        fields: dict[str, Any],
        extra: list[Write] | None = None,
        after: State | None = None,
    ) -> EventData:
        """Store a change of ``live`` (fields of its row, the event, ``extra`` writes and
        the hooks' writes) in one transaction; on success the row in memory takes the new
        fields. ``after``: the position it leads to, when not ``live.game.state``."""
        version = live.version + 1
        fields = {**fields, "version": version, "updated_at": utcnow()}
        event = EventData(live.id, version, kind, data)
        hooked = Extra()
        if self.hooks:
            game = dataclasses.replace(live.data, **fields)
            state = live.game.state if after is None else after
            to_move = state.current_player if game.status == "active" else None
            hooked = self.hooked(Change(game, live.data, kind, data, to_move))
        writes: list[Write] = [UpdateGame(live.id, live.version, fields), *(extra or [])]
        writes += hooked.writes
        writes.append(AddEvent(event))
        try:
            await self.store.commit(writes)
        except StaleWrite:
            if self.several:  # another process moved first: ours is refused
                raise ServerError(
                    "stale_version", N_("the game changed elsewhere; try again")
                ) from None
            log.error("game %s changed in the database behind this server's back", live.id)
            self.memory.forget(live.id)
            raise ServerError("unavailable", N_("the game changed elsewhere; try again")) from None
        except Exception:
            log.exception("writing game %s failed", live.id)
            raise ServerError(
                "unavailable", N_("the database is unavailable; nothing was changed")
            ) from None
        live.data.update(fields)
        live.invalidate()
        self.committed(live.id, version)
        hooked.done()
        return event

    def announce(self, live: LiveGame, event: EventData | None) -> None:
        """Broadcast the change (after it was stored) and arrange what comes next: a move as
        an update (what it changed), any other change as the whole game."""
        self.memory.keep(live)
        if event is not None and event.kind == "move":
            self.hub.broadcast(live.id, update_message(live, event))
        else:
            self.hub.broadcast(live.id, state_message(live, event))
        if live.data.status == "finished":
            self.presence.disarm(live)
        self.changed(live)

    async def take_back(
        self, live: LiveGame, keep: int, fields: dict[str, Any], data: dict[str, Any] | None = None
    ) -> None:
        """Take the moves after the first ``keep`` back (an ``undo`` event, with ``data``
        besides), store it with ``fields`` and broadcast it: undo, and an accepted takeback."""
        removed = [str(m) for m in live.game.moves[keep:]]
        event = await self.commit(
            live,
            "undo",
            {"removed": removed, "ply": keep, **(data or {})},
            fields,
            [DeleteMoves(live.id, keep + 1)],
            after=live.game.states[keep],
        )
        for _ in removed:  # stored: now the game in memory goes back too
            live.game.pop()
        live.movers = live.movers[:keep]
        live.invalidate()
        self.announce(live, event)

    async def play(self, live: LiveGame, move: Move, seat: int) -> None:
        """Play a move, store it and broadcast it. The game's push judges it, once
        (IllegalMoveError: nothing changed); if it cannot be stored, it is taken back."""
        live.play_view()  # the view of the stored game, made before the game moves on
        after = live.game.push(move)
        try:
            event = await self._store_move(live, move, seat, after)
        except BaseException:
            live.game.pop()
            raise
        live.movers.append(seat)
        live.invalidate()
        self.announce(live, event)

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
        fields["turn_started"] = turn_start(live, after, now)
        if live.data.takeback_offer is not None or live.data.takeback_declined is not None:
            fields.update(takeback_offer=None, takeback_declined=None)  # a move ends both
        if after.is_terminal():
            fields.update(finish(after, "finished", after.winner()))
        row = MoveData(live.id, ply, seat, str(move), remaining=mover_time)
        return await self.commit(
            live, "move", {"ply": ply, "seat": seat, "move": str(move)}, fields, [AddMoves([row])]
        )
