"""The analysis board's routes: ``POST /api/analysis/board`` sets up a board, and the
websocket ``/ws/analysis`` streams the searcher's view of a position (docs/server.md,
"Analysis board"). The work is the analysis domain's (analysis/service.py)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from fastapi import APIRouter, Request, WebSocket
from starlette.websockets import WebSocketDisconnect

from ...i18n import N_
from ..analysis.messages import (
    AnalyseMsg,
    AnalysisAck,
    AnalysisHelloMsg,
    AnalysisMessage,
    AnalysisUpdate,
    analysis_client_messages,
)
from ..analysis.schemas import BoardIn
from ..analysis.service import AnalysisBoard
from ..common.errors import ServerError
from ..common.ratelimit import TokenBucket
from ..games.board import Board
from ..games.hub import Connection
from ..games.live import GUEST
from ..games.messages import Pong, encode
from . import sockets
from .games import ERRORS

router = APIRouter()


@router.post("/api/analysis/board", response_model=Board, tags=["analysis"], responses=ERRORS)
async def open_board(body: BoardIn, request: Request) -> Board:
    """A board: a position text (or a finished game at a ply) with moves played on it, each
    checked by the engine; shaped as a game at one screen, with its legal moves."""
    analysis: AnalysisBoard = request.app.state.analysis
    return await analysis.open(body)


@router.websocket("/ws/analysis")
async def analysis_socket(websocket: WebSocket) -> None:
    await sockets.admit(websocket, lambda lang: _analysis_socket(websocket, lang))


async def _analysis_socket(websocket: WebSocket, lang: str) -> None:
    analysis: AnalysisBoard = websocket.app.state.analysis
    settings = analysis.svc.settings
    greeting = await sockets.hello(
        websocket,
        analysis_client_messages,
        AnalysisHelloMsg,
        N_("send hello first"),
        settings,
        lang,
    )
    if greeting is None:
        return
    lang = greeting[1]
    conn = Connection(
        websocket, "analysis", frozenset(), TokenBucket(settings.ws_rate, settings.ws_burst), GUEST
    )
    address = websocket.client.host if websocket.client else "-"
    writer = asyncio.create_task(conn.writer())
    conn.send(AnalysisAck(of="hello", ref=greeting[0].id))
    search: asyncio.Task[None] | None = None

    async def stop() -> None:
        nonlocal search
        if search is not None:
            search.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await search
            search = None

    def send(update: AnalysisUpdate) -> None:
        conn.send_text(encode(update))

    async def run(msg: AnalyseMsg) -> None:
        try:
            await analysis.stream(msg.position, msg.id, send, address)
        except ServerError as e:
            conn.send(sockets.error_message(e, msg.id, lang))

    async def handle(msg: Any, ref: Any) -> str | None:
        nonlocal search
        reply: AnalysisMessage
        if isinstance(msg, AnalysisHelloMsg):
            raise ServerError("invalid_message", N_("hello is sent once, first"))
        if isinstance(msg, AnalyseMsg):
            await stop()  # one search a connection: the new position replaces the old
            search = asyncio.create_task(run(msg))
            return None
        if msg.type == "stop":
            await stop()
            reply = AnalysisAck(of="stop", ref=ref)
        else:
            reply = Pong(server_time=round(time.time(), 3), ref=ref)
        return encode(reply)

    try:
        limit = settings.max_message_bytes
        await sockets.serve(conn, lang, limit, settings.ws_rate, analysis_client_messages, handle)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        await stop()  # the page was left: its search ends with it
        await sockets.finish(conn, writer)
