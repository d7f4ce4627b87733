"""The games this process holds in memory: the unfinished ones, least recently used first, and
a bounded number of finished ones. Beyond the caches' sizes the games nothing needs now are
forgotten; they are read back from the database when asked for."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable

from ..common.config import Settings
from ..storage.store import Store
from .hub import Hub
from .live import LiveGame
from .presence import Presence


def is_idle(live: LiveGame, hub: Hub) -> bool:
    """Nothing needs ``live`` in memory: no connection, no request under way, no AI turn,
    analysis or clock that must run (presence timers only tell connected clients)."""
    return not (
        hub.has_clients(live.id)
        or live.lock.locked()
        or live.analysing
        or live.clock_timer is not None
        or (live.ai_task is not None and not live.ai_task.done())
    )


class GamesInMemory:
    def __init__(
        self,
        settings: Settings,
        store: Store,
        hub: Hub,
        presence: Presence,
        dropped: Callable[[LiveGame], None],
    ) -> None:
        self.settings = settings
        self.store = store
        self.hub = hub
        self.presence = presence
        self.dropped = dropped  # a game left memory: its timers must stop
        self.load_lock = asyncio.Lock()  # one reader at a time, so no game is read twice
        self._active: dict[str, LiveGame] = {}
        self._finished: OrderedDict[str, LiveGame] = OrderedDict()

    def __len__(self) -> int:
        return len(self._active) + len(self._finished)

    def all(self) -> list[LiveGame]:
        return [*self._active.values(), *self._finished.values()]

    def find(self, game_id: str) -> LiveGame | None:
        return self._active.get(game_id) or self._finished.get(game_id)

    def active(self, game_id: str) -> LiveGame | None:
        return self._active.get(game_id)

    def touch(self, live: LiveGame) -> None:
        """``live`` was asked for: the most recently used last, for eviction."""
        if live.data.status == "finished":
            self._finished.move_to_end(live.id)
        elif live.id in self._active:
            self._active[live.id] = self._active.pop(live.id)

    async def read(self, game_id: str) -> LiveGame | None:
        """Read a game from the database into memory (None: there is no such game)."""
        loaded = await self.store.call(self.store.load, game_id)
        if loaded is None:
            return None
        live = LiveGame.build(*loaded)
        self.presence.start(live)
        self.keep(live)
        return live

    def keep(self, live: LiveGame) -> None:
        """Hold ``live`` (new, read back, or changed) in the cache its status belongs to."""
        if live.data.status == "finished":
            self._active.pop(live.id, None)
            self._finished[live.id] = live
            self._finished.move_to_end(live.id)
            excess = len(self._finished) - self.settings.finished_cache
            for old_id in list(self._finished)[: max(0, excess)]:
                # A game someone is watching stays, so it never exists twice in memory.
                if not self.hub.has_clients(old_id):
                    self.dropped(self._finished.pop(old_id))
        else:
            self._active[live.id] = live
            if len(self._active) > self.settings.games_cache:
                self._evict_idle(live.id)

    def _evict_idle(self, keep_id: str) -> None:
        """Beyond the cache's size, forget the least recently used unfinished games that
        nothing needs now."""
        excess = len(self._active) - self.settings.games_cache
        for old_id in list(self._active):
            if excess <= 0:
                break
            old = self._active[old_id]
            if old_id != keep_id and is_idle(old, self.hub):
                self.dropped(self._active.pop(old_id))
                excess -= 1

    def forget(self, game_id: str) -> None:
        """Drop a game from memory (it was deleted, or changed behind this process's back)."""
        for kept in (self._active, self._finished):
            live = kept.pop(game_id, None)
            if live is not None:
                self.dropped(live)
