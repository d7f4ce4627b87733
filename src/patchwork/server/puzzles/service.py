"""Which puzzle to ask, and the verdict on an answer (the puzzles are the shipped set:
``patchwork.puzzles.starter``; nothing is stored)."""

from __future__ import annotations

import asyncio
from datetime import date
from functools import cache

from ...engine import Move, PatchworkError
from ...i18n import N_
from ...puzzles import Puzzle, daily, starter
from ..common.errors import ServerError, refused_move
from ..games.views import move_squares
from .schemas import Proof, PuzzleView, SolutionView, VerdictView


@cache
def _by_id() -> dict[str, Puzzle]:
    return {p.id: p for p in starter()}


def _find(puzzle_id: str) -> Puzzle:
    found = _by_id().get(puzzle_id)
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
        moves=puzzle.moves,
        daily=puzzle.id == daily(today).id,
    )


def by_id_view(puzzle_id: str) -> PuzzleView:
    return view(_find(puzzle_id), date.today())


def today_view() -> PuzzleView:
    today = date.today()
    return view(daily(today), today)


def next_view(after: str | None, difficulty: int | None, theme: str | None) -> PuzzleView:
    """The first puzzle after ``after`` (by number, round to the start) that matches."""
    puzzles = starter()
    start = 0
    if after is not None:
        start = next((i + 1 for i, p in enumerate(puzzles) if p.id == after), 0)
    order = puzzles[start:] + puzzles[:start]
    for p in order:
        if difficulty in (None, p.difficulty) and theme in (None, *p.themes):
            return view(p, date.today())
    raise ServerError("not_found", N_("no puzzle has that theme and difficulty"))


async def judge(puzzle_id: str, answer: str) -> VerdictView:
    """The verdict on ``answer``, proved again off the event loop."""
    puzzle = _find(puzzle_id)
    try:
        verdict = await asyncio.to_thread(puzzle.judge, answer)
    except PatchworkError as e:
        raise refused_move(e) from None
    state = puzzle.state()
    o = verdict.outcome
    return VerdictView(
        id=puzzle.id,
        right=verdict.right,
        move=verdict.move,
        proof=Proof(
            wins=o.wins,
            margin=o.margin,
            line=list(o.line),
            squares=move_squares(Move.parse(verdict.move, state)),
        ),
        best_margin=puzzle.margin,
        gap=puzzle.gap,
        answers=list(puzzle.answers) if verdict.right else [],
    )


def solution(puzzle_id: str) -> SolutionView:
    p = _find(puzzle_id)
    return SolutionView(id=p.id, answers=list(p.answers), line=list(p.line), margin=p.margin)
