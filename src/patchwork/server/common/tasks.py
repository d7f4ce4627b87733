"""Background tasks that belong to a long-lived object: kept (so they are not collected),
their failures logged, and all cancelled when the object closes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger("patchwork.server")


class Background:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self.closing = False

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    async def close(self) -> None:
        """Cancel every task and wait for them to end; nothing new is started after."""
        self.closing = True
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
