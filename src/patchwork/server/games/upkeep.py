"""Keeping a long-running server's memory bounded: which games in memory may be forgotten
(they are read back from the database when asked for), and the expiry of online games
nobody joined."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging

from ..storage.models import utcnow
from ..storage.store import Store
from .hub import Hub
from .memory import GamesInMemory

log = logging.getLogger("patchwork.server")
SWEEP_SECONDS = 60.0  # how often expired invitations are looked for (at most)


class Upkeep:
    """Deletes online games still waiting for their second player ``expiry`` seconds after
    they were made (or last changed); a game whose creator is connected waits on."""

    def __init__(self, store: Store, memory: GamesInMemory, hub: Hub, expiry: float) -> None:
        self.store = store
        self.memory = memory
        self.hub = hub
        self.expiry = expiry
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.expiry > 0:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        every = min(SWEEP_SECONDS, max(0.5, self.expiry / 3))
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep()
            except Exception:  # the database is away: next time
                log.exception("expiring waiting games failed")

    async def sweep(self) -> int:
        """Delete the expired waiting games; how many were deleted."""
        store = self.store
        cutoff = utcnow() - dt.timedelta(seconds=self.expiry)
        ids = await store.call(store.waiting_since, cutoff)
        deleted = 0
        for game_id in ids:
            live = self.memory.find(game_id)
            if live is None:
                deleted += await store.call(store.delete_waiting, game_id)
                continue
            if self.hub.has_clients(game_id):
                continue
            async with live.lock:  # not while a join is being written
                if live.data.status == "waiting" and await store.call(
                    store.delete_waiting, game_id
                ):
                    self.memory.forget(game_id)
                    deleted += 1
        if deleted:
            log.info("deleted %d online game(s) nobody joined", deleted)
        return deleted
