"""What clients see of a game's review (docs/server.md, "Reviews")."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..games.requests import Seat

MoveClass = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
# "class" is a Python keyword: the field is ``klass`` in Python and ``class`` on the wire.
BY_ALIAS = ConfigDict(serialize_by_alias=True, validate_by_name=True, validate_by_alias=True)


class ReviewPly(BaseModel):
    """One move judged by the searcher (``patchwork.ai.review``): the values before and
    after it for the player who made it (``seat``), what it gave away and its class."""

    model_config = BY_ALIAS
    ply: int = Field(description="1 for the first move; the position before it is ply - 1")
    seat: Seat
    move: str
    best_move: str = Field(description="the searcher's move in the position before")
    squares: list[str] = Field(description="the squares the move played covers")
    best_squares: list[str] = Field(description="the squares the searcher's move covers")
    win_probability_before: float
    win_probability_after: float
    margin_before: float
    margin_after: float
    loss: float = Field(description="win probability given away, 0-1")
    margin_loss: float = Field(description="points given away")
    klass: MoveClass = Field(alias="class")
    exact: bool = Field(description="both values exact (the solver's, or the game's result)")
    forced: bool = Field(description="the only legal move")


class ReviewPlayer(BaseModel):
    seat: Seat
    name: str
    accuracy: float | None = Field(description="0-100; null: no move of their own choosing")
    inaccuracies: int
    mistakes: int
    blunders: int
    counts: dict[MoveClass, int]
    worst: list[int] = Field(description="the plies that gave away most, worst first")


class ReviewThresholds(BaseModel):
    inaccuracy: float
    mistake: float
    blunder: float
    points_per_unit: float


class ReviewPoint(BaseModel):
    """A position of the game as the chart draws it: player 0's chances there."""

    ply: int = Field(description="the moves played before it (0: the start)")
    win_probability: float = Field(description="player 0's win probability, 0-1")
    margin: float = Field(description="player 0's expected final margin, in points")


class ReviewView(BaseModel):
    """Every move of a game judged: what ``GET /api/games/{id}/review`` serves."""

    game_id: str
    version: int = Field(description="the game's version when it was reviewed")
    created_at: str
    stored: bool = Field(description="kept in the database (a finished game's review)")
    limit: str = Field(description="the search limit of each position")
    iterations: int
    seed: int
    finished: bool = Field(description="the game reached its end by the rules")
    plies: list[ReviewPly]
    players: list[ReviewPlayer]
    curve: list[ReviewPoint] = Field(
        description="every position's value, from the start to the last (its result when over)"
    )
    thresholds: ReviewThresholds


class ReviewStatus(BaseModel):
    """Where a game's review stands: ``none`` (never asked for), ``running`` (``done`` of
    ``total`` positions valued) or ``done`` (with the review)."""

    game_id: str
    state: Literal["none", "running", "done"]
    done: int
    total: int
    review: ReviewView | None
