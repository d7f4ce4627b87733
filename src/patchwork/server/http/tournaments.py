"""Tournaments' routes (docs/server.md "Tournaments"): create a Swiss event or an arena, list
the events, read one (its entrants, rounds and standings), join, withdraw, and pause or
resume in an arena. Reading is for everyone; the changes are for accounts (a guest is told
to sign in)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Path, Query, Request

from ..tournaments.schemas import (
    TournamentDetail,
    TournamentGameView,
    TournamentIn,
    TournamentList,
)
from ..tournaments.service import Tournaments
from .auth import SignedIn
from .games import ERRORS

router = APIRouter(tags=["tournaments"])
TournamentId = Path(min_length=1, max_length=24)


def _tournaments(request: Request) -> Tournaments:
    found: Tournaments = request.app.state.tournaments
    return found


@router.post("/api/tournaments", response_model=TournamentDetail, status_code=201, responses=ERRORS)
async def create(body: TournamentIn, request: Request, session: SignedIn) -> TournamentDetail:
    """Create a Swiss event of 1 to 15 rounds, or an arena of 1 to 720 minutes, starting 10 s
    to 7 days from now (at most 3 open events of yours at a time). You are not entered in
    it: join it like anyone."""
    return await _tournaments(request).create(session.user, body)


@router.get("/api/tournaments", response_model=TournamentList, responses=ERRORS)
async def listing(
    request: Request,
    status: Literal["open", "running", "finished"] = "open",
    page: int = Query(default=0, ge=0, le=1000),
) -> TournamentList:
    """The events in ``status``, newest first (by their start), 50 a page."""
    return await _tournaments(request).listing(status, page)


@router.get(
    "/api/tournaments/of-game/{game_id}", response_model=TournamentGameView, responses=ERRORS
)
async def of_game(
    request: Request, game_id: str = Path(min_length=1, max_length=24)
) -> TournamentGameView:
    """The event a game was played in (``tournament_not_found``: none)."""
    return await _tournaments(request).of_game(game_id)


@router.get("/api/tournaments/{tournament_id}", response_model=TournamentDetail, responses=ERRORS)
async def one(request: Request, tournament_id: str = TournamentId) -> TournamentDetail:
    """One event: its players, each round's pairings with their games and results, and the
    standings after the finished games."""
    return await _tournaments(request).one(tournament_id)


@router.post(
    "/api/tournaments/{tournament_id}/join", response_model=TournamentDetail, responses=ERRORS
)
async def join(
    request: Request, session: SignedIn, tournament_id: str = TournamentId
) -> TournamentDetail:
    """Join an event before its start, or an arena while it runs (a bot account only where
    bots are allowed; an account with a provisional rating not where established ratings
    are asked for)."""
    return await _tournaments(request).join(session.user, tournament_id)


@router.post(
    "/api/tournaments/{tournament_id}/withdraw",
    response_model=TournamentDetail,
    responses=ERRORS,
)
async def withdraw(
    request: Request, session: SignedIn, tournament_id: str = TournamentId
) -> TournamentDetail:
    """Leave an event: before its start you are simply out (and may join again); during it
    you are not paired from the next round on, and your games go on."""
    return await _tournaments(request).withdraw(session.user, tournament_id)


@router.post(
    "/api/tournaments/{tournament_id}/pause", response_model=TournamentDetail, responses=ERRORS
)
async def pause(
    request: Request, session: SignedIn, tournament_id: str = TournamentId
) -> TournamentDetail:
    """Take a break from an arena: not paired again until you resume (a game under way goes
    on). A player who does not show up for a game is paused this way too."""
    return await _tournaments(request).pause(session.user, tournament_id, True)


@router.post(
    "/api/tournaments/{tournament_id}/resume", response_model=TournamentDetail, responses=ERRORS
)
async def resume(
    request: Request, session: SignedIn, tournament_id: str = TournamentId
) -> TournamentDetail:
    """Come back from a break in an arena: paired again as soon as someone is waiting."""
    return await _tournaments(request).pause(session.user, tournament_id, False)


@router.post(
    "/api/tournaments/{tournament_id}/cancel", response_model=TournamentDetail, responses=ERRORS
)
async def cancel(
    request: Request, session: SignedIn, tournament_id: str = TournamentId
) -> TournamentDetail:
    """Call off an event of yours before its start (its entrants see it cancelled)."""
    return await _tournaments(request).cancel(session.user, tournament_id)
