"""How a game changes: every change is written to the database first (the game's row, the
event announcing it and any other rows, in one transaction), and only then made in memory and
broadcast. So a change that was broadcast is always in the database. The callers hold the
game's lock (games/service.py)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from ...engine import Move, State
from ...i18n import N_
from ..common.errors import ServerError
from ..storage.models import EventData, MoveData, utcnow
from ..storage.store import AddEvent, AddMoves, StaleWrite, Store, UpdateGame, Write
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


def finish(state: State, termination: str, winner: int | None) -> dict[str, Any]:
    """The fields of a game's row that end it."""
    return {
        "status": "finished",
        "termination": termination,
        "winner": winner,
        "scores": list(state.scores()),
        "turn_started": None,
        "rematch_offer": None,
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

    async def commit(
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
        if after.is_terminal():
            fields.update(finish(after, "finished", after.winner()))
        row = MoveData(live.id, ply, seat, str(move), remaining=mover_time)
        return await self.commit(
            live, "move", {"ply": ply, "seat": seat, "move": str(move)}, fields, [AddMoves([row])]
        )
