"""The tutorial's HTTP shapes: a learner's progress as the client keeps it, what it sends, and
the lesson view it gets back (the table being the games domain's ``Board``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from ...tutorial.course import MOST_MOVES
from ..common.limits import STRICT
from ..games.board import Board

MoveText = Annotated[str, Field(min_length=1, max_length=20)]
Count = Annotated[int, Field(ge=0, le=MOST_MOVES)]


class ProgressData(BaseModel):
    """Where a learner stands (``Progress.to_dict``): kept by the client, checked again by
    the course each time it comes back."""

    model_config = STRICT
    lesson: Count = Field(description="the lesson's index (the number of lessons: all done)")
    step: Count = Field(default=0, description="the lesson's step")
    moves: list[MoveText] = Field(
        default_factory=list, max_length=MOST_MOVES, description="the game's moves so far"
    )
    waited: Count = Field(default=0, description="moves made while the lesson waited")
    own: list[MoveText] | None = Field(
        default=None,
        max_length=MOST_MOVES,
        description="while a lesson is shown on the prepared game: the learner's own game's moves",
    )
    back: bool = Field(default=False, description="the lesson goes back to the learner's game")


class ViewIn(BaseModel):
    model_config = STRICT
    progress: ProgressData | None = Field(default=None, description="null: the first lesson")


class MoveIn(BaseModel):
    model_config = STRICT
    progress: ProgressData
    move: str = Field(min_length=1, max_length=40, description="the move, in the notation")


class ReviewIn(BaseModel):
    model_config = STRICT
    progress: ProgressData = Field(description="a finished course's progress")


class LessonView(BaseModel):
    """The lesson a progress stands at, its texts in the request's language, on the table."""

    number: int = Field(description="the lesson's number, from 1 (the last once all are done)")
    count: int = Field(description="how many lessons there are")
    id: str = Field(description="the lesson's id: buy, place, turn, time, advance, ...")
    title: str
    text: str = Field(description="what the lesson teaches")
    step: int = Field(description="the step asked for, from 1")
    steps: int = Field(description="the lesson's steps")
    task: str | None = Field(description="what the learner is to do (null once all are done)")
    free: bool = Field(description="the lesson waits for its moment: any move will do")
    jumped: bool = Field(description="the lesson is shown on a prepared game, not the learner's")
    back: bool = Field(description="the lesson goes back to the learner's own game")
    finished: bool = Field(description="every lesson is done: the game is over")
    notes: list[str] = Field(
        description="what the panel says besides the lesson: that the game is the learner's "
        "again, or a prepared one, why any move will do, how the final count goes"
    )
    progress: ProgressData = Field(description="the progress to keep and send back")
    board: Board = Field(description="the table: the game after the progress's moves")


class MoveResult(BaseModel):
    met: bool = Field(description="the move was played (it meets the step, or the lesson waits)")
    said: str | None = Field(
        description="the step's hint for a move that does not meet it, its words of praise for "
        "one that completes it; null for a move that only moves the game on"
    )
    move: str = Field(description="the move, as the engine writes it")
    replies: list[str] = Field(description="the gentle opponent's answers, in order")
    view: LessonView = Field(description="where the learner stands now")


class ReviewGame(BaseModel):
    game_id: str = Field(description="the finished game stored for its review")
    review_url: str = Field(description="the page that shows its replay and starts its review")
