"""Puzzle ratings (docs/puzzles.md, "Puzzle rating"): each puzzle's fixed rating from its
difficulty, a player's rating after an attempt, and the puzzle nearest a player's rating.

A puzzle of difficulty d is found by AI level d and missed by the levels below it, so it is
placed halfway between the fixed ratings of level d - 1 and level d (ratings/rating.py, the
measured ladder); below level 1 the ladder is extended by the step from level 1 to level 2.
Difficulty 5 (none of levels 1-4 finds it) sits halfway between levels 4 and 5. Puzzles are
not re-rated: the set is small and shipped, and their difficulty is measured, not voted.

A player's attempt is one Glicko-2 rating period against the puzzle (ratings/glicko2.py),
won when the first answer is right.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from ...puzzles import Puzzle
from ..ratings import glicko2
from ..ratings.glicko2 import Rating
from ..ratings.rating import AI_RD, AI_VOLATILITY, LEVEL_RATINGS

DIFFICULTIES = range(1, 6)


def difficulty_ratings(levels: Mapping[int, float] = LEVEL_RATINGS) -> dict[int, float]:
    """Each difficulty's rating: halfway between the level that misses it and the one that
    finds it (level 0 is level 1 less the step up to level 2)."""
    ladder = {0: 2 * levels[1] - levels[2], **levels}
    return {d: (ladder[d - 1] + ladder[d]) / 2 for d in DIFFICULTIES}


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
