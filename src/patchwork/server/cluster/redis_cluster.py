"""What several server processes share in Redis (``patchwork serve --redis``): a channel per
game announcing each committed version, the leases that make one process run a game's AI
turns and clock, who is connected to each game on each process, and the rate limits' buckets.

The database stays the truth: Redis only says *that* something changed (a process reads what
changed from the database) and *who* does timed work. When Redis is away, moves still commit;
each call here raises ``redis.RedisError`` and its caller carries on without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger("patchwork.server")

LEASE_MS = 3000  # a lease not renewed for this long is free: its holder died
PRESENCE_STALE = 15.0  # a process's presence entry older than this is ignored (it died)
PRESENCE_KEY_MS = 60_000

# Take the lease if it is free or already ours (then extend it): 1 if held afterwards.
_ACQUIRE = """
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if v then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
# Give the lease back only if it is still ours.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
# A token bucket kept in Redis, timed by Redis's own clock (the processes' clocks may differ):
# the seconds to wait, as text ("0": allowed, and ARGV[3] tokens were spent: 1, or 0 to look).
_BUCKET = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local v = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(v[1]) or burst
local ts = tonumber(v[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - ts) * rate)
local wait = 0
if tokens >= 1 then tokens = tokens - tonumber(ARGV[3]) else wait = (1 - tokens) / rate end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return tostring(wait)
"""


class Cluster:
    """This process's handle on the shared Redis: keys under ``prefix``, a random node id."""

    def __init__(self, url: str, prefix: str = "patchwork:") -> None:
        self.url = url
        self.prefix = prefix
        self.node = secrets.token_hex(6)
        self.redis: aioredis.Redis = aioredis.from_url(
            url, socket_timeout=2, socket_connect_timeout=2, decode_responses=True
        )
        self._acquire = self.redis.register_script(_ACQUIRE)
        self._release = self.redis.register_script(_RELEASE)
        self._bucket = self.redis.register_script(_BUCKET)
        self.up = True  # as last seen: whether Redis answered

    def key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    def channel(self, game_id: str) -> str:
        return self.key("game", game_id)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def ping(self) -> bool:
        try:
            await asyncio.wait_for(self.redis.ping(), 2)
            self.up = True
        except (RedisError, OSError, TimeoutError):
            self.up = False
        return self.up

    # -- announcing changes -----------------------------------------------------------------

    async def publish(self, game_id: str, message: dict[str, Any]) -> None:
        await self.redis.publish(self.channel(game_id), json.dumps({**message, "node": self.node}))

    async def listen(
        self,
        on_message: Callable[[str, dict[str, Any]], None],
        on_connected: Callable[[], Awaitable[None]],
    ) -> None:
        """Receive every game's announcements until cancelled; after every (re)connection
        ``on_connected`` runs (the announcements missed meanwhile must be caught up)."""
        start = len(self.key("game", ""))
        await self._receive(
            self.key("game", "*"),
            lambda channel, body: on_message(channel[start:], body),
            on_connected,
            "lost Redis (%s); moves go on, announcements wait",
        )

    async def _receive(
        self,
        pattern: str,
        on_message: Callable[[str, dict[str, Any]], None],
        on_connected: Callable[[], Awaitable[None]],
        lost: str | None,
    ) -> None:
        """Call ``on_message(channel, body)`` for every other process's announcement on the
        channels matching ``pattern`` and ``on_connected`` after every (re)subscription, until
        cancelled; when Redis goes away, log ``lost`` (once) and subscribe again shortly."""
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(pattern)
                self.up = True
                await on_connected()
                while True:
                    msg = await pubsub.get_message(timeout=1.0)
                    if msg is None or msg.get("type") != "pmessage":
                        continue
                    try:
                        body = json.loads(msg["data"])
                    except (TypeError, ValueError):
                        continue
                    if isinstance(body, dict) and body.get("node") != self.node:
                        on_message(str(msg["channel"]), body)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # Redis went away: try again shortly
                if self.up and lost is not None:
                    log.warning(lost, e)
                self.up = False
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    # -- the lobby (lobby/service.py): one channel saying that its seeks changed ----------------

    async def publish_lobby(self) -> None:
        """Tell the other processes that the lobby's seeks changed (they re-read them)."""
        await self.redis.publish(self.key("lobby"), json.dumps({"node": self.node}))

    async def listen_lobby(self, on_change: Callable[[], None]) -> None:
        """Call ``on_change`` on every other process's lobby announcement, and after every
        (re)subscription (what was announced meanwhile is in the database); until cancelled."""

        async def connected() -> None:
            on_change()

        await self._receive(self.key("lobby"), lambda _channel, _body: on_change(), connected, None)

    # -- chat (chat/service.py): one channel carrying each chat message once it is stored ------

    async def publish_chat(self, body: dict[str, Any]) -> None:
        """Tell the other processes of a stored chat message (they send it to their own
        connections of its room)."""
        await self.redis.publish(self.key("chat"), json.dumps({**body, "node": self.node}))

    async def listen_chat(
        self,
        on_message: Callable[[dict[str, Any]], None],
        on_connected: Callable[[], Awaitable[None]],
    ) -> None:
        """Call ``on_message`` with every other process's chat announcement, and
        ``on_connected`` after every (re)subscription (what was said meanwhile is in the
        database); until cancelled."""
        await self._receive(
            self.key("chat"), lambda _channel, body: on_message(body), on_connected, None
        )

    # -- sessions (http/sessions.py): one channel naming the account sessions that ended -------

    async def publish_sessions_ended(self, session_hashes: list[str]) -> None:
        """Tell the other processes that these sessions ended (they close their sockets)."""
        body = {"node": self.node, "sessions": session_hashes}
        await self.redis.publish(self.key("sessions"), json.dumps(body))

    async def listen_sessions(self, on_end: Callable[[list[str]], object]) -> None:
        """Call ``on_end`` with the sessions every other process says ended; until cancelled.
        (An announcement lost while Redis was away is made good by each socket's check of
        its session at its next message.)"""

        def received(_channel: str, body: dict[str, Any]) -> None:
            ended = body.get("sessions")
            if isinstance(ended, list):
                on_end([h for h in ended if isinstance(h, str)])

        async def connected() -> None:
            return None

        await self._receive(self.key("sessions"), received, connected, None)

    # -- which processes are alive (the lobby's seeks die with theirs) -------------------------

    async def mark_alive(self, node: str, ms: int) -> None:
        """This process (``node``) is alive for the next ``ms`` milliseconds."""
        await self.redis.set(self.key("alive", node), "1", px=ms)

    async def answer_for(self, node: str) -> None:
        """Hold this process's own channel open until cancelled: while it is, ``listening``
        finds it. (Redis drops the subscription the moment the process dies, kill -9 too,
        since the system closes its connection.)"""

        async def nothing() -> None:
            return None

        await self._receive(self.key("node", node), lambda _c, _b: None, nothing, None)

    async def listening(self, node: str) -> bool:
        """Whether the process ``node`` is connected to Redis right now."""
        receivers = await self.redis.publish(
            self.key("node", node), json.dumps({"node": self.node})
        )
        return int(receivers) > 0

    async def alive(self, nodes: list[str]) -> set[str]:
        """Those of ``nodes`` that said lately that they are alive."""
        if not nodes:
            return set()
        found = await self.redis.mget([self.key("alive", n) for n in nodes])
        return {n for n, v in zip(nodes, found, strict=True) if v is not None}

    # -- leases: who runs a game's AI turns and clock ------------------------------------------

    async def acquire(self, game_id: str, kind: str = "lease") -> bool:
        """Hold (or keep holding) the game's lease; True if this process holds it. ``kind``
        names other leases of the same mechanism (``"tlease"``: who directs a tournament)."""
        held = await self._acquire(keys=[self.key(kind, game_id)], args=[self.node, LEASE_MS])
        return bool(held)

    async def renew(self, game_ids: list[str], kind: str = "lease") -> set[str]:
        """:meth:`acquire` each, in one round trip: the ids this process holds afterwards
        (its leases extended, free ones taken)."""
        if not game_ids:
            return set()
        async with self.redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                await self._acquire(
                    keys=[self.key(kind, game_id)], args=[self.node, LEASE_MS], client=pipe
                )
            results = await pipe.execute()
        return {g for g, ok in zip(game_ids, results, strict=True) if ok}

    async def release(self, game_id: str, kind: str = "lease") -> None:
        await self._release(keys=[self.key(kind, game_id)], args=[self.node])

    async def add_work(self, game_id: str) -> None:
        await self.redis.sadd(self.key("work"), game_id)

    async def remove_work(self, game_id: str) -> None:
        await self.redis.srem(self.key("work"), game_id)

    async def work(self, limit: int = 1000) -> set[str]:
        """Games that have (or had) timed work: the ones a lease is looked for."""
        ids = await self.redis.srandmember(self.key("work"), limit)
        return {str(i) for i in ids or ()}

    # -- presence ---------------------------------------------------------------------------

    async def set_presence(self, entries: dict[str, tuple[list[int], int]]) -> None:
        """This process's connections: per game, the seats connected here and spectators."""
        now = time.time()
        async with self.redis.pipeline(transaction=False) as pipe:
            for game_id, (seats, spectators) in entries.items():
                key = self.key("presence", game_id)
                if seats or spectators:
                    value = json.dumps({"seats": seats, "spectators": spectators, "t": now})
                    pipe.hset(key, self.node, value)
                    pipe.pexpire(key, PRESENCE_KEY_MS)
                else:
                    pipe.hdel(key, self.node)
            await pipe.execute()

    async def presence(self, game_id: str) -> tuple[frozenset[int], int]:
        """The seats connected to the game on other processes, and their spectators."""
        entries = await self.redis.hgetall(self.key("presence", game_id))
        seats: set[int] = set()
        spectators = 0
        cutoff = time.time() - PRESENCE_STALE
        for node, raw in entries.items():
            if node == self.node:
                continue
            try:
                entry = json.loads(raw)
                if float(entry["t"]) < cutoff:
                    continue
                seats.update(int(s) for s in entry["seats"])
                spectators += int(entry["spectators"])
            except (TypeError, ValueError, KeyError):
                continue
        return frozenset(seats), spectators

    # -- rate limits ------------------------------------------------------------------------

    async def take(self, key: str, rate: float, burst: int, spend: bool = True) -> float | None:
        """Spend a token of the shared bucket ``key`` (or only look, ``spend`` False): None if
        allowed, else seconds to wait."""
        args = [rate, burst, 1 if spend else 0]
        wait = float(await self._bucket(keys=[self.key("rate", key)], args=args))
        return None if wait <= 0 else wait

    async def forget_all(self) -> None:
        """Delete every key under the prefix (tests, with a prefix of their own)."""
        async for key in self.redis.scan_iter(match=self.prefix + "*", count=500):
            await self.redis.delete(key)
