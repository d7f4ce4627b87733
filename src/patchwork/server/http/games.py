"""The HTTP API: create and join games, play and read them. Websockets are in ``game_socket.py``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import PlainTextResponse

from ... import __version__
from ...i18n import N_
from ..common.errors import ServerError, request_language
from ..common.limits import MAX_COUNT
from ..games import assist, reading, takebacks
from ..games.requests import (
    AnalysisIn,
    CreateGame,
    JoinGame,
    MoveIn,
    RematchIn,
    TakebackIn,
    VersionIn,
)
from ..games.schemas import (
    ActionResult,
    Analysis,
    CreatedGame,
    ErrorResponse,
    Events,
    GameSummary,
    GameView,
    Health,
    Hint,
    Joined,
    Meta,
    RematchResult,
    Replay,
)
from ..games.service import GameService
from ..games.views import meta_view
from ..reviews.schemas import ReviewStatus
from ..reviews.service import Reviews
from .auth import MaybeSession, Who

router = APIRouter()

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorResponse} for code in (400, 401, 403, 404, 409, 413, 422, 429, 503)
}


def service(request: Request) -> GameService:
    svc: GameService = request.app.state.service
    return svc


def reviews(request: Request) -> Reviews:
    found: Reviews = request.app.state.reviews
    return found


Service = Annotated[GameService, Depends(service)]
ReviewService = Annotated[Reviews, Depends(reviews)]


@router.get(
    "/healthz",
    response_model=Health,
    response_model_exclude_none=True,
    tags=["server"],
    responses=ERRORS,
)
async def healthz(svc: Service) -> dict[str, Any]:
    """Is the server up and its database reachable?"""
    try:
        await svc.store.call(svc.store.ping)
    except Exception:
        raise ServerError("unavailable", N_("the database is unreachable")) from None
    return {
        "status": "ok",
        "database": "ok",
        "redis": None if svc.node is None else ("ok" if await svc.node.cluster.ping() else "down"),
        "games_in_memory": svc.games_in_memory(),
        "connections": svc.hub.count(),
        # Level 5's thinking on the person's time: ponders begun, and moves answered from one.
        "ai_ponders": svc.ai.ponder_count,
        "ai_ponder_hits": svc.ai.ponder_hits,
        "version": __version__,
        "node": None if svc.node is None else svc.node.cluster.node,
    }


@router.get("/api/meta", response_model=Meta, tags=["games"])
async def meta() -> Meta:
    """The fixed facts: every patch, the time board of each edition, the AI levels."""
    return meta_view()


@router.post(
    "/api/games", response_model=CreatedGame, status_code=201, tags=["games"], responses=ERRORS
)
async def create_game(body: CreateGame, svc: Service, session: MaybeSession) -> CreatedGame:
    """Start a game: against the AI, at one screen, or online with an invitation. Signed in,
    your seat is bound to your account (``rated``: a rated game against the AI)."""
    return await svc.create(body, None if session is None else session.user)


@router.get("/api/games", response_model=list[GameSummary], tags=["records"])
async def list_games(
    svc: Service, limit: Annotated[int, Query(ge=1, le=200)] = 50
) -> list[GameSummary]:
    """The most recently finished games (games in play are watched by their link only)."""
    rows = await svc.store.call(svc.store.recent, "finished", limit)
    return [reading.summary(d) for d in rows]


@router.get("/api/games/{game_id}", response_model=GameView, tags=["games"], responses=ERRORS)
async def get_game(game_id: str, svc: Service) -> GameView:
    """The game as everyone sees it (no token needed: spectators welcome)."""
    return (await svc.get(game_id)).view()


@router.post("/api/games/{game_id}/join", response_model=Joined, tags=["games"], responses=ERRORS)
async def join_game(game_id: str, body: JoinGame, svc: Service, session: MaybeSession) -> Joined:
    """Take the free seat of an online game with its invitation code (signed in: bound to
    your account)."""
    user = None if session is None else session.user
    return await svc.join(game_id, body.invite, body.name, user)


@router.post(
    "/api/games/{game_id}/moves", response_model=ActionResult, tags=["play"], responses=ERRORS
)
async def post_move(game_id: str, body: MoveIn, svc: Service, who: Who) -> ActionResult:
    """Play a move in the notation; ``version`` is the version you chose it in."""
    live = await svc.move(game_id, who, body.move, body.version)
    return ActionResult(version=live.version, game=live.view())


@router.post(
    "/api/games/{game_id}/undo", response_model=ActionResult, tags=["play"], responses=ERRORS
)
async def post_undo(
    game_id: str, svc: Service, who: Who, body: VersionIn | None = None
) -> ActionResult:
    """Take back your last move (and the AI's answers): against the AI or at one screen."""
    live = await svc.undo(game_id, who, None if body is None else body.version)
    return ActionResult(version=live.version, game=live.view())


@router.post(
    "/api/games/{game_id}/resign", response_model=ActionResult, tags=["play"], responses=ERRORS
)
async def post_resign(game_id: str, svc: Service, who: Who) -> ActionResult:
    live = await svc.resign(game_id, who)
    return ActionResult(version=live.version, game=live.view())


@router.post(
    "/api/games/{game_id}/claim", response_model=ActionResult, tags=["play"], responses=ERRORS
)
async def post_claim(game_id: str, svc: Service, who: Who) -> ActionResult:
    """Win an online game whose opponent stayed away longer than the grace period."""
    live = await svc.claim(game_id, who)
    return ActionResult(version=live.version, game=live.view())


@router.post(
    "/api/games/{game_id}/rematch",
    response_model=RematchResult,
    tags=["play"],
    responses=ERRORS,
)
async def post_rematch(
    game_id: str, svc: Service, who: Who, body: RematchIn | None = None
) -> RematchResult:
    """Offer, accept or decline a rematch; the new game keeps both players' tokens."""
    action = "offer" if body is None else body.action
    live, new_id = await svc.rematch(game_id, who, action)
    return RematchResult(game_id=new_id, offered_by=live.data.rematch_offer, game=live.view())


@router.post(
    "/api/games/{game_id}/takeback", response_model=ActionResult, tags=["play"], responses=ERRORS
)
async def post_takeback(game_id: str, body: TakebackIn, svc: Service, who: Who) -> ActionResult:
    """Ask to take back your last move (online games between people; a rated one only if both
    agreed when it was made), or accept, decline or cancel such a request."""
    live = await takebacks.takeback(svc, game_id, who, body.action)
    return ActionResult(version=live.version, game=live.view())


@router.post("/api/games/{game_id}/hint", response_model=Hint, tags=["ai"], responses=ERRORS)
async def post_hint(game_id: str, svc: Service, who: Who) -> Hint:
    """The AI's suggestion for your turn (games against the AI)."""
    return await assist.hint(svc, game_id, who)


@router.post(
    "/api/games/{game_id}/analysis", response_model=Analysis, tags=["ai"], responses=ERRORS
)
async def post_analysis(
    game_id: str, svc: Service, who: Who, body: AnalysisIn | None = None
) -> Analysis:
    """What the searcher thinks of the position after ``ply`` moves (default: now)."""
    return await assist.analysis(svc, game_id, who, None if body is None else body.ply)


@router.post(
    "/api/games/{game_id}/review",
    response_model=ReviewStatus,
    tags=["ai"],
    responses={**ERRORS, 202: {"model": ReviewStatus, "description": "the review is running"}},
)
async def post_review(
    game_id: str, revs: ReviewService, who: Who, request: Request, response: Response
) -> ReviewStatus:
    """Review every move of the game (200 with the review once made, else 202 and how far
    it has got; the websocket brings its progress and the result). Any finished game; a
    game in progress only against the AI, with the human seat's token, up to its last move."""
    client = request.client.host if request.client else "-"
    status = await revs.request(game_id, who, client)
    if status.state != "done":
        response.status_code = 202
    return status


@router.get(
    "/api/games/{game_id}/review", response_model=ReviewStatus, tags=["ai"], responses=ERRORS
)
async def get_review(game_id: str, revs: ReviewService) -> ReviewStatus:
    """The game's review if it was made, or how far the one under way has got."""
    return await revs.status(game_id)


@router.get(
    "/api/games/{game_id}/record.json",
    tags=["records"],
    responses={**ERRORS, 200: {"content": {"application/json": {}}, "description": "the record"}},
)
async def record_json(game_id: str, svc: Service, request: Request) -> Response:
    """The game record (docs/notation.md), JSON form, with what played each seat and the
    request's language (so that ``patchwork play --load`` resumes the game as it was)."""
    live = await svc.get(game_id)
    async with live.lock:
        record = reading.served_record(live, request_language(request))
    return Response(record.to_json(), media_type="application/json")


@router.get(
    "/api/games/{game_id}/record.txt",
    tags=["records"],
    response_class=PlainTextResponse,
    responses={**ERRORS, 200: {"content": {"text/plain": {}}, "description": "the record"}},
)
async def record_text(game_id: str, svc: Service, request: Request) -> Response:
    """The game record (docs/notation.md), text form (seats and language as in JSON)."""
    live = await svc.get(game_id)
    async with live.lock:
        record = reading.served_record(live, request_language(request))
    return Response(record.to_text(), media_type="text/plain; charset=utf-8")


@router.get(
    "/api/games/{game_id}/replay", response_model=Replay, tags=["records"], responses=ERRORS
)
async def replay(game_id: str, svc: Service) -> Replay:
    """Every position of the game, from the start, for stepping through it."""
    live = await svc.get(game_id)
    async with live.lock:
        return reading.replay(live)


@router.get("/api/games/{game_id}/events", response_model=Events, tags=["games"], responses=ERRORS)
async def events(
    game_id: str, svc: Service, since: Annotated[int, Query(ge=0, le=MAX_COUNT)] = 0
) -> dict[str, Any]:
    """The changes after version ``since`` (for clients that poll instead of a websocket)."""
    live = await svc.get(game_id)
    version = live.version
    rows = await svc.events_since(live, since)
    return {
        "game_id": live.id,
        "version": version,
        "events": [e.message() for e in rows],
        "complete": not rows or rows[-1].version >= version,
    }
