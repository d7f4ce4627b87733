"""What the reviews send over a game's websocket (members of its closed set, ``ServerMessage``
in http/game_socket.py)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from .schemas import ReviewView


class ReviewProgressMessage(BaseModel):
    """A review of this game is under way: ``done`` of its ``total`` positions valued."""

    type: Literal["review_progress"] = "review_progress"
    done: int
    total: int


class ReviewMessage(BaseModel):
    """A review of this game is ready (sent to everyone connected to the game)."""

    type: Literal["review"] = "review"
    review: ReviewView
