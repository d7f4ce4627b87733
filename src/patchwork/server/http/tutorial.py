"""The guided first game's routes (docs/server.md, "Tutorial"): the lesson a progress stands
at, a move tried there, and the finished course's game stored for its first review. The work
is the tutorial domain's (tutorial/service.py); the client keeps the progress."""

from __future__ import annotations

from fastapi import APIRouter, Request

from ..common.errors import request_language
from ..tutorial import service
from ..tutorial.schemas import LessonView, MoveIn, MoveResult, ReviewGame, ReviewIn, ViewIn
from ..tutorial.service import FirstReviews
from .accounts import address
from .auth import MaybeSession
from .games import ERRORS

router = APIRouter(prefix="/api/tutorial", tags=["tutorial"])


@router.post("/view", response_model=LessonView, responses=ERRORS)
async def lesson(body: ViewIn, request: Request, session: MaybeSession) -> LessonView:
    """The lesson a kept progress stands at (the first for null), checked again by the
    course: its texts in the request's language, and the table."""
    user = None if session is None else session.user
    return await service.view(body.progress, request_language(request), user)


@router.post("/move", response_model=MoveResult, responses=ERRORS)
async def move(body: MoveIn, request: Request, session: MaybeSession) -> MoveResult:
    """A move tried: played (with the gentle opponent's answers) if it meets the lesson's
    step, else answered with the step's hint and nothing played."""
    user = None if session is None else session.user
    return await service.move(body.progress, body.move, request_language(request), user)


@router.post("/review", response_model=ReviewGame, responses=ERRORS)
async def first_review(body: ReviewIn, request: Request, session: MaybeSession) -> ReviewGame:
    """The finished course's game, stored as a finished game against AI level 1 (bound to
    your account when signed in), for its review; the same course sent again gets the same
    game."""
    reviews: FirstReviews = request.app.state.first_reviews
    user = None if session is None else session.user
    return await reviews.store(body.progress, user, address(request))
