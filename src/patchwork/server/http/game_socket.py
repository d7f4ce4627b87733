"""The websocket of a game: ``/ws/games/{game_id}``.

The client opens with ``hello`` (its seat's token, or none to watch, and the last version it
saw; a browser signed in to an account plays that account's seats without a token); then it
sends moves and other requests and receives every state the game goes through.
Each request is checked (size, rate, JSON, shape) before anything else looks at it; a bad one
gets an ``error`` message and changes nothing.
"""

from __future__ import annotations

import asyncio
import time
from typing import Annotated, Any

from fastapi import APIRouter, WebSocket
from pydantic import Field, TypeAdapter
from starlette.websockets import WebSocketDisconnect

from ...i18n import N_
from ..chat.service import Chat, Member, no_room
from ..common.errors import ServerError
from ..common.ratelimit import TokenBucket
from ..games import assist, takebacks
from ..games.changes import state_message
from ..games.hub import Connection
from ..games.live import Caller
from ..games.messages import (
    Ack,
    AnalysisMessage,
    ChatAck,
    ChatMessage,
    ErrorMessage,
    HintMessage,
    Pong,
    PresenceMessage,
    StateMessage,
    SyncMessage,
    UpdateMessage,
    Welcome,
    encode,
)
from ..games.requests import (
    AnalysisMsg,
    ChatReportMsg,
    ChatSendMsg,
    ClientMessage,
    HelloMsg,
    MoveMsg,
    RematchMsg,
    SimpleMsg,
    TakebackMsg,
    UndoMsg,
)
from ..games.service import GameService
from ..reviews.messages import ReviewMessage, ReviewProgressMessage
from . import sockets
from .auth import hello_caller
from .sockets import CLOSE_BAD_TOKEN, CLOSE_NOT_FOUND, CLOSE_UNAVAILABLE, error_text

# The closed set of what this socket sends, told apart by ``type`` (docs/server.md names
# every member and field; tests/test_server_contract.py checks that).
Message = (
    Welcome
    | StateMessage
    | UpdateMessage
    | SyncMessage
    | Ack
    | ErrorMessage
    | PresenceMessage
    | HintMessage
    | AnalysisMessage
    | ReviewProgressMessage
    | ReviewMessage
    | Pong
    | ChatMessage
    | ChatAck
)
ServerMessage = Annotated[Message, Field(discriminator="type")]
server_messages: TypeAdapter[Any] = TypeAdapter(ServerMessage)


router = APIRouter()

_messages: TypeAdapter[Any] = TypeAdapter(ClientMessage)


def validate(raw: Any) -> Any:
    """The game socket's message ``raw`` is, or ServerError ``invalid_message``."""
    return sockets.validate(raw, _messages)


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    await sockets.admit(websocket, lambda lang: _game_socket(websocket, game_id, lang))


async def _game_socket(websocket: WebSocket, game_id: str, lang: str) -> None:
    svc: GameService = websocket.app.state.service
    settings = svc.settings
    try:
        live = await svc.get(game_id)
    except ServerError as e:
        await websocket.send_text(error_text(e, lang=lang))
        await websocket.close(CLOSE_NOT_FOUND, "no such game")
        return
    greeting = await sockets.hello(
        websocket,
        _messages,
        HelloMsg,
        N_("send hello first (with your token, or none to watch)"),
        settings,
        lang,
    )
    if greeting is None:
        return
    hello, lang = greeting
    try:
        # The account too: a signed-in browser plays its account's seats without a token.
        who = await hello_caller(websocket, hello.token)
    except ServerError as e:
        await websocket.send_text(error_text(e, hello.id, lang))
        await websocket.close(CLOSE_BAD_TOKEN, "bad token")
        return
    seats = live.seats_of(who)
    if who.token and not live.seats_of(Caller(token=who.token)):
        err = ServerError("bad_token", N_("that token plays no seat of this game"))
        await websocket.send_text(error_text(err, hello.id, lang))
        await websocket.close(CLOSE_BAD_TOKEN, "bad token")
        return
    bucket = TokenBucket(settings.ws_rate, settings.ws_burst)
    conn = Connection(websocket, live.id, seats, bucket, who)
    writer = asyncio.create_task(conn.writer())

    chat: Chat = websocket.app.state.chat
    member: Member | None = None

    async def handle(msg: Any, ref: Any) -> str | None:
        if isinstance(msg, ChatSendMsg | ChatReportMsg):  # chat/service.py
            if member is None:
                raise no_room()
            return encode(await chat.handle(member, msg, ref))
        reply = await _dispatch(svc, conn, msg, ref)
        return None if reply is None else encode(reply)

    try:
        await svc.attach(conn, hello.last_version)
        address = websocket.client.host if websocket.client else "-"
        member = await chat.game_member(conn, live.data, seats, lang, address)
        if member is not None:
            await chat.join(member)
        await sockets.serve(
            conn, lang, settings.max_message_bytes, settings.ws_rate, _messages, handle
        )
    except (WebSocketDisconnect, RuntimeError):
        pass
    except ServerError as e:  # the database went away while the client was joining
        conn.send_text(error_text(e, lang=lang))
        conn.close(CLOSE_UNAVAILABLE, "try again")
    finally:
        if member is not None:
            chat.leave(member)
        svc.detach(conn)
        await sockets.finish(conn, writer)


async def _dispatch(svc: GameService, conn: Connection, msg: Any, ref: Any) -> Message | None:
    game_id = conn.game_id
    who = conn.caller
    if isinstance(msg, HelloMsg):
        raise ServerError("invalid_message", N_("hello is sent once, first"))
    plays = isinstance(msg, MoveMsg | UndoMsg | RematchMsg | AnalysisMsg | TakebackMsg) or (
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
    if isinstance(msg, TakebackMsg):
        live = await takebacks.takeback(svc, game_id, who, msg.action)
        return Ack(of="takeback", version=live.version, ref=ref)
    if isinstance(msg, AnalysisMsg):
        analysis = await assist.analysis(svc, game_id, who, msg.ply)
        return AnalysisMessage(**dict(analysis), ref=ref)
    assert isinstance(msg, SimpleMsg)
    if msg.type == "ping":
        return Pong(server_time=round(time.time(), 3), ref=ref)
    if msg.type == "sync":
        live = await svc.get(game_id)
        async with live.lock:  # the stored game, not a move on its way to the database
            conn.send(state_message(live, None))
        return None
    if msg.type == "resign":
        live = await svc.resign(game_id, who)
        return Ack(of="resign", version=live.version, ref=ref)
    if msg.type == "claim":
        live = await svc.claim(game_id, who)
        return Ack(of="claim", version=live.version, ref=ref)
    return HintMessage(**dict(await assist.hint(svc, game_id, who)), ref=ref)
