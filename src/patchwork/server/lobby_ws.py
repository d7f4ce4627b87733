"""The lobby's websocket: ``/ws/lobby`` (docs/server.md "Lobby").

The client opens with ``hello``; it hears ``welcome`` (who it is, the open seeks), then
``seeks`` after every change and ``paired`` when a game starts for it. Each request is
checked as the game websocket checks its own (size, rate, JSON, shape) before the lobby
looks at it; a bad one gets an ``error`` and changes nothing. Who asks is the handshake's
account (``auth.signed_in``), or a guest.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect

from ..i18n import N_
from . import auth
from .errors import ServerError, request_language
from .hub import Connection
from .lobby import Lobby, LobbyClient, guest_name
from .lobby_messages import (
    LobbyAck,
    LobbyHelloMsg,
    LobbyMessage,
    QuickMsg,
    SeekMsg,
    SeekRefMsg,
    encode,
    lobby_client_messages,
)
from .messages import Pong
from .ratelimit import ConnectionCount, TokenBucket
from .ws import (
    CLOSE_NO_HELLO,
    CLOSE_POLICY,
    CLOSE_TOO_MANY,
    CLOSE_UNAVAILABLE,
    FLOOD_LIMIT,
    FLOOD_WINDOW,
    HELLO_ATTEMPTS,
    decode,
    error_message,
    hello_language,
    ref_of,
)

log = logging.getLogger("patchwork.server")
router = APIRouter()


def _describe(e: ValidationError) -> str:
    parts = []
    for item in e.errors()[:3]:
        where = ".".join(str(x) for x in item["loc"] if not isinstance(x, int))
        parts.append(f"{where}: {item['msg']}" if where else str(item["msg"]))
    return "; ".join(parts)


def validate(raw: Any) -> Any:
    """The lobby message ``raw`` is, or ServerError ``invalid_message`` saying why not."""
    if not isinstance(raw, dict):
        raise ServerError("invalid_message", N_("a message is a JSON object with a type"))
    try:
        return lobby_client_messages.validate_python(raw)
    except ValidationError as e:
        raise ServerError("invalid_message", _describe(e)) from None


async def _receive_text(websocket: WebSocket) -> str | None:
    """The next text frame; None once the client is gone. Binary frames are refused."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return None
        text = message.get("text")
        if text is not None:
            return str(text)
        raise ServerError("invalid_message", N_("send JSON as text frames, not binary"))


def _error_text(err: ServerError, ref: Any, lang: str) -> str:
    return encode(error_message(err, ref, lang))


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
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
        await websocket.send_text(_error_text(err, None, lang))
        await websocket.close(CLOSE_TOO_MANY, "too many connections")
        return
    try:
        await _lobby_socket(websocket, lang)
    finally:
        counts.release(address)


async def _lobby_socket(websocket: WebSocket, lang: str) -> None:
    lobby: Lobby = websocket.app.state.lobby
    settings = lobby.svc.settings
    try:
        user = await auth.signed_in(websocket)
    except ServerError as e:
        await websocket.send_text(_error_text(e, None, lang))
        await websocket.close(CLOSE_UNAVAILABLE, "try again")
        return
    try:
        greeting = await asyncio.wait_for(
            _hello(websocket, settings.max_message_bytes, lang), settings.hello_timeout
        )
    except TimeoutError:
        err = ServerError("hello_required", N_("send hello first"))
        await websocket.send_text(_error_text(err, None, lang))
        await websocket.close(CLOSE_NO_HELLO, "no hello")
        return
    except (WebSocketDisconnect, RuntimeError):
        return
    if greeting is None:
        return
    lang = greeting
    bucket = TokenBucket(settings.ws_rate, settings.ws_burst)
    conn = Connection(websocket, "lobby", frozenset(), bucket)
    name = guest_name() if user is None else user.name
    client = LobbyClient(conn, user, name, lang)
    writer = asyncio.create_task(conn.writer())
    try:
        await lobby.join(client)
        await _serve(lobby, client)
    except (WebSocketDisconnect, RuntimeError):
        pass
    except ServerError as e:  # the database went away while the client was greeted
        conn.send_text(_error_text(e, None, lang))
        conn.close(CLOSE_UNAVAILABLE, "try again")
    finally:
        await lobby.leave(client)
        conn.close()
        try:
            await asyncio.wait_for(writer, 5)
        except (TimeoutError, asyncio.CancelledError):
            writer.cancel()


