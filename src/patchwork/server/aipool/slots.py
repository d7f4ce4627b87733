"""Slots of the AI pool lent to help (hints, analyses) and to reviews: a freed slot goes to the
waiting request of the highest priority, so a person waiting for a hint never queues behind a
review's positions, however many reviews are waiting."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

PEOPLE = 0  # a person waits for it: a hint, an analysis of a game
BOARD = 1  # a person looks on: the analysis board's search, step by step
BATCH = 2  # nobody waits for it now: a review's positions


class PrioritySlots:
    def __init__(self, slots: int) -> None:
        self.free = slots
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()  # first come, first served within a priority

    @asynccontextmanager
    async def hold(self, priority: int) -> AsyncIterator[None]:
        """Hold a slot for the block, waiting for one if none is free."""
        if self.free > 0 and not self._waiting:
            self.free -= 1
        else:
            lent: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiting, (priority, next(self._order), lent))
            try:
                await lent
            except asyncio.CancelledError:
                if lent.done() and not lent.cancelled():
                    self._release()  # lent just as it was cancelled: pass it on
                else:
                    lent.cancel()
                raise
        try:
            yield
        finally:
            self._release()

    def waiting(self) -> int:
        return sum(1 for *_, f in self._waiting if not f.done())

    def _release(self) -> None:
        while self._waiting:
            _, _, lent = heapq.heappop(self._waiting)
            if not lent.done():
                lent.set_result(None)
                return
        self.free += 1
