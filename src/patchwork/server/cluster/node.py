"""One process of several (``--redis``): what it does beside serving its own clients.

- It announces every version it commits, and on another process's announcement brings the
  game in memory up to the database (when it has clients or timed work for it), so its
  clients hear every change, in version order; after losing Redis it catches up every game
  it serves.
- A game's AI turns and clock flags run where its lease is held: renewed every second, so
  that when the holder dies another process takes the lease (and the game) within seconds.
- It keeps its connections in Redis (refreshed by a heartbeat) so every process counts the
  players and spectators connected anywhere.

Every Redis call may fail: then the process carries on alone (the database still decides
every change) until Redis answers again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any, Protocol

from redis.exceptions import RedisError

from .redis_cluster import Cluster

log = logging.getLogger("patchwork.server")
TICK = 1.0  # seconds between lease renewals and looks for free leases
HEARTBEAT = 5.0  # seconds between refreshes of this process's presence entries
FAILS = (RedisError, OSError, TimeoutError)


class Served(Protocol):
    """What a node asks of the games this process serves (games/catch_up.py answers)."""

    def version_in_memory(self, game_id: str) -> int | None: ...
    def local_games(self) -> list[str]: ...
    def has_clients(self, game_id: str) -> bool: ...
    def local_presence(self, game_id: str) -> tuple[list[int], int]: ...
    def remote_presence(self, game_id: str, remote: tuple[frozenset[int], int]) -> None: ...
    async def catch_up(self, game_id: str, announced: int | None = None) -> None: ...
    async def take_over(self, game_id: str) -> None: ...


class ClusterNode:
    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.svc: Served | None = None
        self.held: set[str] = set()  # the games whose lease this process holds
        self.wanted: set[str] = set()  # games with timed work whose lease it has not got
        self._trying: set[str] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loops: list[asyncio.Task[Any]] = []

    def start(self, svc: Served) -> None:
        self.svc = svc
        self._loops = [
            asyncio.get_running_loop().create_task(c)
            for c in (
                self.cluster.listen(self._on_message, self._on_connected),
                self._lease_loop(),
                self._heartbeat_loop(),
            )
        ]

    async def close(self) -> None:
        for task in [*self._loops, *self._tasks]:
            task.cancel()
        await asyncio.gather(*self._loops, *self._tasks, return_exceptions=True)
        with contextlib.suppress(*FAILS):
            for game_id in list(self.held):
                await self.cluster.release(game_id)
            await self.cluster.set_presence({g: ([], 0) for g in self._local_games()})

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _local_games(self) -> list[str]:
        assert self.svc is not None
        return self.svc.local_games()

    # -- announcements ------------------------------------------------------------------------

    def committed(self, game_id: str, version: int) -> None:
        """A version of the game was stored here: tell the other processes (after commit)."""
        self._spawn(self._publish(game_id, {"version": version}))

    async def _publish(self, game_id: str, message: dict[str, Any]) -> None:
        with contextlib.suppress(*FAILS):  # the others catch up when Redis is back
            await self.cluster.publish(game_id, message)

    def _on_message(self, game_id: str, body: dict[str, Any]) -> None:
        assert self.svc is not None
        held = self.svc.version_in_memory(game_id)
        if held is None:
            return
        if "presence" in body:
            self._spawn(self._read_presence(game_id))
            return
        version = body.get("version")
        needed = self.svc.has_clients(game_id) or game_id in self.held
        if needed and isinstance(version, int) and version > held:
            self._spawn(self.svc.catch_up(game_id, version))

    async def _on_connected(self) -> None:
        """(Re)subscribed: what was announced meanwhile is read from the database."""
        assert self.svc is not None
        for game_id in self._local_games():
            if self.svc.version_in_memory(game_id) is not None:
                self._spawn(self.svc.catch_up(game_id))
                self._spawn(self._read_presence(game_id))
        self._spawn(self._publish_presence(self._local_games()))

    # -- presence -----------------------------------------------------------------------------

    def presence_changed(self, game_id: str) -> None:
        """A client of the game connected here or left."""
        self._spawn(self._publish_presence([game_id], announce=True))

    async def _publish_presence(self, game_ids: list[str], announce: bool = False) -> None:
        assert self.svc is not None
        entries = {g: self.svc.local_presence(g) for g in game_ids}
        try:
            await self.cluster.set_presence(entries)
            if announce:
                for game_id in game_ids:
                    await self.cluster.publish(game_id, {"presence": True})
        except FAILS:
            pass

    async def _read_presence(self, game_id: str) -> None:
        assert self.svc is not None
        try:
            remote = await self.cluster.presence(game_id)
        except FAILS:
            return
        self.svc.remote_presence(game_id, remote)

    async def load_presence(self, game_id: str) -> None:
        """A game came into memory: who is connected to it elsewhere."""
        await self._read_presence(game_id)

    async def _heartbeat_loop(self) -> None:
        assert self.svc is not None
        while True:
            await asyncio.sleep(HEARTBEAT)
            games = self._local_games()
            await self._publish_presence(games)
            for game_id in games:  # and forget the processes that died
                if self.svc.version_in_memory(game_id) is not None:
                    await self._read_presence(game_id)

    # -- leases -------------------------------------------------------------------------------

    def holds(self, game_id: str) -> bool:
        return game_id in self.held

    def want(self, game_id: str) -> None:
        """The game has timed work (an AI turn, a running clock): get its lease to run it."""
        self.wanted.add(game_id)
        if game_id not in self._trying:
            self._spawn(self._try(game_id, announce=True))

    def done(self, game_id: str) -> None:
        """The game has no timed work now: free its lease."""
        self.wanted.discard(game_id)
        if game_id in self.held:
            self.held.discard(game_id)
            self._spawn(self._release(game_id))

    async def _release(self, game_id: str) -> None:
        with contextlib.suppress(*FAILS):
            await self.cluster.remove_work(game_id)
            await self.cluster.release(game_id)

    async def _try(self, game_id: str, announce: bool = False) -> None:
        """Take the game's lease if it is free; if taken, run what is due in it."""
        assert self.svc is not None
        self._trying.add(game_id)
        try:
            try:
                if announce:
                    await self.cluster.add_work(game_id)
                got = await self.cluster.acquire(game_id)
            except FAILS:
                # Without Redis nobody can hold a lease: run the work here. The database's
                # version guard still lets only one process commit each change.
                got = True
            if got:
                await self._take(game_id)
        finally:
            self._trying.discard(game_id)

    async def _take(self, game_id: str) -> None:
        """The lease is this process's: run what is due in the game."""
        assert self.svc is not None
        self.held.add(game_id)
        self.wanted.discard(game_id)
        try:
            await self.svc.take_over(game_id)
        except Exception:
            log.exception("running the timed work of game %s failed", game_id)
            self.wanted.add(game_id)
            self.held.discard(game_id)

    async def _lease_loop(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            try:
                kept = await self.cluster.renew(sorted(self.held))
                for lost in self.held - kept:
                    log.warning("lost the lease of game %s to another process", lost)
                self.held &= kept
                free = (await self.cluster.work()) | self.wanted
                free -= self.held | self._trying
                got = await self.cluster.renew(sorted(free))  # the free ones among them
            except FAILS:
                continue
            for game_id in got:
                self._spawn(self._claimed(game_id))

    async def _claimed(self, game_id: str) -> None:
        self._trying.add(game_id)
        try:
            await self._take(game_id)
        finally:
            self._trying.discard(game_id)
