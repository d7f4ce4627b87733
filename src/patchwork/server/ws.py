"""The websocket of a game: ``/ws/games/{game_id}``.

The client opens with ``hello`` (its seat's token, or none to watch, and the last version it
saw; a browser signed in to an account plays that account's seats without a token); then it
sends moves and other requests and receives every state the game goes through.
Each request is checked (size, rate, JSON, shape) before anything else looks at it; a bad one
gets an ``error`` message and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import TypeAdapter, ValidationError
from starlette.websockets import WebSocketDisconnect

from ..i18n import N_, supported
from . import assist
from .auth import hello_caller
from .errors import ServerError, request_language
from .hub import Connection
from .live import Caller
from .messages import Ack, AnalysisMessage, ErrorMessage, HintMessage, Message, Pong, encode
from .ratelimit import ConnectionCount, TokenBucket
from .schemas import (
    AnalysisMsg,
    ClientMessage,
    HelloMsg,
    MoveMsg,
    RematchMsg,
    SimpleMsg,
    UndoMsg,
)
from .service import GameService

log = logging.getLogger("patchwork.server")
router = APIRouter()

CLOSE_NOT_FOUND = 4404
CLOSE_BAD_TOKEN = 4403
CLOSE_NO_HELLO = 4400
CLOSE_POLICY = 1008  # too many messages over the rate limit
CLOSE_UNAVAILABLE = 1011
CLOSE_TOO_MANY = 4429  # the client's address holds as many connections as it may
HELLO_ATTEMPTS = 10  # messages before a hello, after which the connection is closed
FLOOD_LIMIT = 100  # messages refused within FLOOD_WINDOW seconds: the connection is closed
FLOOD_WINDOW = 10.0

_messages: TypeAdapter[Any] = TypeAdapter(ClientMessage)


def error_message(err: ServerError, ref: Any = None, lang: str | None = None) -> ErrorMessage:
    """An ``error`` message, its text in ``lang`` (the code is the same in every language)."""
    return ErrorMessage(**err.body(lang), ref=ref)


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


def validate(raw: Any) -> Any:
    if not isinstance(raw, dict):
        raise ServerError("invalid_message", N_("a message is a JSON object with a type"))
    try:
        return _messages.validate_python(raw)
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


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    # Until the hello says otherwise: ?lang= or the handshake's Accept-Language.
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
        await websocket.send_text(encode(error_message(err, lang=lang)))
        await websocket.close(CLOSE_TOO_MANY, "too many connections")
        return
    try:
        await _game_socket(websocket, game_id, lang)
    finally:
        counts.release(address)


async def _game_socket(websocket: WebSocket, game_id: str, lang: str) -> None:
    svc: GameService = websocket.app.state.service
    settings = svc.settings
    try:
        live = await svc.get(game_id)
    except ServerError as e:
        await websocket.send_text(encode(error_message(e, lang=lang)))
        await websocket.close(CLOSE_NOT_FOUND, "no such game")
        return
    try:
        greeting = await asyncio.wait_for(
            _hello(websocket, settings.max_message_bytes, lang), settings.hello_timeout
        )
    except TimeoutError:
        err = ServerError(
            "hello_required", N_("send hello first (with your token, or none to watch)")
        )
        await websocket.send_text(encode(error_message(err, lang=lang)))
        await websocket.close(CLOSE_NO_HELLO, "no hello")
        return
    except (WebSocketDisconnect, RuntimeError):
        return
    if greeting is None:
        return
    hello, lang = greeting
    try:
        # The account too: a signed-in browser plays its account's seats without a token.
        who = await hello_caller(websocket, hello.token)
    except ServerError as e:
        await websocket.send_text(encode(error_message(e, hello.id, lang)))
        await websocket.close(CLOSE_BAD_TOKEN, "bad token")
        return
    seats = live.seats_of(who)
    if who.token and not live.seats_of(Caller(token=who.token)):
        err = ServerError("bad_token", N_("that token plays no seat of this game"))
        await websocket.send_text(encode(error_message(err, hello.id, lang)))
        await websocket.close(CLOSE_BAD_TOKEN, "bad token")
        return
    bucket = TokenBucket(settings.ws_rate, settings.ws_burst)
    conn = Connection(websocket, live.id, seats, bucket, who)
    writer = asyncio.create_task(conn.writer())
    try:
        await svc.attach(conn, hello.last_version)
        await _serve(svc, conn, lang)
    except (WebSocketDisconnect, RuntimeError):
        pass
    except ServerError as e:  # the database went away while the client was joining
        conn.send(error_message(e, lang=lang))
        conn.close(CLOSE_UNAVAILABLE, "try again")
    finally:
        svc.detach(conn)
        conn.close()
        try:
            await asyncio.wait_for(writer, 5)
        except (TimeoutError, asyncio.CancelledError):
            writer.cancel()


async def _hello(websocket: WebSocket, max_bytes: int, lang: str) -> tuple[HelloMsg, str] | None:
    """The client's hello and the language it asks for (None: the client left)."""
    for _ in range(HELLO_ATTEMPTS):
        ref = None
        try:
            text = await _receive_text(websocket)
            if text is None:
                return None
            raw = decode(text, max_bytes)
            ref = ref_of(raw)
            msg = validate(raw)
            if isinstance(msg, HelloMsg):
                return msg, hello_language(raw, lang)
            raise ServerError(
                "hello_required", N_("send hello first (your token, or none to watch)")
            )
        except ServerError as e:
            await websocket.send_text(encode(error_message(e, ref, lang)))
    raise TimeoutError  # treated as a missing hello


