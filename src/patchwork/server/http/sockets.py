"""What every websocket of the server shares: the cap on connections per address, reading
text frames, checking each message (size, JSON, shape) before anything looks at it, the
hello, and the per-connection rate limit with its flood guard. A game's socket (game_socket.py) and
the lobby's (lobby_socket.py) differ only in their messages and what they do with them.

A bad message gets an ``error`` message (its code the same in every language, its text in
the connection's) and changes nothing; the connection stays open.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import WebSocket
from pydantic import TypeAdapter, ValidationError
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocketDisconnect

from ...i18n import N_, supported
from ..accounts.service import Accounts
from ..common.config import Settings
from ..common.errors import ServerError, request_language
from ..common.ratelimit import ConnectionCount
from ..games.hub import Connection
from ..games.messages import ErrorMessage, encode
from .sessions import CLOSE_SESSION_ENDED, SessionSockets

log = logging.getLogger("patchwork.server")

CLOSE_NOT_FOUND = 4404
CLOSE_BAD_TOKEN = 4403
CLOSE_NO_HELLO = 4400
CLOSE_POLICY = 1008  # too many messages over the rate limit
CLOSE_UNAVAILABLE = 1011
CLOSE_TOO_MANY = 4429  # the client's address holds as many connections as it may
HELLO_ATTEMPTS = 10  # messages before a hello, after which the connection is closed
FLOOD_LIMIT = 100  # messages refused within FLOOD_WINDOW seconds: the connection is closed
FLOOD_WINDOW = 10.0


def error_message(err: ServerError, ref: Any = None, lang: str | None = None) -> ErrorMessage:
    """An ``error`` message, its text in ``lang`` (the code is the same in every language)."""
    return ErrorMessage(**err.body(lang), ref=ref)


def error_text(err: ServerError, ref: Any = None, lang: str | None = None) -> str:
    return encode(error_message(err, ref, lang))


def hello_language(raw: Any, default: str) -> str:
    """The language a hello asks for in its optional ``lang`` field (``default`` without)."""
    lang = raw.get("lang") if isinstance(raw, dict) else None
    return (supported(lang) if isinstance(lang, str) else None) or default


def _describe(e: ValidationError) -> str:
    parts = []
    for item in e.errors()[:3]:
        where = ".".join(str(x) for x in item["loc"] if not isinstance(x, int))
        parts.append(f"{where}: {item['msg']}" if where else str(item["msg"]))
    return "; ".join(parts)


def decode(text: str, max_bytes: int) -> Any:
    """The JSON value of a message within the size limit, or ServerError."""
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise ServerError(
            "too_large",
            N_("messages are at most {limit} bytes; this one has {size}"),
            {"limit": max_bytes, "size": len(text)},
        )
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise ServerError("bad_json", N_("not valid JSON: {error}"), {"error": str(e)}) from None


def ref_of(raw: Any) -> str | int | None:
    """The request's ``id`` (echoed as ``ref``), even from a message that fails to validate."""
    ref = raw.get("id") if isinstance(raw, dict) else None
    return ref if isinstance(ref, str | int) and not isinstance(ref, bool) else None


def validate(raw: Any, messages: TypeAdapter[Any]) -> Any:
    """The member of the closed set ``messages`` that ``raw`` is, or ServerError
    ``invalid_message`` saying why not."""
    if not isinstance(raw, dict):
        raise ServerError("invalid_message", N_("a message is a JSON object with a type"))
    try:
        return messages.validate_python(raw)
    except ValidationError as e:
        raise ServerError("invalid_message", _describe(e)) from None


