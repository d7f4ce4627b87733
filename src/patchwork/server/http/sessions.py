"""What a session can do ends when the session ends, on open websockets too: every game and
lobby socket opened with an account's session is listed here under that session, and closed
when it ends (signed out, the password changed, the account deleted), on this process at once
and on the others through Redis. Each message such a socket sends is checked against the
database as well (sockets.py), so nothing is done in an ended session's name even while Redis
is away or the session simply expired."""

from __future__ import annotations

import contextlib
import logging
from collections import defaultdict
from collections.abc import Iterator

from redis.exceptions import RedisError

from ..cluster.redis_cluster import Cluster
from ..games.hub import Connection

log = logging.getLogger("patchwork.server")
CLOSE_SESSION_ENDED = 4401


class SessionSockets:
    def __init__(self, cluster: Cluster | None = None) -> None:
        self.cluster = cluster
        self._open: defaultdict[str, set[Connection]] = defaultdict(set)

    @contextlib.contextmanager
    def holding(self, conn: Connection) -> Iterator[None]:
        """``conn`` listed under its session (if it has one) while the block runs."""
        session = conn.caller.session
        if session is None:
            yield
            return
        self._open[session].add(conn)
        try:
            yield
        finally:
            self._open[session].discard(conn)
            if not self._open[session]:
                del self._open[session]

    def close(self, sessions: list[str]) -> int:
        """Close this process's sockets of those sessions; how many there were."""
        closed = 0
        for session in sessions:
            for conn in self._open.pop(session, set()):
                conn.close(CLOSE_SESSION_ENDED, "the session ended")
                closed += 1
        return closed

    async def ended(self, sessions: list[str]) -> None:
        """Sessions ended (their rows are gone): close their sockets here and everywhere."""
        if not sessions:
            return
        self.close(sessions)
        if self.cluster is not None:
            with contextlib.suppress(RedisError, OSError, TimeoutError):
                await self.cluster.publish_sessions_ended(sessions)
