"""The puzzles' routes (docs/server.md, "Puzzles"); the work is the puzzles domain's: a
guest's is service.py's, a signed-in player's rated.py's, for the session's account only."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from ...puzzles import THEMES
from ..puzzles import rated, service
from ..puzzles.schemas import AnswerIn, PuzzleRatingView, PuzzleView, SolutionView, VerdictView
from .auth import MaybeSession, SignedIn
from .games import ERRORS, Service

router = APIRouter()


@router.get("/api/puzzles/daily", response_model=PuzzleView, tags=["puzzles"], responses=ERRORS)
async def daily() -> PuzzleView:
    """Today's puzzle: the same for everyone today (UTC)."""
    return service.today_view()


@router.get("/api/puzzles/next", response_model=PuzzleView, tags=["puzzles"], responses=ERRORS)
async def next_puzzle(
    svc: Service,
    session: MaybeSession,
    after: Annotated[str | None, Query(max_length=8, pattern=r"^\d{1,8}$")] = None,
    difficulty: Annotated[int | None, Query(ge=1, le=5)] = None,
    theme: Annotated[str | None, Query(pattern="^(" + "|".join(THEMES) + ")$")] = None,
    level: Annotated[
        Literal["mine"] | None,
        Query(description="mine: the unattempted one nearest your puzzle rating (signed in)"),
    ] = None,
) -> PuzzleView:
    """The next puzzle after ``after`` (by number) of that difficulty and theme; with
    ``level=mine``, signed in, the first of those you have not attempted whose rating is
    nearest yours (a guest gets the next as without it)."""
    if level == "mine" and session is not None:
        return await rated.next_view(svc.store, session.user.id, after, difficulty, theme)
    return service.next_view(after, difficulty, theme)


@router.get(
    "/api/puzzles/rating", response_model=PuzzleRatingView, tags=["puzzles"], responses=ERRORS
)
async def my_rating(svc: Service, session: SignedIn) -> PuzzleRatingView:
    """Your puzzle rating and how many puzzles you attempted and solved (``not_signed_in``
    for a guest)."""
    return await rated.rating_view(svc.store, session.user.id)


@router.get(
    "/api/puzzles/{puzzle_id}", response_model=PuzzleView, tags=["puzzles"], responses=ERRORS
)
async def puzzle(puzzle_id: str) -> PuzzleView:
    """A puzzle by its number, as it is asked."""
    return service.by_id_view(puzzle_id)


@router.post(
    "/api/puzzles/{puzzle_id}/answer", response_model=VerdictView, tags=["puzzles"],
    responses=ERRORS,
)  # fmt: skip
async def answer(
    puzzle_id: str, body: AnswerIn, svc: Service, session: MaybeSession
) -> VerdictView:
    """The verdict on a move: right or not, and what best play after it comes to, proved by
    the exact endgame search; a text that is no legal move is refused with the reason.
    Signed in, your first answer to the puzzle moves your puzzle rating."""
    if session is None:
        return await service.judge(puzzle_id, body.move)
    return await rated.answer(svc.store, session.user.id, puzzle_id, body.move)


@router.get(
    "/api/puzzles/{puzzle_id}/solution", response_model=SolutionView, tags=["puzzles"],
    responses=ERRORS,
)  # fmt: skip
async def solution(puzzle_id: str, svc: Service, session: MaybeSession) -> SolutionView:
    """The puzzle's answers and the proved line. Signed in, only once you have answered the
    puzzle or given it up (``not_allowed`` before: giving up is the POST)."""
    if session is None:
        return service.solution(puzzle_id)
    return await rated.solution(svc.store, session.user.id, puzzle_id)


@router.post(
    "/api/puzzles/{puzzle_id}/solution", response_model=SolutionView, tags=["puzzles"],
    responses=ERRORS,
)  # fmt: skip
async def give_up(puzzle_id: str, svc: Service, session: MaybeSession) -> SolutionView:
    """Give up: the answers and the proved line. Signed in, before any answer to the puzzle,
    it counts as a wrong one."""
    if session is None:
        return service.solution(puzzle_id)
    return await rated.give_up(svc.store, session.user.id, puzzle_id)