async def receive_text(websocket: WebSocket) -> str | None:
    """The next text frame; None once the client is gone. Binary frames are refused."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return None
        text = message.get("text")
        if text is not None:
            return str(text)
        raise ServerError("invalid_message", N_("send JSON as text frames, not binary"))


async def admit(websocket: WebSocket, serve: Callable[[str], Awaitable[None]]) -> None:
    """Accept a websocket and ``serve`` it (with the language its handshake asks for), unless
    its address already holds as many connections as it may."""
    # Until a hello says otherwise: ?lang= or the handshake's Accept-Language.
    lang = request_language(websocket)
    counts: ConnectionCount = websocket.app.state.ws_addresses
    address = websocket.client.host if websocket.client else "-"
    await websocket.accept()
    if not counts.acquire(address):
        err = ServerError(
            "too_many_connections",
            N_("at most {limit} connections from one address at a time"),
            {"limit": counts.limit},
        )
        await websocket.send_text(error_text(err, None, lang))
        await websocket.close(CLOSE_TOO_MANY, "too many connections")
        return
    try:
        await serve(lang)
    finally:
        counts.release(address)


async def hello(
    websocket: WebSocket,
    messages: TypeAdapter[Any],
    hello_type: type[Any],
    reminder: str,
    settings: Settings,
    lang: str,
) -> tuple[Any, str] | None:
    """The client's hello (a ``hello_type`` of ``messages``, within the settings' size and
    time) and the language it asks for; None if the client left or never said hello (then
    it is told ``reminder`` and the connection is closed)."""
    max_bytes, timeout = settings.max_message_bytes, settings.hello_timeout

    async def first() -> tuple[Any, str] | None:
        for _ in range(HELLO_ATTEMPTS):
            ref = None
            try:
                text = await receive_text(websocket)
                if text is None:
                    return None
                raw = decode(text, max_bytes)
                ref = ref_of(raw)
                msg = validate(raw, messages)
                if isinstance(msg, hello_type):
                    return msg, hello_language(raw, lang)
                raise ServerError("hello_required", reminder)
            except ServerError as e:
                await websocket.send_text(error_text(e, ref, lang))
        raise TimeoutError  # treated as a missing hello

    try:
        return await asyncio.wait_for(first(), timeout)
    except TimeoutError:
        await websocket.send_text(error_text(ServerError("hello_required", reminder), None, lang))
        await websocket.close(CLOSE_NO_HELLO, "no hello")
        return None
    except (WebSocketDisconnect, RuntimeError):
        return None


async def serve(
    conn: Connection,
    lang: str,
    max_bytes: int,
    rate: float,
    messages: TypeAdapter[Any],
    handle: Callable[[Any, Any], Awaitable[str | None]],
) -> None:
    """Read the connection's messages until it closes: each one within the rate limit is
    checked and given to ``handle`` (the message and its ``ref``), whose reply, if any (as
    its socket's messages encode it), is sent back; a flood of refused messages closes the
    connection."""
    refused: deque[float] = deque()  # when messages were refused, the last FLOOD_WINDOW s
    registry: SessionSockets = conn.websocket.app.state.session_sockets
    with registry.holding(conn):
        # The session may have ended while the socket was greeted, before it was listed
        # here to hear of it: the database says.
        if conn.caller.session is not None and not await still_signed_in(conn, conn.websocket):
            conn.close(CLOSE_SESSION_ENDED, "the session ended")
            return
        while True:
            try:
                text = await receive_text(conn.websocket)
            except ServerError as e:
                conn.send(error_message(e, lang=lang))
                continue
            if text is None or conn.closed:
                return
            if not conn.bucket.take():
                if _flooded(conn, refused, rate, lang):
                    return
                continue
            reply = await _answer(conn, text, lang, max_bytes, messages, handle)
            if reply is not None:
                conn.send_text(reply)
            if conn.closed:  # its session ended, or the handler closed it
                return


def _flooded(conn: Connection, refused: deque[float], rate: float, lang: str) -> bool:
    """Refuse a message over the rate limit; True when refusals came so thick that the
    connection is closed."""
    now = time.monotonic()
    refused.append(now)
    while refused[0] < now - FLOOD_WINDOW:
        refused.popleft()
    if len(refused) > FLOOD_LIMIT:
        err = ServerError("rate_limited", N_("too many messages: disconnected"))
        conn.send(error_message(err, lang=lang))
        conn.close(CLOSE_POLICY, "too many messages")
        return True
    err = ServerError(
        "rate_limited",
        N_("too many messages: at most {rate:g} a second"),
        {"rate": rate},
        retry_after=round(conn.bucket.retry_after(), 3),
    )
    conn.send(error_message(err, lang=lang))
    return False


async def still_signed_in(conn: Connection, via: HTTPConnection) -> bool:
    """Whether the session the connection was opened with still lives (the database says:
    its end may not have been announced here, or it expired); ``via``: its websocket or
    request, for the app."""
    accounts: Accounts = via.app.state.accounts
    assert conn.caller.session is not None
    return await accounts.alive(conn.caller.session)


async def _answer(
    conn: Connection,
    text: str,
    lang: str,
    max_bytes: int,
    messages: TypeAdapter[Any],
    handle: Callable[[Any, Any], Awaitable[str | None]],
) -> str | None:
    """``handle``'s reply to one message; an error's message instead when it is refused."""
    ref = None
    try:
        raw = decode(text, max_bytes)
        ref = ref_of(raw)
        msg = validate(raw, messages)
        if conn.caller.session is not None and not await still_signed_in(conn, conn.websocket):
            err = ServerError("not_signed_in", N_("your session has ended: sign in again"))
            conn.send(error_message(err, ref, lang))
            conn.close(CLOSE_SESSION_ENDED, "the session ended")
            return None
        return await handle(msg, ref)
    except ServerError as e:
        conn.send(error_message(e, ref, lang))
    except Exception:
        log.exception("websocket request failed on %s", conn.game_id)
        err = ServerError("internal_error", N_("the server failed on this request"))
        conn.send(error_message(err, ref, lang))
    return None


async def finish(conn: Connection, writer: asyncio.Task[None]) -> None:
    """Close the connection and let its writer send what is queued (5 s at most)."""
    conn.close()
    try:
        await asyncio.wait_for(writer, 5)
    except (TimeoutError, asyncio.CancelledError):
        writer.cancel()
