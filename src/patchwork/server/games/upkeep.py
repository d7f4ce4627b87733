"""Keeping a long-running server's memory bounded: which games in memory may be forgotten
(they are read back from the database when asked for), and the expiry of online games
nobody joined."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from typing import TYPE_CHECKING

from ..storage.models import utcnow
from .hub import Hub
from .live import LiveGame

if TYPE_CHECKING:
    from .service import GameService

log = logging.getLogger("patchwork.server")
SWEEP_SECONDS = 60.0  # how often expired invitations are looked for (at most)


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


class Upkeep:
    """Deletes online games still waiting for their second player ``expiry`` seconds after
    they were made (or last changed); a game whose creator is connected waits on."""

    def __init__(self, service: GameService, expiry: float) -> None:
        self.service = service
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
        svc = self.service
        cutoff = utcnow() - dt.timedelta(seconds=self.expiry)
        ids = await svc.store.call(svc.store.waiting_since, cutoff)
        deleted = 0
        for game_id in ids:
            live = svc.in_memory(game_id)
            if live is None:
                deleted += await svc.store.call(svc.store.delete_waiting, game_id)
                continue
            if svc.hub.has_clients(game_id):
                continue
            async with live.lock:  # not while a join is being written
                if live.data.status == "waiting" and await svc.store.call(
                    svc.store.delete_waiting, game_id
                ):
                    svc.forget(game_id)
                    deleted += 1
        if deleted:
            log.info("deleted %d online game(s) nobody joined", deleted)
        return deleted
