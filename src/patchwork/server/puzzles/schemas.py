"""The puzzles' HTTP shapes."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

MoveText = Annotated[str, Field(min_length=1, max_length=32)]
RATING = "the signed-in player's puzzle rating after this request; null for a guest"
RATING_CHANGE = (
    "what this request changed it by; null for a guest, or when it did not count (only the "
    "first answer to a puzzle, or giving it up first, counts)"
)


class PuzzleView(BaseModel):
    """A puzzle as it is asked: the position and what it is about, never its answers."""

    id: str
    position: str = Field(description="the position text; the player to move is to find the move")
    start: str = Field(description="the game it comes from: its start (a position text)")
    before: list[str] = Field(description="the game's moves from its start to the puzzle")
    to_move: int
    themes: list[str] = Field(description="endgame, middlegame, bonus, timing, packing, income")
    difficulty: int = Field(description="1 (AI level 1 finds it) .. 5 (none of the levels does)")
    rating: int = Field(description="the puzzle's fixed rating, from its difficulty")
    moves: int = Field(description="legal moves in the position")
    daily: bool = Field(description="today's puzzle")


class AnswerIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    move: MoveText


class Proof(BaseModel):
    """A move's end with best play from both sides, proved by the exact endgame search."""

    wins: bool
    margin: int = Field(description="the final margin for the player to move")
    line: list[str] = Field(description="the move, then best play to the end")
    squares: list[str] = Field(description="the squares the move covers")


class Estimate(BaseModel):
    """A move as the search that proved the puzzle rates it, for the player to move."""

    win_probability: float = Field(description="0-1")
    margin: float = Field(description="the expected final margin")


class Searched(BaseModel):
    """An answer to a puzzle proved by search (docs/puzzles.md, "The search proof"), judged
    by that search's figures: nothing is searched again."""

    estimate: Estimate | None = Field(
        description="the answer's figures; for a placement the search did not rate (tried "
        "false), the best of its patch's, or null when that is the answers' patch"
    )
    tried: bool = Field(description="the search rated this very move")
    best: Estimate = Field(description="the best answer's figures")
    rival: Estimate = Field(
        description="the most any move that is not an answer gets: the highest win "
        "probability and the highest margin"
    )
    iterations: int = Field(description="the search of the position after each move rated")
    line: list[str] = Field(description="the move, then (right) the searcher's line")
    squares: list[str] = Field(description="the squares the move covers")


class VerdictView(BaseModel):
    id: str
    right: bool
    move: str = Field(description="the answer, as the engine writes it")
    proof: Proof | None = Field(
        description="what the answer comes to with best play (a puzzle proved exactly; null "
        "for one proved by search: see search)"
    )
    search: Searched | None = Field(
        default=None, description="a puzzle proved by search: what the searcher gives the answer"
    )
    best_margin: int = Field(description="what the best move comes to")
    gap: int = Field(description="points every move that is not an answer ends behind")
    answers: list[str] = Field(description="the puzzle's answers: given once it is solved")
    rating: float | None = Field(default=None, description=RATING)
    rating_change: float | None = Field(default=None, description=RATING_CHANGE)


class SolutionView(BaseModel):
    id: str
    answers: list[str]
    line: list[str]
    margin: int
    rating: float | None = Field(default=None, description=RATING)
    rating_change: float | None = Field(default=None, description=RATING_CHANGE)


class PuzzleRatingView(BaseModel):
    """A signed-in player's puzzle rating (docs/puzzles.md, "Puzzle rating")."""

    rating: float = Field(description="1500 before the first attempt")
    rd: float = Field(description="its deviation")
    provisional: bool = Field(description="a deviation above 110, as for game ratings")
    attempts: int = Field(description="the rated attempts: puzzles answered or given up")
    solved: int = Field(description="the puzzles solved at the first attempt")
    updated_at: str | None = Field(description="when it last changed (ISO 8601), or null")
