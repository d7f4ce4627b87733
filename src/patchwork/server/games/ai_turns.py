"""The AI's turns: its move chosen in the AI pool (never on the event loop), then played
under the game's lock like anyone's, unless the game moved on meanwhile."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from ...engine import PatchworkError, State
from ...engine.moves import parse_move
from ..aipool.runner import AIRunner
from ..common.config import Settings
from ..common.errors import ServerError
from .changes import Changes
from .live import LiveGame

log = logging.getLogger("patchwork.server")


class AITurns:
    def __init__(
        self,
        settings: Settings,
        ai: AIRunner,
        changes: Changes,
        *,
        several: bool,
        catch_up: Callable[[LiveGame], Awaitable[None]],
        retry_later: Callable[[LiveGame], None],
    ) -> None:
        self.settings = settings
        self.ai = ai
        self.changes = changes
        self.several = several  # one process of several: the game may have moved elsewhere
        self.catch_up = catch_up  # (under the lock) the game brought up to the database
        self.retry_later = retry_later  # the database is away: the turn again in a while

    async def run(self, live: LiveGame, version: int) -> None:
        """Play the AI's move in the game at ``version``."""
        seat = live.game.state.current_player
        level = live.data.ai_level or 1
        position = live.game.state.to_text()
        seed = (live.data.ai_seed + 7919 * version) % 2**62
        move_text: str | None = None
        for attempt in range(3):
            try:
                move_text = await self.ai.choose(position, level, seed, live.id)
                break
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the AI failed in game %s (attempt %d)", live.id, attempt + 1)
                await asyncio.sleep(0.5 * (attempt + 1))
        if move_text is None:  # the pool keeps failing: the beginner plays, right here
            from ...ai import level as ai_level

            state = State.from_text(position)
            move_text = str(await asyncio.to_thread(ai_level(1, seed=seed).choose, state))
        wait = live.data.updated_at.timestamp() + self.settings.ai_move_delay - time.time()
        if wait > 0:
            await asyncio.sleep(wait)
        async with live.lock:
            if self.several:
                try:
                    await self.catch_up(live)
                except ServerError:  # the database is away: try the turn again in a while
                    live.ai_version = -1
                    self.retry_later(live)
                    return
            if live.version != version or live.data.status != "active":
                return  # undone, resigned, or flagged meanwhile
            state = live.game.state
            if seat is None or state.current_player != seat:
                return
            try:
                await self.changes.play(live, parse_move(move_text), seat)
            except PatchworkError:
                log.error("the AI chose %r, which the engine refuses", move_text)
            except ServerError:  # the database is away: try the turn again in a while
                live.ai_version = -1
                self.retry_later(live)
            else:
                after = live.game.state
                if live.data.status == "active" and after.current_player not in (None, seat):
                    self.ai.ponder(after.to_text(), level, live.id)  # the person's turn
