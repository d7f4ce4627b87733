"""Runs AI moves, analyses and review positions in a process pool, so that a thinking AI
never blocks the event loop (or any other game). A crashed worker pool is replaced and the
request retried."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..ai.review import Value
from . import ai_worker

log = logging.getLogger("patchwork.server")
T = TypeVar("T")


class AIRunner:
    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False
        self._lock = threading.Lock()
        # Analyses and review positions take turns on all but one worker (first come, first
        # served: a review asks for one position at a time), so AI moves always have one.
        self.help_slots = max(1, self.workers - 1)
        self._analyses = asyncio.Semaphore(self.help_slots)

    def _get_pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._closed:
                raise RuntimeError("the AI runner is closed")
            if self._pool is None:
                # forkserver: workers fork from a clean process that has already imported
                # the engine (quick to start, and never a fork of the threaded server).
                ctx = multiprocessing.get_context("forkserver")
                ctx.set_forkserver_preload(["patchwork.server.ai_worker"])
                pool = ProcessPoolExecutor(
                    self.workers,
                    mp_context=ctx,
                    initializer=ai_worker.init_worker,
                    initargs=(os.getpid(),),
                )
                for _ in range(self.workers):
                    pool.submit(ai_worker.warm_up)
                self._pool = pool
            return self._pool

    def start(self) -> None:
        """Start the workers and load the compiled code in each, in the background (the
        first request waits for them if it comes sooner)."""
        threading.Thread(target=self._get_pool, name="patchwork-ai-start", daemon=True).start()

    async def _run(self, fn: Any, *args: Any) -> Any:
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

    async def choose(self, position: str, level: int, seed: int) -> str:
        move: str = await self._run(ai_worker.choose_move, position, level, seed)
        return move

    async def analyse(self, position: str, seconds: float, seed: int) -> dict[str, Any]:
        async with self._analyses:
            result: dict[str, Any] = await self._run(
                ai_worker.analyse_position, position, seconds, seed
            )
        return result

    async def value(self, position: str, iterations: int, seed: int) -> Value:
        """One position of a game review (:func:`patchwork.ai.review.value`)."""
        async with self._analyses:
            result: Value = await self._run(ai_worker.value_position, position, iterations, seed)
        return result

    def close(self) -> None:
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
