"""Catching up with the database: with several processes over one database (``--redis``),
another process may have changed a game this one holds. Its copy in memory is brought up to
the stored version, and this process's clients are told what they missed, in version order."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable

from ...engine import PatchworkError
from ...engine.moves import parse_move
from ...i18n import N_
from ..common.errors import ServerError, not_found
from ..storage.models import EventData, MoveData
from ..storage.store import Store
from .changes import state_message, sync_message, update_message
from .hub import Hub
from .live import LiveGame
from .memory import GamesInMemory
from .presence import Presence

log = logging.getLogger("patchwork.server")
SYNC_EVENTS = 200  # a client further behind than this gets the full state only


def push_stored(live: LiveGame, line: list[MoveData], missed: list[EventData]) -> bool:
    """Play the stored moves after the copy's last one onto it; False (the copy as it was)
    if the changes took moves back, so that it must be rebuilt."""
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


class CatchUp:
    def __init__(
        self,
        store: Store,
        hub: Hub,
        memory: GamesInMemory,
        presence: Presence,
        *,
        schedule: Callable[[LiveGame], None],
        get: Callable[[str], Awaitable[LiveGame]],
        committed: Callable[[str, int], None],
    ) -> None:
        self.store = store
        self.hub = hub
        self.memory = memory
        self.presence = presence
        self.schedule = schedule  # the game changed: arrange its timed work anew
        self.get = get  # a game, read into memory if it is not there
        self.committed = committed  # a version was stored: the other processes are told

    async def __call__(self, live: LiveGame, behind: bool = False) -> None:
        """(Under the lock.) If the database holds a later version of the game than memory,
        read what changed and tell this process's clients, in version order: one move as an
        ``update``, more as a ``sync`` of the events missed. A process that cannot read the
        database refuses (``unavailable``) rather than answer from its copy."""
        try:
            if not behind:  # (an announcement of a later version says so already)
                stored = await self.store.call(self.store.version_of, live.id)
                if stored is None:
                    self.memory.forget(live.id)
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
            self.memory.forget(live.id)
            raise not_found(live.id)
        data, line, missed = found
        since = live.version
        if data.version <= since:
            return
        missed = [e for e in missed if e.version <= data.version]
        if not push_stored(live, line, missed):  # an undo: rebuild it whole
            loaded = await self.store.call(self.store.load, live.id)
            if loaded is None:
                self.memory.forget(live.id)
                raise not_found(live.id)
            rebuilt = LiveGame.build(*loaded)
            data = rebuilt.data
            live.game, live.movers = rebuilt.game, rebuilt.movers
        live.data = data
        live.invalidate()
        self.memory.keep(live)
        if len(missed) == 1 and missed[0].kind == "move" and len(line) == 1:
            self.hub.broadcast(live.id, update_message(live, missed[0]))
        elif missed and missed[-1].version == live.version and missed[0].version == since + 1:
            self.hub.broadcast(live.id, sync_message(live, since, missed))
        else:  # too many missed to list: the whole game
            self.hub.broadcast(live.id, state_message(live, None))
        if live.data.status == "finished":
            self.presence.disarm(live)
        self.schedule(live)

    # -- what cluster/node.py asks of the games this process serves ----------------------

    def version_in_memory(self, game_id: str) -> int | None:
        live = self.memory.find(game_id)
        return None if live is None else live.version

    async def catch_up(self, game_id: str, announced: int | None = None) -> None:
        """Bring the game in memory up to the database (another process changed it, and
        announced version ``announced``, when known)."""
        live = self.memory.find(game_id)
        if live is None:
            return
        async with live.lock:
            if announced is not None and live.version >= announced:
                return  # caught up meanwhile
            # The database away: the next request or announcement tries again.
            with contextlib.suppress(ServerError):
                await self(live, behind=announced is not None)

    async def stored_elsewhere(self, game_id: str, version: int) -> None:
        """A change of the game was written to the database outside this service (an
        account deleted): the copy in memory, if any, catches up and tells its clients, and
        the other processes are told."""
        live = self.memory.find(game_id)
        if live is not None:
            with contextlib.suppress(ServerError):  # (gone, or the database away: next time)
                async with live.lock:
                    await self(live)
        self.committed(game_id, version)

    async def take_over(self, game_id: str) -> None:
        """This process got the game's lease: run what is due in it (an AI turn, a clock)."""
        live = await self.get(game_id)
        async with live.lock:
            await self(live)
            live.ai_version = -1 if live.ai_task is None or live.ai_task.done() else live.ai_version
            self.schedule(live)

    def remote_presence(self, game_id: str, remote: tuple[frozenset[int], int]) -> None:
        """Who is connected to the game on the other processes, as Redis says now."""
        live = self.memory.find(game_id)
        if live is not None and remote != self.hub.remote.get(game_id, (frozenset(), 0)):
            if remote[0] or remote[1]:
                self.hub.remote[game_id] = remote
            else:
                self.hub.remote.pop(game_id, None)
            self.presence.refresh(live)

    def local_games(self) -> list[str]:
        return self.hub.game_ids()

    def has_clients(self, game_id: str) -> bool:
        return self.hub.has_clients(game_id)

    def local_presence(self, game_id: str) -> tuple[list[int], int]:
        return self.hub.local_presence(game_id)
