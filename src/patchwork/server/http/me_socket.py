"""An account's own socket: ``/ws/me`` (docs/server.md "People"), open on every page while
signed in. It counts the account as online and carries what other domains deliver to it
(people/hub.py) on any process. Guests are told to sign in and the socket closes."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from ...i18n import N_
from ..common.errors import ServerError
from ..common.ratelimit import TokenBucket
from ..games.hub import Connection
from ..games.live import Caller
from ..games.messages import Pong
from ..people.hub import People
from ..people.messages import MeHelloMsg, MeWelcome, me_client_messages
from . import auth, sockets
from .sessions import CLOSE_SESSION_ENDED
from .sockets import CLOSE_UNAVAILABLE, error_text

router = APIRouter()


@router.websocket("/ws/me")
async def me_socket(websocket: WebSocket) -> None:
    await sockets.admit(websocket, lambda lang: _me_socket(websocket, lang))


async def _me_socket(websocket: WebSocket, lang: str) -> None:
    people: People = websocket.app.state.people
    settings = websocket.app.state.settings
    try:
        session = await auth.signed_in_session(websocket)
    except ServerError as e:
        await websocket.send_text(error_text(e, None, lang))
        await websocket.close(CLOSE_UNAVAILABLE, "try again")
        return
    if session is None:
        err = ServerError("not_signed_in", N_("sign in first"))
        await websocket.send_text(error_text(err, None, lang))
        await websocket.close(CLOSE_SESSION_ENDED, "not signed in")
        return
    greeting = await sockets.hello(
        websocket,
        me_client_messages,
        MeHelloMsg,
        N_("send hello first"),
        settings,
        lang,
    )
    if greeting is None:
        return
    lang = greeting[1]
    user = session.user
    caller = Caller(user_id=user.id, session=session.data.token_hash)
    bucket = TokenBucket(settings.ws_rate, settings.ws_burst)
    conn = Connection(websocket, "me", frozenset(), bucket, caller)
    writer = asyncio.create_task(conn.writer())
    conn.send(MeWelcome(name=user.name, server_time=round(time.time(), 3)))

    async def handle(msg: Any, ref: Any) -> str:
        if isinstance(msg, MeHelloMsg):
            raise ServerError("invalid_message", N_("hello is sent once, first"))
        return Pong(server_time=round(time.time(), 3), ref=ref).model_dump_json()

    try:
        await people.join(user.id, conn)
        await sockets.serve(
            conn, lang, settings.max_message_bytes, settings.ws_rate, me_client_messages, handle
        )
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        await people.leave(user.id, conn)
        await sockets.finish(conn, writer)
