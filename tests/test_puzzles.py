"""Puzzles (patchwork.puzzles): the generator keeps only positions where the best moves are
proved clearly best; the shipped set loads and its proofs hold when redone (a sample); an
answer is judged by proving it again, and a text that is no legal move is refused."""

from __future__ import annotations

import itertools
import random
from datetime import date, timedelta

import pytest

import patchwork as pw
from patchwork.engine import IllegalMoveError, InvalidMoveError
from patchwork.puzzles import THEMES, Puzzle, daily, outcomes, starter
from patchwork.puzzles.generate import GAP, MOST_ANSWERS, generate

SAMPLE = 12  # shipped puzzles whose every move is proved again


def assert_proved(p: Puzzle) -> None:
    """Every move of the position proved again: the answers end best and win, by the margin
    the puzzle says, and every other move ends at least ``gap`` points behind."""
    proved = outcomes(p.state())
    assert proved is not None, p.id
    assert len(proved) == p.moves
    best = max(o.margin for o in proved.values())
    assert best == p.margin and all(proved[a].wins and proved[a].margin == best for a in p.answers)
    others = [o.margin for m, o in proved.items() if m not in p.answers]
    assert others and best - max(others) == p.gap >= GAP
    assert len(p.answers) <= MOST_ANSWERS * p.moves
    assert p.line[0] in p.answers and proved[p.line[0]].line == p.line


@pytest.fixture(scope="module")
def generated() -> list[Puzzle]:
    return generate(4, seed=1)


def test_the_generator_keeps_only_proved_puzzles(generated: list[Puzzle]) -> None:
    assert generated, "four games give at least one puzzle"
    assert [p.id for p in generated] == [f"{i:04d}" for i in range(1, len(generated) + 1)]
    assert [p.difficulty for p in generated] == sorted(p.difficulty for p in generated)
    for p in generated:
        assert_proved(p)
        assert "endgame" in p.themes and set(p.themes) <= set(THEMES)
        assert 1 <= p.difficulty <= 5 and p.proof == "exact"


def test_the_shipped_puzzles_load_and_a_sample_is_proved_again() -> None:
    puzzles = starter()
    assert len(puzzles) >= 500
    assert [p.id for p in puzzles] == [f"{i:04d}" for i in range(1, len(puzzles) + 1)]
    assert len({p.position for p in puzzles}) == len(puzzles)
    for p in puzzles:
        state = p.state()
        assert state.current_player is not None
        legal = {str(m) for m in state.legal_moves()}
        assert set(p.answers) <= legal and len(legal) == p.moves
    for p in random.Random(7).sample(list(puzzles), SAMPLE):
        assert_proved(p)
    # Every theme and difficulty is there to choose.
    assert {t for p in puzzles for t in p.themes} == set(THEMES)
    assert {p.difficulty for p in puzzles} >= {1, 2, 3, 4}


def test_an_answer_is_judged_by_proving_it_again() -> None:
    p = starter()[0]
    right = p.judge(p.answers[0])
    assert right.right and right.outcome.wins and right.outcome.margin == p.margin
    wrong_move = next(str(m) for m in p.state().legal_moves() if str(m) not in p.answers)
    wrong = p.judge(wrong_move)
    assert not wrong.right and wrong.outcome.margin <= p.margin - p.gap
    assert wrong.outcome.line[0] == wrong_move


def test_an_answer_that_is_no_legal_move_is_refused() -> None:
    p = starter()[0]
    with pytest.raises(InvalidMoveError):
        p.judge("hello")
    absent = next(i for i in range(len(pw.PATCHES)) if i not in p.state().offered)
    with pytest.raises(IllegalMoveError):
        p.judge(f"{absent}r0@a1")  # a patch that is not on offer


def test_the_daily_puzzle_is_fixed_for_a_day_and_changes_the_next() -> None:
    day = date(2026, 12, 4)
    assert daily(day) == daily(day)
    days = [daily(day + timedelta(days=i)).id for i in range(30)]
    assert all(a != b for a, b in itertools.pairwise(days))
