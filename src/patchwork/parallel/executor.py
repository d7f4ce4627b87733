"""The executor interface, and the two that need nothing beyond the standard library: this
process, and spawned worker processes (``--workers``)."""

from __future__ import annotations

import multiprocessing
import signal
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import util as mp_util
from types import TracebackType
from typing import Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")

POLL_SECONDS = 0.5  # how often a wait for results looks up (so that Ctrl-C is seen at once)


class StopFlag(Protocol):
    """Set by the executor when the run stops early; work under way may watch it."""

    def is_set(self) -> bool: ...


@dataclass(frozen=True)
class Hooks:
    """What each worker runs around its share of the work (module-level functions, so that
    they reach other processes): ``start(stop)`` as a worker process starts, ``finish()`` as it
    ends. Work done in this process gets ``finish()`` only, when the executor closes (Ctrl-C
    reaches it directly, so it needs no flag)."""

    start: Callable[[StopFlag], None] | None = None
    finish: Callable[[], None] | None = None


class Executor(ABC):
    """Maps a function over work items and hands the results back as each is done.

    The function and the items must pickle (a module-level function, plain data) and each
    result must depend on its item only, so the executor changes the speed and nothing else.
    Use it as a context manager: ``close()`` stops the workers.
    """

    workers: int  # items worked on at once

    @abstractmethod
    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        """``fn(item)`` for every item, yielded as each finishes. An exception in ``fn`` comes
        out here. Ctrl-C (KeyboardInterrupt) stops the run: queued items never start, the
        workers see their stop flag set, results that arrive while stopping are still
        yielded, and then KeyboardInterrupt comes out. Leaving the loop early stops the rest
        too. One run per executor: after a stop, make a new one."""

    @abstractmethod
    def close(self) -> None:
        """Stop the workers (each runs its ``finish`` hook first)."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class InProcess(Executor):
    """One item after another in this process."""

    def __init__(self, hooks: Hooks | None = None) -> None:
        self.workers = 1
        self._hooks = hooks or Hooks()

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        for item in items:
            yield fn(item)

    def close(self) -> None:
        if self._hooks.finish is not None:
            self._hooks.finish()


def _start_worker(hooks: Hooks, stop: StopFlag) -> None:
    """A worker process ignores Ctrl-C (its parent handles it and sets ``stop``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hooks.start is not None:
        hooks.start(stop)
    if hooks.finish is not None:
        # Finalizers run when a multiprocessing child exits (atexit handlers do not), before
        # it waits for its own children such as an MCTS agent's pool; priority 100 runs this
        # before the queues' own finalizers (10), which would strand that pool's shutdown.
        mp_util.Finalize(None, hooks.finish, exitpriority=100)


class ProcessPool(Executor):
    """``workers`` spawned processes (spawned, not forked: Numba and threads do not survive
    a fork), each running the hooks."""

    def __init__(self, workers: int, hooks: Hooks | None = None) -> None:
        self.workers = workers
        ctx = multiprocessing.get_context("spawn")
        self._stop = ctx.Event()
        self._pool = ProcessPoolExecutor(
            workers,
            mp_context=ctx,
            initializer=_start_worker,
            initargs=(hooks or Hooks(), self._stop),
        )

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        pending: set[Future[R]] = {self._pool.submit(fn, item) for item in items}
        try:
            while pending:
                finished, pending = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
                for f in finished:
                    yield f.result()
        except KeyboardInterrupt:
            self._halt(pending)
            # Keep what finished while we were stopping.
            for f in pending:
                if f.done() and not f.cancelled() and f.exception() is None:
                    yield f.result()
            raise
        finally:
            self._halt(pending)

    def _halt(self, pending: Iterable[Future[R]]) -> None:
        """Work under way gives up at its next check of the flag; queued work never starts."""
        if self._stop.is_set():
            return
        self._stop.set()
        for f in pending:
            f.cancel()
        try:
            self._pool.shutdown(wait=True, cancel_futures=True)
        except KeyboardInterrupt:  # a second Ctrl-C: leave the workers to end on their own
            self._pool.shutdown(wait=False, cancel_futures=True)
            raise

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
