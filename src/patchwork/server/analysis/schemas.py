"""The analysis board's HTTP shapes: what a client asks for (the board it gets back is the
games domain's ``Board``, games/board.py)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

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
