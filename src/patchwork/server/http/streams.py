"""Streams (docs/bots.md): a connection's messages as newline-delimited JSON, one a line, on
an HTTP response that stays open, with an empty line every ``KEEP_ALIVE`` seconds so that the
client and every proxy between know it lives. What a websocket of the same connection would
be sent, a stream is sent; it ends when the connection is closed (its session ended, on any
process; the server stops; the reader fell too far behind) or when the client goes away.

A stream counts as a connection of its address (``--max-ws-per-address``), like a websocket,
and is listed under its session as one (sessions.py)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

from fastapi import Request
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from ...i18n import N_
from ..common.errors import ServerError
from ..common.ratelimit import ConnectionCount
from ..games.hub import Connection
from .sessions import CLOSE_SESSION_ENDED, SessionSockets
from .sockets import still_signed_in

KEEP_ALIVE = 6.0
NDJSON = "application/x-ndjson"


class _Stream(StreamingResponse):
    """A streaming response that gives its address's connection back however it ends (even
    when the client left before the first line)."""

    def __init__(self, lines: AsyncIterator[bytes], release: Callable[[], None]) -> None:
        super().__init__(
            lines,
            media_type=NDJSON,
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()


def stream(
    request: Request,
    conn: Connection,
    join: Callable[[], Awaitable[None]],
    leave: Callable[[], Awaitable[None]],
    keep_alive: float = KEEP_ALIVE,
) -> StreamingResponse:
    """The response streaming ``conn``'s messages: ``join`` registers it where its messages
    come from (and queues the first ones), ``leave`` undoes that when the stream ends."""
    counts: ConnectionCount = request.app.state.ws_addresses
    registry: SessionSockets = request.app.state.session_sockets
    address = request.client.host if request.client else "-"
    if not counts.acquire(address):
        raise ServerError(
            "too_many_connections",
            N_("at most {limit} connections from one address at a time"),
            {"limit": counts.limit},
        )
    released = False

    def release() -> None:
        nonlocal released
        if not released:
            released = True
            counts.release(address)

    async def lines() -> AsyncIterator[bytes]:
        with registry.holding(conn):
            try:
                await join()
                # The session may have ended before the stream was listed to hear of it.
                if conn.caller.session is not None and not await still_signed_in(conn, request):
                    conn.close(CLOSE_SESSION_ENDED, "the session ended")
                while True:
                    try:
                        text = await asyncio.wait_for(conn.next_text(), keep_alive)
                    except TimeoutError:
                        yield b"\n"
                        continue
                    if text is None:
                        return
                    yield text.encode() + b"\n"
            finally:
                conn.close()
                with contextlib.suppress(Exception):
                    await leave()

    return _Stream(lines(), release)
