"""Which puzzle to ask, and the verdict on an answer (the puzzles are the shipped set:
``patchwork.puzzles.starter``; what a signed-in player's answers do is rated.py's)."""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from datetime import date

from ...engine import PatchworkError, parse_move
from ...i18n import N_
from ...puzzles import Estimate, Puzzle, Verdict, by_id, daily, matching, starter
from ..common.errors import ServerError, refused_move
from ..games.views import move_squares
from . import rating
from .schemas import Estimate as EstimateView
from .schemas import Proof, PuzzleView, Searched, SolutionView, VerdictView


def find(puzzle_id: str) -> Puzzle:
    """The shipped puzzle ``puzzle_id``, or ``not_found``."""
    found = by_id().get(puzzle_id)
    if found is None:
        raise ServerError("not_found", N_("there is no puzzle {id}"), {"id": puzzle_id})
    return found


def view(puzzle: Puzzle, today: date) -> PuzzleView:
    state = puzzle.state()
    assert state.current_player is not None
    return PuzzleView(
        id=puzzle.id,
        position=puzzle.position,
        start=puzzle.start or puzzle.position,
        before=list(puzzle.before) if puzzle.start else [],
        to_move=state.current_player,
        themes=list(puzzle.themes),
        difficulty=puzzle.difficulty,
        rating=round(rating.DIFFICULTY_RATINGS[puzzle.difficulty]),
        moves=puzzle.moves,
        daily=puzzle.id == daily(today).id,
    )


def by_id_view(puzzle_id: str) -> PuzzleView:
    return view(find(puzzle_id), date.today())


def today_view() -> PuzzleView:
    today = date.today()
    return view(daily(today), today)


def next_view(
    after: str | None,
    difficulty: int | None,
    theme: str | None,
    level: tuple[float, Collection[str]] | None = None,
) -> PuzzleView:
    """The first puzzle after ``after`` (by number, round to the start) that matches; with a
    ``level`` (a player's rating and the puzzles they attempted), the first of those not
    attempted whose rating is nearest (any, once all were attempted)."""
    puzzles = starter()
    start = 0
    if after is not None:
        start = next((i + 1 for i, p in enumerate(puzzles) if p.id == after), 0)
    order = matching(puzzles[start:] + puzzles[:start], theme, difficulty)
    if not order:
        raise ServerError("not_found", N_("no puzzle has that theme and difficulty"))
    found = None if level is None else rating.nearest(order, *level)
    return view(found or order[0], date.today())


async def judge(puzzle_id: str, answer: str) -> VerdictView:
    """The verdict on ``answer``, proved again off the event loop (a puzzle proved by search:
    from its proof's figures)."""
    puzzle = find(puzzle_id)
    try:
        verdict = await asyncio.to_thread(puzzle.judge, answer)
    except PatchworkError as e:
        raise refused_move(e) from None
    squares = move_squares(parse_move(verdict.move))  # the engine's own text of a legal move
    o = verdict.outcome
    return VerdictView(
        id=puzzle.id,
        right=verdict.right,
        move=verdict.move,
        proof=None if o is None else Proof(
            wins=o.wins, margin=o.margin, line=list(o.line), squares=squares
        ),
        search=_searched(puzzle, verdict, squares),
        best_margin=puzzle.margin,
        gap=puzzle.gap,
        answers=list(puzzle.answers) if verdict.right else [],
    )  # fmt: skip


def _searched(puzzle: Puzzle, verdict: Verdict, squares: list[str]) -> Searched | None:
    """What the proving search gives the answer (None: the puzzle is proved exactly)."""
    s = puzzle.search
    if s is None:
        return None

    def shown(e: Estimate) -> EstimateView:
        return EstimateView(win_probability=e.win, margin=e.margin)

    return Searched(
        estimate=None if verdict.estimate is None else shown(verdict.estimate),
        tried=verdict.tried,
        best=shown(s.best(puzzle.answers)),
        rival=shown(s.rival(puzzle.answers)),
        iterations=s.iterations,
        line=list(puzzle.line_after(verdict)),
        squares=squares,
    )


def solution(puzzle_id: str) -> SolutionView:
    p = find(puzzle_id)
    return SolutionView(id=p.id, answers=list(p.answers), line=list(p.line), margin=p.margin)
