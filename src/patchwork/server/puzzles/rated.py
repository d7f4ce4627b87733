"""A signed-in player's puzzles (docs/puzzles.md, "Puzzle rating"): the first answer to a
puzzle, or giving it up first, rated; the solution kept back until one of them; the rating
read; the next puzzle at their level. The routes call these with the session's own account
only (a guest's requests are service.py's alone), so nobody moves another person's rating."""

from __future__ import annotations

from typing import Any

from ...i18n import N_
from ..common.errors import ServerError
from ..ratings.rating import provisional
from ..storage.store import Store
from . import service, store
from .schemas import PuzzleRatingView, PuzzleView, SolutionView, VerdictView


def _rated(done: store.Attempt) -> dict[str, Any]:
    change = done.change
    return {
        "rating": round(done.after.rating, 2),
        "rating_change": None if change is None else round(change, 2),
    }


async def answer(db: Store, user_id: str, puzzle_id: str, move: str) -> VerdictView:
    """The verdict on ``move``, and what it did to the player's rating. A text that is no
    legal move is refused before anything is stored: it is no attempt."""
    verdict = await service.judge(puzzle_id, move)
    puzzle = service.find(puzzle_id)
    done = await db.call(store.attempt, db.engine, user_id, puzzle, verdict.right)
    return verdict.model_copy(update=_rated(done))


async def give_up(db: Store, user_id: str, puzzle_id: str) -> SolutionView:
    """The solution; asked for before any answer, it counts as a wrong one."""
    solution = service.solution(puzzle_id)
    done = await db.call(store.attempt, db.engine, user_id, service.find(puzzle_id), False)
    return solution.model_copy(update=_rated(done))


async def solution(db: Store, user_id: str, puzzle_id: str) -> SolutionView:
    """The solution, read without giving up: only once the puzzle was attempted (a read
    changes nothing, so a link followed cannot cost anyone a rated attempt)."""
    found = service.solution(puzzle_id)
    if not await db.call(store.attempted, db.engine, user_id, puzzle_id):
        raise ServerError(
            "not_allowed",
            N_(
                "answer puzzle {id} or give it up first (POST /api/puzzles/{id}/solution, "
                "which counts as a wrong answer)"
            ),
            {"id": puzzle_id},
        )
    return found


async def next_view(
    db: Store, user_id: str, after: str | None, difficulty: int | None, theme: str | None
) -> PuzzleView:
    """The next puzzle at the player's level (service.next_view)."""
    standing = await db.call(store.standing, db.engine, user_id)
    level = (standing.rating.rating, standing.attempted)
    return service.next_view(after, difficulty, theme, level)


async def rating_view(db: Store, user_id: str) -> PuzzleRatingView:
    s = await db.call(store.standing, db.engine, user_id)
    return PuzzleRatingView(
        rating=round(s.rating.rating, 2),
        rd=round(s.rating.rd, 2),
        provisional=provisional(s.rating.rd),
        attempts=s.attempts,
        solved=s.solved,
        updated_at=None if s.updated_at is None else s.updated_at.isoformat(),
    )
