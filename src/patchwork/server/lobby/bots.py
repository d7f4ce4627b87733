"""The AI levels as the lobby's players, so that no lobby is ever empty: listed with their
fixed ratings, offered to a player nobody has come for, and played at once. They are fixed
data, the same on every process: nothing is stored or shared for them."""

from __future__ import annotations

from ...ai.levels import DESCRIPTIONS, LEVELS
from ..games.creation import ai_name
from ..games.requests import CreateGame
from ..games.service import GameService
from ..ratings.rating import LEVEL_RATINGS, ai_game_counts
from ..storage.models import UserData
from .messages import BotGame, BotView


def counts(user: UserData | None) -> bool:
    """Whether a game against a bot is rated for ``user`` (a guest's never is)."""
    return user is not None and ai_game_counts(user)


def bot_views(user: UserData | None) -> list[BotView]:
    """Every AI level as the lobby lists it for ``user``."""
    return [
        BotView(
            level=n,
            name=ai_name(n),
            rating=round(LEVEL_RATINGS[n]),
            description=DESCRIPTIONS[n],
            rated=counts(user),
        )
        for n in LEVELS
    ]


async def play_bot(
    svc: GameService, level: int, rated: bool, user: UserData | None, guest: str
) -> BotGame:
    """Start ``user``'s game (or the guest ``guest``'s) against ``level``: an ordinary game
    against the AI, the seat drawn at random, seat 0 first; rated if asked and it counts."""
    rated = rated and counts(user)
    req = CreateGame(
        mode="ai", level=level, seat="random", rated=rated, name=None if user else guest
    )
    created = await svc.create(req, user)
    assert created.seat is not None
    return BotGame(
        game_id=created.game_id,
        seat=created.seat,  # type: ignore[arg-type]
        token=created.token,
        level=level,
        rated=rated,
        watch_url=created.watch_url,
        ws_url=created.ws_url,
    )