async def _serve(svc: GameService, conn: Connection, lang: str) -> None:
    refused: deque[float] = deque()  # when messages were refused, the last FLOOD_WINDOW s
    max_bytes = svc.settings.max_message_bytes
    while True:
        try:
            text = await _receive_text(conn.websocket)
        except ServerError as e:
            conn.send(error_message(e, lang=lang))
            continue
        if text is None or conn.closed:
            return
        if not conn.bucket.take():
            now = time.monotonic()
            refused.append(now)
            while refused[0] < now - FLOOD_WINDOW:
                refused.popleft()
            if len(refused) > FLOOD_LIMIT:
                conn.send(
                    error_message(
                        ServerError("rate_limited", N_("too many messages: disconnected")),
                        lang=lang,
                    )
                )
                conn.close(CLOSE_POLICY, "too many messages")
                return
            wait = conn.bucket.retry_after()
            conn.send(
                error_message(
                    ServerError(
                        "rate_limited",
                        N_("too many messages: at most {rate:g} a second"),
                        {"rate": svc.settings.ws_rate},
                        retry_after=round(wait, 3),
                    ),
                    lang=lang,
                )
            )
            continue
        ref = None
        try:
            raw = decode(text, max_bytes)
            ref = ref_of(raw)
            reply = await _dispatch(svc, conn, validate(raw), ref)
        except ServerError as e:
            conn.send(error_message(e, ref, lang))
            continue
        except Exception:
            log.exception("websocket request failed in game %s", conn.game_id)
            err = ServerError("internal_error", N_("the server failed on this request"))
            conn.send(error_message(err, ref, lang))
            continue
        if reply is not None:
            conn.send(reply)


async def _dispatch(svc: GameService, conn: Connection, msg: Any, ref: Any) -> Message | None:
    game_id = conn.game_id
    who = conn.caller
    if isinstance(msg, HelloMsg):
        raise ServerError("invalid_message", N_("hello is sent once, first"))
    plays = isinstance(msg, MoveMsg | UndoMsg | RematchMsg | AnalysisMsg) or (
        isinstance(msg, SimpleMsg) and msg.type in ("resign", "claim", "hint")
    )
    if plays and not conn.seats:
        raise ServerError("read_only", N_("spectators watch: connect with a seat's token to play"))
    if isinstance(msg, MoveMsg):
        live = await svc.move(game_id, who, msg.move, msg.version)
        return Ack(of="move", version=live.version, ref=ref)
    if isinstance(msg, UndoMsg):
        live = await svc.undo(game_id, who, msg.version)
        return Ack(of="undo", version=live.version, ref=ref)
    if isinstance(msg, RematchMsg):
        live, new_id = await svc.rematch(game_id, who, msg.action)
        return Ack(of="rematch", version=live.version, game_id=new_id, ref=ref)
    if isinstance(msg, AnalysisMsg):
        analysis = await assist.analysis(svc, game_id, who, msg.ply)
        return AnalysisMessage(**dict(analysis), ref=ref)
    assert isinstance(msg, SimpleMsg)
    if msg.type == "ping":
        return Pong(server_time=round(time.time(), 3), ref=ref)
    if msg.type == "sync":
        live = await svc.get(game_id)
        async with live.lock:  # the stored game, not a move on its way to the database
            conn.send(svc.state_message(live, None))
        return None
    if msg.type == "resign":
        live = await svc.resign(game_id, who)
        return Ack(of="resign", version=live.version, ref=ref)
    if msg.type == "claim":
        live = await svc.claim(game_id, who)
        return Ack(of="claim", version=live.version, ref=ref)
    return HintMessage(**dict(await assist.hint(svc, game_id, who)), ref=ref)
