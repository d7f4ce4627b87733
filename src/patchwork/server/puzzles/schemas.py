"""The puzzles' HTTP shapes."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

MoveText = Annotated[str, Field(min_length=1, max_length=32)]


class PuzzleView(BaseModel):
    """A puzzle as it is asked: the position and what it is about, never its answers."""

    id: str
    position: str = Field(description="the position text; the player to move is to find the move")
    start: str = Field(description="the game it comes from: its start (a position text)")
    before: list[str] = Field(description="the game's moves from its start to the puzzle")
    to_move: int
    themes: list[str] = Field(description="endgame, bonus, timing, packing, income")
    difficulty: int = Field(description="1 (AI level 1 finds it) .. 5 (none of the levels does)")
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


class VerdictView(BaseModel):
    id: str
    right: bool
    move: str = Field(description="the answer, as the engine writes it")
    proof: Proof = Field(description="what the answer comes to")
    best_margin: int = Field(description="what the best move comes to")
    gap: int = Field(description="points every move that is not an answer ends behind")
    answers: list[str] = Field(description="the puzzle's answers: given once it is solved")


class SolutionView(BaseModel):
    id: str
    answers: list[str]
    line: list[str]
    margin: int
