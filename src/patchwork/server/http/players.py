"""Players' public pages: a profile (rating, record, rating history, recent games), the
rating history as a chart, and the leaderboard (docs/accounts.md)."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from ...i18n import N_, translator
from ..common.errors import ServerError, request_language
from ..games import reading
from ..ratings import chart, rating
from ..ratings.schemas import LeaderboardEntry, Profile, RatingPoint
from ..storage.models import UserData
from .games import ERRORS, Service

router = APIRouter(tags=["players"])


async def _player(svc: Service, name: str) -> UserData:
    user = await svc.store.call(rating.find_user, svc.store.engine, name)
    if user is None:
        raise ServerError("not_found", N_("there is no player {name!r}"), {"name": name})
    return user


@router.get("/api/players/{name}", response_model=Profile, responses=ERRORS)
async def profile(name: str, svc: Service) -> Profile:
    """A player's rating (provisional above a deviation of 110), record, rating history
    (oldest first) and last finished games (latest first). The name in any case."""
    user = await _player(svc, name)
    engine = svc.store.engine
    history = await svc.store.call(rating.history, engine, user.id)
    record = await svc.store.call(rating.record, engine, user.id)
    recent = await svc.store.call(rating.recent_games, engine, user.id)
    return Profile(
        name=user.name,
        bot=user.bot,
        rating=round(user.rating, 2),
        rd=round(user.rd, 2),
        provisional=rating.provisional(user.rd),
        created_at=user.created_at.isoformat(),
        played=record.played,
        won=record.won,
        lost=record.lost,
        drawn=record.drawn,
        history=[
            RatingPoint(
                game_id=h.game_id,
                at=h.at.isoformat(),
                rating=round(h.rating, 2),
                rd=round(h.rd, 2),
                change=round(h.rating - h.rating_before, 2),
                opponent=h.opponent,
                score=h.score,
            )
            for h in history
        ],
        recent=[reading.summary(d) for d in recent],
    )


@router.get(
    "/api/players/{name}/rating.svg",
    response_class=Response,
    responses={**ERRORS, 200: {"content": {"image/svg+xml": {}}}},
)
async def rating_svg(name: str, svc: Service, request: Request) -> Response:
    """The player's rating history as an SVG chart (about 600 x 260)."""
    user = await _player(svc, name)
    history = await svc.store.call(rating.history, svc.store.engine, user.id)
    t = translator(request_language(request))
    text = await asyncio.to_thread(chart.svg, (user.rating, user.rd), history, t)
    return Response(text, media_type="image/svg+xml", headers={"cache-control": "no-cache"})


@router.get("/api/leaderboard", response_model=list[LeaderboardEntry], responses=ERRORS)
async def leaderboard(
    svc: Service, limit: Annotated[int, Query(ge=1, le=200)] = 50
) -> list[LeaderboardEntry]:
    """The players with an established rating (not provisional), the highest first."""
    rows = await svc.store.call(rating.leaderboard, svc.store.engine, limit)
    return [
        LeaderboardEntry(
            rank=s.rank,
            name=s.name,
            bot=s.bot,
            rating=round(s.rating, 2),
            rd=round(s.rd, 2),
            games=s.games,
        )
        for s in rows
    ]
