"""The puzzles' routes (docs/server.md, "Puzzles"); the work is the puzzles domain's."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from ...puzzles import THEMES
from ..puzzles import service
from ..puzzles.schemas import AnswerIn, PuzzleView, SolutionView, VerdictView
from .games import ERRORS

router = APIRouter()


@router.get("/api/puzzles/daily", response_model=PuzzleView, tags=["puzzles"], responses=ERRORS)
async def daily() -> PuzzleView:
    """Today's puzzle: the same for everyone today (UTC)."""
    return service.today_view()


@router.get("/api/puzzles/next", response_model=PuzzleView, tags=["puzzles"], responses=ERRORS)
async def next_puzzle(
    after: Annotated[str | None, Query(max_length=8, pattern=r"^\d{1,8}$")] = None,
    difficulty: Annotated[int | None, Query(ge=1, le=5)] = None,
    theme: Annotated[str | None, Query(pattern="^(" + "|".join(THEMES) + ")$")] = None,
) -> PuzzleView:
    """The next puzzle after ``after`` (by number) of that difficulty and theme."""
    return service.next_view(after, difficulty, theme)


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
async def answer(puzzle_id: str, body: AnswerIn) -> VerdictView:
    """The verdict on a move: right or not, and what best play after it comes to, proved by
    the exact endgame search; a text that is no legal move is refused with the reason."""
    return await service.judge(puzzle_id, body.move)


@router.get(
    "/api/puzzles/{puzzle_id}/solution", response_model=SolutionView, tags=["puzzles"],
    responses=ERRORS,
)  # fmt: skip
async def solution(puzzle_id: str) -> SolutionView:
    """The puzzle's answers and the proved line (for a player who gives up)."""
    return service.solution(puzzle_id)
