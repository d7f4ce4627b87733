"""Each account's sockets (``/ws/me``, open on every page of the site) on this process,
delivery to them from any process, and who is online.

A message for an account is sent to its sockets here and published for the other processes,
which send it to theirs. Live delivery rides on Redis and is not repeated after an outage;
nothing is lost by that, since every domain keeps its state in the database and a socket's
client reads it again when it (re)connects. Each message a domain sends has its own id, so a
client that hears one twice (live and in such a read) shows it once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Coroutine
from typing import Any

from pydantic import BaseModel
from redis.exceptions import RedisError

from ..cluster.redis_cluster import Cluster
from ..games.hub import Connection
from ..storage.models import utcnow
from ..storage.store import Store
from . import relay, seen

log = logging.getLogger("patchwork.server")
FAILS = (RedisError, OSError, TimeoutError)
RENEW = 5.0  # seconds between renewals of this process's online accounts
SEEN_EVERY = 60.0  # seconds between writes of "seen" for the accounts connected here


class People:
    def __init__(self, store: Store, cluster: Cluster | None) -> None:
        self.store = store
        self.cluster = cluster
        self.sockets: defaultdict[str, set[Connection]] = defaultdict(set)
        self._loops: list[asyncio.Task[Any]] = []
        self._tasks: set[asyncio.Task[Any]] = set()

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        coros: list[Coroutine[Any, Any, None]] = [self._renewer()]
        if self.cluster is not None:
            coros.append(relay.listen(self.cluster, self._send_here))
        self._loops = [loop.create_task(c) for c in coros]

    async def close(self) -> None:
        for task in [*self._loops, *self._tasks]:
            task.cancel()
        await asyncio.gather(*self._loops, *self._tasks, return_exceptions=True)
        users = list(self.sockets)
        with contextlib.suppress(Exception):
            await self.store.call(seen.mark, self.store.engine, users, utcnow())
        if self.cluster is not None:
            with contextlib.suppress(*FAILS):
                for user_id in users:
                    await relay.mark_offline(self.cluster, user_id)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- sockets --------------------------------------------------------------------------------

    async def join(self, user_id: str, conn: Connection) -> None:
        first = not self.sockets[user_id]
        self.sockets[user_id].add(conn)
        if first:
            await self._seen([user_id])
            await self._online([user_id])

    async def leave(self, user_id: str, conn: Connection) -> None:
        held = self.sockets.get(user_id)
        if held is None:
            return
        held.discard(conn)
        if held:
            return
        del self.sockets[user_id]
        await self._seen([user_id])
        if self.cluster is not None:
            with contextlib.suppress(*FAILS):
                await relay.mark_offline(self.cluster, user_id)

    # -- delivery -------------------------------------------------------------------------------

    def deliver(self, user_id: str, message: BaseModel) -> None:
        """Send ``message`` to every socket of the account, on every process."""
        text = message.model_dump_json()
        self._send_here(user_id, text)
        if self.cluster is not None:
            self._spawn(self._publish(user_id, text))

    async def _publish(self, user_id: str, text: str) -> None:
        assert self.cluster is not None
        with contextlib.suppress(*FAILS):
            await relay.publish(self.cluster, user_id, text)

    def _send_here(self, user_id: str, text: str) -> None:
        for conn in list(self.sockets.get(user_id, ())):
            conn.send_text(text)

    # -- who is online --------------------------------------------------------------------------

    async def online(self) -> set[str]:
        """The accounts with a socket open on any process (this one's alone without Redis)."""
        here = set(self.sockets)
        if self.cluster is None:
            return here
        try:
            return here | await relay.online(self.cluster)
        except FAILS:
            return here

    async def _online(self, user_ids: list[str]) -> None:
        if self.cluster is not None:
            with contextlib.suppress(*FAILS):
                await relay.mark_online(self.cluster, user_ids)

    async def _seen(self, user_ids: list[str]) -> None:
        try:
            await self.store.call(seen.mark, self.store.engine, user_ids, utcnow())
        except Exception:  # the database is away: the next renewal writes it
            log.warning("could not write when %d accounts were seen", len(user_ids))

    async def _renewer(self) -> None:
        waited = 0.0
        while True:
            await asyncio.sleep(RENEW)
            await self._online(list(self.sockets))
            waited += RENEW
            if waited >= SEEN_EVERY:
                waited = 0.0
                await self._seen(list(self.sockets))
