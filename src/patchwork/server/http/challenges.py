"""Challenges' routes (docs/server.md "Challenges"): challenge a named player (or offer the
rematch of a game between two accounts), list your open challenges, read one, and accept,
decline or cancel. Accounts only: a guest is told to sign in. What changes is told to both
players on their own sockets (``/ws/me``); these routes answer the one who acted."""

from __future__ import annotations

from fastapi import APIRouter, Path, Request

from ...i18n import translator
from ..challenges.schemas import (
    REASONS,
    Accepted,
    ChallengeIn,
    ChallengeList,
    ChallengeView,
    DeclineIn,
)
from ..challenges.service import Challenges
from ..challenges.store import ChallengeRow
from ..common.errors import request_language
from ..games.service import GameService
from ..storage.models import utcnow
from .auth import SignedIn
from .games import ERRORS

router = APIRouter(tags=["challenges"])
ChallengeId = Path(min_length=1, max_length=24)


def _challenges(request: Request) -> Challenges:
    found: Challenges = request.app.state.challenges
    return found


def _view(request: Request, row: ChallengeRow) -> ChallengeView:
    """The challenge, its reason in the language of the request."""
    text = None
    if row.reason is not None and row.reason in REASONS:
        text = translator(request_language(request)).gettext(REASONS[row.reason])
    return row.view(utcnow(), text)


@router.post("/api/challenges", response_model=ChallengeView, status_code=201, responses=ERRORS)
async def create(body: ChallengeIn, request: Request, session: SignedIn) -> ChallengeView:
    """Challenge the player ``to`` (or offer the rematch of a finished online game between two
    accounts, ``rematch_of``). Refused if either of you blocked the other, with 3 open
    challenges already or one to this player. Both of you hear ``challenge_new``; it lapses
    after 10 minutes (a correspondence game: 3 days). Offering a rematch your opponent offered
    too accepts theirs (the answer then has ``status`` accepted and the ``game_id``)."""
    row = await _challenges(request).create(session.user, body)
    return _view(request, row)


@router.get("/api/challenges", response_model=ChallengeList, responses=ERRORS)
async def listing(request: Request, session: SignedIn) -> ChallengeList:
    """Your open challenges: to you (incoming) and from you (outgoing)."""
    incoming, outgoing = await _challenges(request).listing(session.user)
    return ChallengeList(
        incoming=[_view(request, r) for r in incoming],
        outgoing=[_view(request, r) for r in outgoing],
    )


@router.get("/api/challenges/{challenge_id}", response_model=ChallengeView, responses=ERRORS)
async def one(
    request: Request, session: SignedIn, challenge_id: str = ChallengeId
) -> ChallengeView:
    """A challenge to or from you, open or answered (how it was answered, its game)."""
    return _view(request, await _challenges(request).one(session.user, challenge_id))


@router.post("/api/challenges/{challenge_id}/accept", response_model=Accepted, responses=ERRORS)
async def accept(request: Request, session: SignedIn, challenge_id: str = ChallengeId) -> Accepted:
    """Accept a challenge to you: the game starts (once: accepting again answers the same
    game); both of you hear ``challenge_accepted`` and go to it."""
    row = await _challenges(request).accept(session.user, challenge_id)
    assert row.game_id is not None
    return Accepted(
        challenge=_view(request, row), game_id=row.game_id, **GameService.paths(row.game_id)
    )


@router.post(
    "/api/challenges/{challenge_id}/decline", response_model=ChallengeView, responses=ERRORS
)
async def decline(
    request: Request,
    session: SignedIn,
    body: DeclineIn | None = None,
    challenge_id: str = ChallengeId,
) -> ChallengeView:
    """Decline a challenge to you, with a reason from a closed set (default ``generic``)."""
    reason = "generic" if body is None else body.reason
    return _view(request, await _challenges(request).decline(session.user, challenge_id, reason))


@router.post(
    "/api/challenges/{challenge_id}/cancel", response_model=ChallengeView, responses=ERRORS
)
async def cancel(
    request: Request, session: SignedIn, challenge_id: str = ChallengeId
) -> ChallengeView:
    """Withdraw your challenge before it is answered."""
    return _view(request, await _challenges(request).cancel(session.user, challenge_id))
