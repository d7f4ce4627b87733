"""The lobby's websocket: ``/ws/lobby`` (docs/server.md "Lobby").

The client opens with ``hello``; it hears ``welcome`` (who it is, the open seeks, the bots),
then ``seeks_changed`` after every change and ``paired`` when a game starts for it
(``bot_game`` when it plays a bot). Each request is checked as the game websocket checks
its own (size, rate, JSON, shape) before the lobby looks at it; a bad one gets an ``error``
and changes nothing. Who asks is the handshake's account (``auth.signed_in``), or a guest.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from ...i18n import N_
from ..chat.service import Chat
from ..common.errors import ServerError
from ..common.ratelimit import TokenBucket
from ..games.hub import Connection
from ..games.live import GUEST, Caller
from ..games.messages import Pong
from ..games.requests import ChatReportMsg, ChatSendMsg
from ..lobby.clients import LobbyClient, guest_name
from ..lobby.messages import (
    LobbyAck,
    LobbyHelloMsg,
    LobbyMessage,
    PlayBotMsg,
    QuickMsg,
    SeekMsg,
    SeekRefMsg,
    encode,
    lobby_client_messages,
)
from ..lobby.service import Lobby
from . import auth, sockets
from .sockets import CLOSE_UNAVAILABLE, error_text

router = APIRouter()


def validate(raw: Any) -> Any:
    """The lobby message ``raw`` is, or ServerError ``invalid_message`` saying why not."""
    return sockets.validate(raw, lobby_client_messages)


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    await sockets.admit(websocket, lambda lang: _lobby_socket(websocket, lang))


async def _lobby_socket(websocket: WebSocket, lang: str) -> None:
    lobby: Lobby = websocket.app.state.lobby
    settings = lobby.svc.settings
    try:
        session = await auth.signed_in_session(websocket)
    except ServerError as e:
        await websocket.send_text(error_text(e, None, lang))
        await websocket.close(CLOSE_UNAVAILABLE, "try again")
        return
    greeting = await sockets.hello(
        websocket,
        lobby_client_messages,
        LobbyHelloMsg,
        N_("send hello first"),
        settings,
        lang,
    )
    if greeting is None:
        return
    lang = greeting[1]
    bucket = TokenBucket(settings.ws_rate, settings.ws_burst)
    user = None if session is None else session.user
    caller = GUEST
    if session is not None:
        caller = Caller(user_id=session.user.id, session=session.data.token_hash)
    conn = Connection(websocket, "lobby", frozenset(), bucket, caller)
    name = guest_name() if user is None else user.name
    client = LobbyClient(conn, user, name, lang)
    writer = asyncio.create_task(conn.writer())

    chat: Chat = websocket.app.state.chat
    address = websocket.client.host if websocket.client else "-"
    member = chat.lobby_member(conn, None if user is None else user.id, name, lang, address)

    async def handle(msg: Any, ref: Any) -> str:
        if isinstance(msg, ChatSendMsg | ChatReportMsg):  # the lobby's room (chat/service.py)
            return encode(await chat.handle(member, msg, ref))
        return encode(await _dispatch(lobby, client, msg, ref))

    try:
        await lobby.join(client)
        await chat.join(member)
        await sockets.serve(
            conn, lang, settings.max_message_bytes, settings.ws_rate, lobby_client_messages, handle
        )
    except (WebSocketDisconnect, RuntimeError):
        pass
    except ServerError as e:  # the database went away while the client was greeted
        conn.send_text(error_text(e, None, lang))
        conn.close(CLOSE_UNAVAILABLE, "try again")
    finally:
        chat.leave(member)
        await lobby.leave(client)
        await sockets.finish(conn, writer)


async def _dispatch(lobby: Lobby, client: LobbyClient, msg: Any, ref: Any) -> LobbyMessage:
    if isinstance(msg, LobbyHelloMsg):
        raise ServerError("invalid_message", N_("hello is sent once, first"))
    if isinstance(msg, SeekMsg):
        return LobbyAck(of="seek", seek_id=await lobby.seek(client, msg), ref=ref)
    if isinstance(msg, PlayBotMsg):
        return (await lobby.play_bot(client, msg)).model_copy(update={"ref": ref})
    if isinstance(msg, QuickMsg):
        return LobbyAck(of="quick", seek_id=await lobby.quick(client, msg.rated), ref=ref)
    if isinstance(msg, SeekRefMsg):
        if msg.type == "cancel":
            await lobby.cancel(client, msg.seek_id)
            return LobbyAck(of="cancel", seek_id=msg.seek_id, ref=ref)
        game_id = await lobby.accept(client, msg.seek_id)
        return LobbyAck(of="accept", seek_id=msg.seek_id, game_id=game_id, ref=ref)
    return Pong(server_time=round(time.time(), 3), ref=ref)
