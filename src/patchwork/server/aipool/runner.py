"""Runs AI moves, analyses and review positions in a process pool, so that a thinking AI
never blocks the event loop (or any other game). A crashed worker pool is replaced and the
request retried.

While nothing else is asked of the pool, an AI that thinks in seconds ponders: one worker grows
its tree on the person's time. The person's reply goes to that worker, which answers from the
grown tree; any other request stops the ponder first (within a batch of the search, about
20 ms), so pondering never slows another game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from ...ai.levels import ponders
from ...ai.review import Value
from . import worker
from .slots import BATCH, PEOPLE, PrioritySlots

log = logging.getLogger("patchwork.server")
T = TypeVar("T")


@dataclass
class _Ponder:
    id: int
    game: str
    level: int
    future: asyncio.Future[tuple[str | None, int]]


class AIRunner:
    def __init__(self, workers: int, ponder: bool = True) -> None:
        self.workers = max(1, workers)
        self.ponders = ponder
        self._pool: ProcessPoolExecutor | None = None
        self._inbox: Any = None
        self._closed = False
        self._lock = threading.Lock()
        self._busy = 0  # requests running or waiting in the pool
        self._ponder: _Ponder | None = None
        self._ponder_ids = 0
        # Ponders started, and the AI moves answered from a pondered tree.
        self.ponder_count = 0
        self.ponder_hits = 0
        # Analyses and review positions take turns on all but one worker, so AI moves always
        # have one; a hint or an analysis (a person waits) goes before any review position.
        self.help_slots = max(1, self.workers - 1)
        self._help = PrioritySlots(self.help_slots)

    def _get_pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._closed:
                raise RuntimeError("the AI runner is closed")
            if self._pool is None:
                # forkserver: workers fork from a clean process that has already imported
                # the engine (quick to start, and never a fork of the threaded server).
                ctx = multiprocessing.get_context("forkserver")
                ctx.set_forkserver_preload(["patchwork.server.aipool.worker"])
                inbox = ctx.Queue()
                pool = ProcessPoolExecutor(
                    self.workers,
                    mp_context=ctx,
                    initializer=worker.init_worker,
                    initargs=(os.getpid(), inbox),
                )
                for _ in range(self.workers):
                    pool.submit(worker.warm_up)
                self._pool, self._inbox = pool, inbox
            return self._pool

    def start(self) -> None:
        """Start the workers and load the compiled code in each, in the background (the
        first request waits for them if it comes sooner)."""
        threading.Thread(target=self._get_pool, name="patchwork-ai-start", daemon=True).start()

    @contextlib.contextmanager
    def _working(self) -> Iterator[None]:
        """A request is running or waiting in the pool: nothing starts pondering meanwhile."""
        self._busy += 1
        try:
            yield
        finally:
            self._busy -= 1

    async def _run(self, fn: Any, *args: Any) -> Any:
        self._stop_ponder()
        with self._working():
            return await self._submit(fn, *args)

    async def _submit(self, fn: Any, *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            pool = await asyncio.to_thread(self._get_pool)
            try:
                return await loop.run_in_executor(pool, fn, *args)
            except BrokenProcessPool:
                log.warning("AI worker pool broke (attempt %d); starting a new one", attempt)
                with self._lock:
                    if self._pool is pool:
                        self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def choose(self, position: str, level: int, seed: int, game: str = "") -> str:
        """AI ``level``'s move in ``position``; in ``game``, from its pondered tree if one
        worker has been thinking on the person's time there."""
        ponder = self._ponder
        if (
            ponder is not None
            and not ponder.future.done()  # else it pondered to its bound: ask as usual
            and (ponder.game, ponder.level) == (game, level)
        ):
            self._ponder = None
            self._inbox.put((ponder.id, position, seed))
            with self._working():
                try:
                    answered, iterations = await ponder.future
                except Exception:  # the pool broke under it: ask again below
                    log.warning("a pondering AI worker failed; asking again")
                    answered = None
            if answered is not None:
                self.ponder_hits += 1
                log.debug("game %s: answered after pondering %d iterations", game, iterations)
                return answered
        move: str = await self._run(worker.choose_move, position, level, seed)
        return move

    def ponder(
        self, position: str, level: int, game: str
    ) -> asyncio.Future[tuple[str | None, int]] | None:
        """Let AI ``level`` think on the person's time in ``position`` of ``game``, if the
        level ponders, pondering is on and nothing else is asked of the pool. A ponder already
        running is stopped. Returns the ponder's future (the worker's (move or None,
        iterations pondered)), or None if none started."""
        self._stop_ponder()
        busy = self._closed or self._busy > 0 or self._pool is None
        if not self.ponders or busy or not ponders(level):
            return None
        self._ponder_ids += 1
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(
                self._pool, worker.ponder, position, level, self._ponder_ids
            )
        except (BrokenProcessPool, RuntimeError):  # broken or shut down: the next request
            return None  # replaces the pool
        future.add_done_callback(_ignore_failure)
        self._ponder = _Ponder(self._ponder_ids, game, level, future)
        self.ponder_count += 1
        return future

    def _stop_ponder(self) -> None:
        """Tell a pondering worker to stop (it ends at its next batch); nothing waits."""
        ponder, self._ponder = self._ponder, None
        if ponder is not None and not ponder.future.done():
            self._inbox.put((ponder.id, None, 0))

    async def analyse(
        self, position: str, seconds: float, seed: int, priority: int = PEOPLE
    ) -> dict[str, Any]:
        """The searcher's view of ``position`` (:func:`patchwork.ai.analysis.as_dict`)."""
        async with self._help.hold(priority):
            result: dict[str, Any] = await self._run(
                worker.analyse_position, position, seconds, seed
            )
        return result

    async def value(self, position: str, iterations: int, seed: int) -> Value:
        """One position of a game review (:func:`patchwork.ai.review.value`)."""
        async with self._help.hold(BATCH):
            result: Value = await self._run(worker.value_position, position, iterations, seed)
        return result

    def close(self) -> None:
        self._stop_ponder()
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
            inbox, self._inbox = self._inbox, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        if inbox is not None:
            inbox.close()
            inbox.join_thread()


def _ignore_failure(future: asyncio.Future[Any]) -> None:
    """A ponder nobody waits for may fail with its pool: that only loses the ponder."""
    if not future.cancelled():
        future.exception()
