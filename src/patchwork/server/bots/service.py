"""The bots service (``app.state.bots``): what an account's streams open with. A stream
carries what is delivered live; what was already there when it opened (or happened while a
program was away) it sends first, read from the database, so that a program that reconnects
misses nothing (docs/bots.md)."""

from __future__ import annotations

import time

from pydantic import BaseModel

from ..accounts.service import Accounts
from ..challenges.schemas import ChallengeNew
from ..challenges.service import Challenges
from ..people.messages import MeWelcome
from ..storage.models import UserData, utcnow
from .messages import GameBrief, GameStart

OPEN_GAMES = 200  # at most this many games under way opened on the stream (newest first)


class Bots:
    def __init__(self, accounts: Accounts, challenges: Challenges) -> None:
        self.accounts = accounts
        self.challenges = challenges

    async def opening(self, user: UserData) -> list[BaseModel]:
        """The event stream's first lines: the welcome, every open challenge to or from the
        account (``challenge_new``), and every game of it under way (``game_start``)."""
        lines: list[BaseModel] = [MeWelcome(name=user.name, server_time=round(time.time(), 3))]
        incoming, outgoing = await self.challenges.listing(user)
        now = utcnow()
        lines += [ChallengeNew(challenge=row.view(now)) for row in incoming + outgoing]
        games = await self.accounts.games_of(user.id, "active", OPEN_GAMES)
        for data in reversed(games):  # the oldest first, as they began
            seat = next(s for s in (0, 1) if data.user(s) == user.id)
            if data.status == "active":
                lines.append(GameStart(game=GameBrief.of(data, seat)))
        return lines
