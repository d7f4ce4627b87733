"""Puzzle ratings (docs/puzzles.md, "Puzzle rating"): each puzzle's fixed rating from its
difficulty, a player's rating after an attempt, and the puzzle nearest a player's rating.

A puzzle of difficulty d is found by the d-th of the levels that judge difficulty
(``puzzles.find.FINDERS``: the former levels 1-4) and missed by those below it, so it is
placed halfway between the fixed ratings of finders d - 1 and d (ratings/rating.py, the
measured ladder); below the first finder the scale is extended by the step from the first
to the second. Difficulty 5 (no finder finds it) sits halfway between the last finder and
the former level 5. Puzzles are
not re-rated: the set is small and shipped, and their difficulty is measured, not voted.

A player's attempt is one Glicko-2 rating period against the puzzle (ratings/glicko2.py),
won when the first answer is right.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from ...ai.levels import former
from ...puzzles import Puzzle
from ...puzzles.find import FINDERS
from ..ratings import glicko2
from ..ratings.glicko2 import Rating
from ..ratings.rating import AI_RD, AI_VOLATILITY, LEVEL_RATINGS

DIFFICULTIES = range(1, 6)


def difficulty_ratings(levels: Mapping[int, float] = LEVEL_RATINGS) -> dict[int, float]:
    """Each difficulty's rating: halfway between the finder that misses it and the one that
    finds it (finder 0 is the first less the step up to the second)."""
    finders = [levels[n] for n in (*FINDERS, former(5))]
    scale = {0: 2 * finders[0] - finders[1], **dict(enumerate(finders, start=1))}
    return {d: (scale[d - 1] + scale[d]) / 2 for d in DIFFICULTIES}


DIFFICULTY_RATINGS: dict[int, float] = difficulty_ratings()


def puzzle_rating(puzzle: Puzzle) -> Rating:
    """The puzzle's fixed rating, as sure as the AI levels' it is placed between."""
    return Rating(DIFFICULTY_RATINGS[puzzle.difficulty], AI_RD, AI_VOLATILITY)


def after_attempt(player: Rating, puzzle: Puzzle, won: bool) -> Rating:
    """The player's rating after a first attempt at ``puzzle``."""
    return glicko2.rate(player, [glicko2.Game(puzzle_rating(puzzle), float(won))])


def nearest(order: Iterable[Puzzle], rating: float, attempted: Collection[str]) -> Puzzle | None:
    """The first puzzle of ``order`` not in ``attempted`` whose rating is nearest ``rating``
    (None: every one was attempted)."""
    fresh = [p for p in order if p.id not in attempted]
    return min(fresh, key=lambda p: abs(DIFFICULTY_RATINGS[p.difficulty] - rating), default=None)
