"""The websocket hub: who is connected to which game, and fan-out of messages to them.

Each connection has its own outgoing queue drained by its own writer task, so a broadcast
never waits on a slow client; a client that falls too far behind is disconnected.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict

from pydantic import BaseModel
from starlette.websockets import WebSocket

from ..common.ratelimit import TokenBucket
from .live import GUEST, Caller
from .messages import encode

log = logging.getLogger("patchwork.server")

QUEUE_SIZE = 256
CLOSE_TOO_SLOW = 4008


class Connection:
    """One client's websocket on one game: its seats (none for a spectator) and its queue.
    An HTTP stream (http/streams.py) is one too, without a websocket: it reads the queue."""

    def __init__(
        self,
        websocket: WebSocket | None,
        game_id: str,
        seats: frozenset[int],
        bucket: TokenBucket,
        caller: Caller = GUEST,
    ) -> None:
        self._websocket = websocket
        self.caller = caller
        self.game_id = game_id
        self.seats = seats
        self.bucket = bucket
        self.closed = False
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE_SIZE)
        self._close_code = 1000
        self._close_reason = ""

    def send(self, message: BaseModel) -> None:
        """Queue a message (never blocks)."""
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue a message already encoded (a broadcast encodes once for every client)."""
        if self.closed:
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            log.info("dropping a client of game %s that reads too slowly", self.game_id)
            self.close(CLOSE_TOO_SLOW, "too many unread messages")

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Send what is queued, then close with ``code``."""
        if self.closed:
            return
        self.closed = True
        self._close_code, self._close_reason = code, reason
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(None)
        if self._queue.full():  # no room for the end marker: drop the backlog
            while not self._queue.empty():
                self._queue.get_nowait()
            self._queue.put_nowait(None)

    @property
    def websocket(self) -> WebSocket:
        """The connection's websocket (an HTTP stream has none, and never asks)."""
        assert self._websocket is not None, "an HTTP stream has no websocket"
        return self._websocket

    async def next_text(self) -> str | None:
        """The next message queued; None once the connection is closed."""
        return await self._queue.get()

    async def writer(self) -> None:
        """Drain the queue into the socket until closed."""
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    break
                await self.websocket.send_text(text)
            with contextlib.suppress(Exception):
                await self.websocket.close(self._close_code, self._close_reason)
        except Exception:  # the peer went away: the reader notices and cleans up
            self.closed = True


class Hub:
    def __init__(self) -> None:
        self._rooms: dict[str, set[Connection]] = defaultdict(set)
        # With several processes (--redis): per game, the seats connected on the others and
        # their spectators, as last read from Redis (empty for a single server).
        self.remote: dict[str, tuple[frozenset[int], int]] = {}

    def add(self, conn: Connection) -> None:
        self._rooms[conn.game_id].add(conn)

    def remove(self, conn: Connection) -> None:
        room = self._rooms.get(conn.game_id)
        if room is not None:
            room.discard(conn)
            if not room:
                del self._rooms[conn.game_id]

    def broadcast(self, game_id: str, message: BaseModel) -> None:
        room = self._rooms.get(game_id)
        if not room:
            return
        text = encode(message)
        for conn in list(room):
            conn.send_text(text)

    def has_clients(self, game_id: str) -> bool:
        return bool(self._rooms.get(game_id))

    def seat_connected(self, game_id: str, seat: int) -> bool:
        remote = self.remote.get(game_id)
        if remote is not None and seat in remote[0]:
            return True
        return any(seat in c.seats and not c.closed for c in self._rooms.get(game_id, ()))

    def spectators(self, game_id: str) -> int:
        remote = self.remote.get(game_id)
        here = sum(not c.seats for c in self._rooms.get(game_id, ()))
        return here + (0 if remote is None else remote[1])

    def game_ids(self) -> list[str]:
        """The games with a client connected to this process."""
        return list(self._rooms)

    def local_presence(self, game_id: str) -> tuple[list[int], int]:
        """The seats connected to this process, and its spectators, of one game."""
        room = self._rooms.get(game_id, ())
        seats = sorted({s for c in room if not c.closed for s in c.seats})
        return seats, sum(not c.seats for c in room)

    def count(self) -> int:
        return sum(len(r) for r in self._rooms.values())

    def close_all(self, code: int = 1012, reason: str = "server restarting") -> None:
        for room in list(self._rooms.values()):
            for conn in list(room):
                conn.close(code, reason)
