"""The analysis board's HTTP shapes: what a client asks for and the board it gets back."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..games.requests import RulesIn
from ..games.schemas import HistoryEntry, PositionView, RematchView, SeatView

MAX_POSITION = 2_000  # characters of a position text: the longest real one has about 400
MAX_PLIES = 300  # moves on a board: no game of Patchwork comes near (about 70 at most)
MoveText = Annotated[str, Field(min_length=1, max_length=32)]
GameId = Annotated[str, Field(min_length=1, max_length=40)]


class BoardIn(BaseModel):
    """A board: a position text (or a finished game, at a ply) and the moves played on it."""

    model_config = ConfigDict(extra="forbid", strict=True)
    position: str | None = Field(
        default=None, max_length=MAX_POSITION, description="the position to start from"
    )
    game_id: GameId | None = Field(
        default=None, description="instead of a position: a finished game, from its start"
    )
    ply: int | None = Field(
        default=None, ge=0, le=MAX_PLIES, description="with game_id: its first moves played"
    )
    moves: list[MoveText] = Field(
        default_factory=list, max_length=MAX_PLIES, description="moves played on it, in order"
    )


class Board(PositionView):
    """The position after the board's moves, shaped as a game between two people at one
    screen (so a client shows it as it shows a game), with where it comes from."""

    start: str = Field(description="the position the moves start from (its public text)")
    moves: list[str] = Field(description="the moves played on it, each as the engine writes it")
    mainline: list[str] = Field(
        description="from a game: all its moves (from start), so a client can step along it"
    )
    id: Literal["analysis"] = "analysis"
    mode: Literal["local"] = "local"
    version: int = Field(description="the number of moves played")
    status: Literal["active", "finished"]
    rules: RulesIn
    special_spaces: list[int] = Field(description="the special patches' spaces in this edition")
    seats: list[SeatView]
    history: list[HistoryEntry]
    clock: None = None
    result: None = None
    ratings: None = None
    rated: bool = False
    undo_available: bool = False
    rematch: RematchView = Field(default_factory=lambda: RematchView(offered_by=None, game_id=None))
