"""The Ray executor (``--ray``): the work on a Ray cluster, one actor per CPU.

Each actor plays the part of one worker process of ``--workers``: it runs the hooks (so
agents it keeps are closed when it ends), is given one item at a time, and has a stop flag
that a second thread of its own sets when the run stops early (a threaded actor, whose work
holds a lock, so the flag is the only thing the two threads share). Ray is an
optional extra, imported only when an executor is made: the CLI starts without it.

Addresses are Ray's own: ``local`` starts a Ray of this machine for the run (and shuts it
down after), ``auto`` joins the one ``ray start --head`` started here (or ``RAY_ADDRESS``),
``HOST:PORT`` a cluster's head, ``ray://HOST:PORT`` one through the Ray Client. A process
already connected to Ray (a program that called ``ray.init`` itself) uses that connection
and leaves it open.
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import Any, TypeVar

from ..engine.errors import PatchworkError
from ..i18n import N_
from .executor import POLL_SECONDS, Executor, Hooks

T = TypeVar("T")
R = TypeVar("R")

LOCAL = "local"  # the same as the package's (which this module may not import: a cycle)
AUTO = "auto"
CLIENT_PREFIX = "ray://"
REACH_SECONDS = 3.0  # how long a head that does not answer is given (Ray itself waits minutes)
FINISH_SECONDS = 30.0  # how long the actors' finish hooks are given at the end
# Ray's note on usage statistics kept out of the terminal (set before Ray is imported; a
# user's own setting wins).
QUIET_ENVIRONMENT = {"RAY_USAGE_STATS_ENABLED": "0"}
AUTH_MODE = "RAY_AUTH_MODE"


def import_ray() -> ModuleType:
    """Ray, or a clear PatchworkError when the extra is not installed."""
    for name, setting in QUIET_ENVIRONMENT.items():
        os.environ.setdefault(name, setting)
    try:
        import ray
    except ImportError:
        raise PatchworkError(N_("install patchwork-game[cluster] for --ray")) from None
    return ray


def check_address(address: str) -> None:
    """Raise PatchworkError unless ``address`` is a Ray address whose head answers."""
    if address in (LOCAL, AUTO):
        return
    rest = address.removeprefix(CLIENT_PREFIX)
    host, _colon, port = rest.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise PatchworkError(
            N_("{address} is not a Ray address: give auto, HOST:PORT or ray://HOST:PORT"),
            address=address,
        )
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_SECONDS).close()
    except OSError as e:
        raise PatchworkError(
            N_("cannot reach the Ray cluster at {address}: {error}"), address=address, error=str(e)
        ) from None


class Worker:
    """The actor: one worker's share of the run (made into a Ray actor class at run time)."""

    def __init__(self, hooks: Hooks) -> None:
        self._hooks = hooks
        self._stop = threading.Event()
        self._work = threading.Lock()
        if hooks.start is not None:
            hooks.start(self._stop)

    def run(self, fn: Callable[[Any], Any], item: Any) -> Any:
        with self._work:
            return fn(item)

    def stop(self) -> None:
        self._stop.set()

    def finish(self) -> None:
        with self._work:  # after any work still under way
            if self._hooks.finish is not None:
                self._hooks.finish()


class RayExecutor(Executor):
    """At most ``workers`` items at once (None: one per CPU of the cluster) on the Ray cluster
    at ``address``; connecting (or starting a local Ray) happens here, so a bad address fails
    before any work."""

    def __init__(self, address: str, workers: int | None = None, hooks: Hooks | None = None):
        self._ray = ray = import_ray()
        check_address(address)
        self._hooks = hooks or Hooks()
        self._actors: list[Any] = []
        self._stopped = False
        self._owned = not ray.is_initialized()
        if self._owned:
            self._connect(address, workers)
        cpus = int(ray.cluster_resources().get("CPU", 0))
        if cpus < 1:
            self.close()
            raise PatchworkError(N_("the Ray cluster at {address} has no CPUs"), address=address)
        self.workers = min(workers or cpus, cpus)  # an actor holds its CPU: never wait for one

    def _connect(self, address: str, workers: int | None) -> None:
        options: dict[str, Any] = {"log_to_driver": False, "logging_level": "ERROR"}
        if address == LOCAL:
            options.update(include_dashboard=False, num_cpus=workers)
        try:
            self._ray.init(address=address, **options)
        except KeyboardInterrupt:  # a local Ray half started goes too
            self._ray.shutdown()
            raise
        except Exception as e:  # Ray says why in its own words: ConnectionError and others
            self._ray.shutdown()
            template = N_("cannot connect to the Ray cluster at {address}: {error}")
            if address not in (LOCAL, AUTO) and AUTH_MODE not in os.environ:
                # Ray sends no token to an address given by hand unless told to.
                template = N_(
                    "cannot connect to the Ray cluster at {address}: {error} (a cluster with "
                    "token authentication wants RAY_AUTH_MODE=token and its token)"
                )
            raise PatchworkError(template, address=address, error=str(e)) from None

    def _start_actors(self, count: int) -> list[Any]:
        remote = self._ray.remote(num_cpus=1, max_concurrency=2)(Worker)
        while len(self._actors) < count:
            self._actors.append(remote.remote(self._hooks))
        return self._actors[:count]

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        ray = self._ray
        work = list(items)
        queue = iter(work)
        running: dict[Any, Any] = {}  # the result's ObjectRef -> the actor working on it

        def feed(actor: Any) -> None:
            for item in queue:
                running[actor.run.remote(fn, item)] = actor
                return

        try:
            for actor in self._start_actors(min(self.workers, len(work))):
                feed(actor)
            while running:
                ready, _rest = ray.wait(list(running), num_returns=1, timeout=POLL_SECONDS)
                for ref in ready:
                    actor = running.pop(ref)
                    result = self._get(ref)
                    feed(actor)
                    yield result
        except KeyboardInterrupt:
            self._halt()
            # Work under way gives up at its next check of the flag: keep what it finishes.
            for result in self._drain(running):
                yield result
            raise
        finally:
            self._halt()

    def _get(self, ref: Any) -> Any:
        """The result, or the exception the function raised (not Ray's wrapper of it)."""
        try:
            return self._ray.get(ref)
        except self._ray.exceptions.RayTaskError as e:
            cause = getattr(e, "cause", None)
            if isinstance(cause, BaseException):
                raise cause from None
            raise

    def _drain(self, running: dict[Any, Any]) -> Iterator[Any]:
        while running:
            ready, _rest = self._ray.wait(list(running), num_returns=1, timeout=POLL_SECONDS)
            for ref in ready:
                del running[ref]
                try:
                    result = self._ray.get(ref)
                except self._ray.exceptions.RayError:
                    continue
                yield result

    def _halt(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        for actor in self._actors:
            actor.stop.remote()

    def close(self) -> None:
        """Each actor runs its ``finish`` hook, then goes; a Ray started here shuts down."""
        ray = self._ray
        try:
            if self._actors:
                done = [actor.finish.remote() for actor in self._actors]
                ray.wait(done, num_returns=len(done), timeout=FINISH_SECONDS)
        finally:
            for actor in self._actors:
                ray.kill(actor)
            self._actors = []
            if self._owned:
                ray.shutdown()
                self._owned = False
