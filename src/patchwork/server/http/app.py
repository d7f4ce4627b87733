"""The app factory: the FastAPI application with its database, AI runner, hub and routes."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException

from ... import __version__
from ...ai.warmup import warm_up_engine
from ...i18n import N_, Translator, translator
from ..accounts import passwords
from ..accounts.service import Accounts
from ..aipool.runner import AIRunner
from ..analysis.service import AnalysisBoard
from ..bots import events as bot_events
from ..bots.service import Bots
from ..challenges.service import Challenges
from ..chat.service import Chat
from ..cluster.node import ClusterNode
from ..cluster.redis_cluster import Cluster
from ..common.config import Settings
from ..common.errors import ServerError, request_language
from ..common.ratelimit import ConnectionCount
from ..games import views
from ..games.hub import Hub
from ..games.schemas import ErrorResponse
from ..games.service import GameService
from ..games.upkeep import Upkeep
from ..lobby.service import Lobby
from ..mail.service import Mailer
from ..notifications.service import Notifications
from ..people.hub import People
from ..ratings import rating
from ..reviews.service import Reviews
from ..storage.store import Store
from ..tournaments.director import Director
from ..tournaments.service import Tournaments
from ..tutorial.service import FirstReviews
from . import (
    accounts,
    analysis,
    bots,
    challenges,
    game_socket,
    games,
    languages,
    lobby_socket,
    mail,
    me_socket,
    notifications,
    pages,
    people,
    players,
    puzzles,
    tournaments,
    tutorial,
)
from .middleware import GuardMiddleware
from .sessions import SessionSockets

log = logging.getLogger("patchwork.server")

DESCRIPTION = """\
The patchwork-game server: play two-player Patchwork over HTTP and websockets.