async def _hello(websocket: WebSocket, max_bytes: int, lang: str) -> str | None:
    """The language the client's hello asks for (None: the client left)."""
    for _ in range(HELLO_ATTEMPTS):
        ref = None
        try:
            text = await _receive_text(websocket)
            if text is None:
                return None
            raw = decode(text, max_bytes)
            ref = ref_of(raw)
            if isinstance(validate(raw), LobbyHelloMsg):
                return hello_language(raw, lang)
            raise ServerError("hello_required", N_("send hello first"))
        except ServerError as e:
            await websocket.send_text(_error_text(e, ref, lang))
    raise TimeoutError  # treated as a missing hello


def _over_rate(client: LobbyClient, refused: deque[float], rate: float) -> bool:
    """Whether this message is refused by the rate limit (and tell the client so); a flood
    closes the connection."""
    conn = client.conn
    if conn.bucket.take():
        return False
    now = time.monotonic()
    refused.append(now)
    while refused[0] < now - FLOOD_WINDOW:
        refused.popleft()
    if len(refused) > FLOOD_LIMIT:
        err = ServerError("rate_limited", N_("too many messages: disconnected"))
        conn.send_text(_error_text(err, None, client.lang))
        conn.close(CLOSE_POLICY, "too many messages")
        return True
    err = ServerError(
        "rate_limited",
        N_("too many messages: at most {rate:g} a second"),
        {"rate": rate},
        retry_after=round(conn.bucket.retry_after(), 3),
    )
    conn.send_text(_error_text(err, None, client.lang))
    return True


async def _serve(lobby: Lobby, client: LobbyClient) -> None:
    refused: deque[float] = deque()  # when messages were refused, the last FLOOD_WINDOW s
    settings = lobby.svc.settings
    conn = client.conn
    while True:
        try:
            text = await _receive_text(conn.websocket)
        except ServerError as e:
            conn.send_text(_error_text(e, None, client.lang))
            continue
        if text is None or conn.closed:
            return
        if _over_rate(client, refused, settings.ws_rate):
            continue
        ref = None
        try:
            raw = decode(text, settings.max_message_bytes)
            ref = ref_of(raw)
            reply = await _dispatch(lobby, client, validate(raw), ref)
        except ServerError as e:
            conn.send_text(_error_text(e, ref, client.lang))
            continue
        except Exception:
            log.exception("lobby request failed")
            err = ServerError("internal_error", N_("the server failed on this request"))
            conn.send_text(_error_text(err, ref, client.lang))
            continue
        client.send(reply)


async def _dispatch(lobby: Lobby, client: LobbyClient, msg: Any, ref: Any) -> LobbyMessage:
    if isinstance(msg, LobbyHelloMsg):
        raise ServerError("invalid_message", N_("hello is sent once, first"))
    if isinstance(msg, SeekMsg):
        return LobbyAck(of="seek", seek_id=await lobby.seek(client, msg), ref=ref)
    if isinstance(msg, QuickMsg):
        return LobbyAck(of="quick", seek_id=await lobby.quick(client, msg.rated), ref=ref)
    if isinstance(msg, SeekRefMsg):
        if msg.type == "cancel":
            await lobby.cancel(client, msg.seek_id)
            return LobbyAck(of="cancel", seek_id=msg.seek_id, ref=ref)
        game_id = await lobby.accept(client, msg.seek_id)
        return LobbyAck(of="accept", seek_id=msg.seek_id, game_id=game_id, ref=ref)
    return Pong(server_time=round(time.time(), 3), ref=ref)