Create a game (`POST /api/games`) to get a seat's secret token; send it as
`Authorization: Bearer <token>` to play over HTTP, or in the `hello` message of the game's
websocket (`/ws/games/{id}`), which carries every state as it happens. The rules are the
engine's: the server validates every move with it and sends its legal moves. The full
description of messages and error codes is docs/server.md in the repository.
"""


def _error(status: int, code: str, message: str, **extra: object) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, **extra}}, status)


# Starlette's own texts for the HTTP errors it raises (marked so that they get translated).
HTTP_DETAILS = (N_("Not Found"), N_("Method Not Allowed"))


def _describe(exc: RequestValidationError, t: Translator) -> str:
    """The first problems pydantic found (its own words are English), or a general text."""
    parts = []
    for item in exc.errors()[:3]:
        where = ".".join(str(x) for x in item.get("loc", ()) if x != "body")
        parts.append(f"{where}: {item.get('msg')}" if where else str(item.get("msg")))
    return "; ".join(parts) or t.gettext("the request is not valid")


def _warm_up_engine() -> None:
    """Load (or compile) every kernel the server calls before the first request needs it."""
    views.state_view(warm_up_engine())


def declare_errors(router: APIRouter) -> None:
    """Declare in the OpenAPI description the errors every route can answer, whatever it does
    itself: the guard's (429 over the rate limit, 413 for a body too large), the body's (400
    not JSON, 422 not of the right shape) and the path's (404 for an unknown game, player or
    language)."""
    for route in router.routes:
        if not isinstance(route, APIRoute) or not route.include_in_schema:
            continue
        codes = [429]
        if route.body_field is not None:
            codes += [400, 413, 422]
        if route.param_convertors:
            codes += [404, 422]
        for code in codes:
            route.responses.setdefault(code, {"model": ErrorResponse})


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    cluster = (
        None if settings.redis_url is None else Cluster(settings.redis_url, settings.redis_prefix)
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        t0 = time.perf_counter()
        passwords.set_memory(settings.password_memory)
        store = Store(settings.db_url)
        await store.call(store.migrate)
        t1 = time.perf_counter()
        _warm_up_engine()
        ai = AIRunner(settings.ai_workers, settings.ai_ponder)
        if not settings.ai_on_demand:
            ai.start()
        hub = Hub()
        node = None if cluster is None else ClusterNode(cluster)
        service = GameService(settings, store, ai, hub, rating, node)
        app.state.service = service
        people_hub = People(store, cluster)  # started below; delivers from the first change
        app.state.people = people_hub
        notes = Notifications(store, people_hub)
        app.state.notifications = notes
        service.changes.hooks.append(notes.on_game_change)  # in each change's transaction
        service.changes.hooks.append(bot_events.hook(people_hub))  # after it: games begun, over
        sockets = SessionSockets(cluster)
        app.state.session_sockets = sockets
        app.state.accounts = Accounts(store, cluster, service.stored_elsewhere, sockets.ended)
        listening = None
        if cluster is not None:  # sessions ended on the other processes
            listening = asyncio.get_running_loop().create_task(
                cluster.listen_sessions(sockets.close)
            )
        reviews = Reviews(service)
        app.state.reviews = reviews
        app.state.analysis = AnalysisBoard(service)
        app.state.first_reviews = FirstReviews(service)
        t2 = time.perf_counter()
        if node is not None:
            node.start(service.syncing)
        await service.start()
        upkeep = Upkeep(store, service.memory, hub, settings.waiting_expiry)
        upkeep.start()
        lobby = Lobby(service, cluster)
        app.state.lobby = lobby
        await lobby.start()
        chat = Chat(store, cluster)
        app.state.chat = chat
        await chat.start()
        await people_hub.start()
        challenge_service = Challenges(service, people_hub, cluster, notes)
        app.state.challenges = challenge_service
        await challenge_service.start()
        app.state.bots = Bots(app.state.accounts, challenge_service)
        mailer = Mailer(settings, store, people_hub.online)
        app.state.mailer = mailer
        await mailer.start()
        app.state.tournaments = Tournaments(store, settings.tournament_lead)
        director = Director(service, cluster, notes, settings.tournament_no_show)
        await director.start()
        log.info(
            "patchwork server ready (database %s; schema %.2f s, engine %.2f s, games %.2f s)",
            store.engine.url.render_as_string(),
            t1 - t0,
            t2 - t1,
            time.perf_counter() - t2,
        )
        try:
            yield
        finally:
            if listening is not None:
                listening.cancel()
                await asyncio.gather(listening, return_exceptions=True)
            await director.close()
            await mailer.close()
            await challenge_service.close()
            await people_hub.close()
            await chat.close()
            await lobby.close()
            await upkeep.close()
            await reviews.close()
            if node is not None:
                await node.close()
            await service.close()
            ai.close()
            if cluster is not None:
                await cluster.close()
            store.close()

    # The API docs (/docs) load Swagger UI from the package, never a CDN. No /redoc: ReDoc
    # fetches its own logo from the internet.
    app = FastAPIOffline(
        redoc_url=None,
        title="patchwork-game server",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
    )
    app.add_middleware(
        GuardMiddleware,
        max_body_bytes=settings.max_body_bytes,
        rate=settings.http_rate,
        burst=settings.http_burst,
        read_rate=settings.http_read_rate,
        read_burst=settings.http_read_burst,
        body_timeout=settings.body_timeout,
        cluster=cluster,
    )

    @app.exception_handler(ServerError)
    async def _server_error(request: Request, exc: ServerError) -> JSONResponse:
        headers = None
        retry = exc.extra.get("retry_after")
        body = exc.body(request_language(request))
        response = JSONResponse({"error": body}, exc.status, headers=headers)
        if retry is not None:
            response.headers["retry-after"] = str(max(1, round(float(retry))))
        return response

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        t = translator(request_language(request))
        bad_json = any(e.get("type") == "json_invalid" for e in exc.errors())
        if bad_json:
            message = t.format(
                N_("the body is not valid JSON: {details}"), details=_describe(exc, t)
            )
            return _error(400, "bad_json", message)
        return _error(422, "invalid_request", _describe(exc, t))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "not_allowed"}.get(exc.status_code, "invalid_request")
        t = translator(request_language(request))
        response = _error(exc.status_code, code, t.gettext(str(exc.detail)))
        response.headers.update(exc.headers or {})  # 405: Allow, the methods that are
        return response

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> JSONResponse:
        log.exception("request failed", exc_info=exc)
        t = translator(request_language(request))
        return _error(500, "internal_error", t.gettext("the server failed on this request"))

    app.state.settings = settings
    app.state.ws_addresses = ConnectionCount(settings.max_ws_per_address)
    routers = (
        games,
        analysis,
        puzzles,
        tutorial,
        accounts,
        players,
        game_socket,
        lobby_socket,
        me_socket,
        people,
        notifications,
        challenges,
        tournaments,
        bots,
        mail,
        languages,
        pages,
    )
    for routes in routers:
        declare_errors(routes.router)
        app.include_router(routes.router)
    return app
