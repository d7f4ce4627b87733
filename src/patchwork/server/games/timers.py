"""What happens next in a game without anyone asking: the AI's turn, and the end of a game on
time when the running clock is out. With several processes this timed work runs where the
game's lease is held (cluster/node.py)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from ..cluster.node import ClusterNode
from ..common.errors import ServerError
from ..common.tasks import Background
from . import clocks
from .ai_turns import AITurns
from .changes import Changes, finish
from .live import LiveGame
from .memory import GamesInMemory
from .presence import Presence

AI_RETRY_SECONDS = 2.0  # after a failed write, an AI turn or a flag is tried again


class Timers:
    def __init__(
        self,
        memory: GamesInMemory,
        changes: Changes,
        ai_turns: AITurns,
        presence: Presence,
        tasks: Background,
        node: ClusterNode | None,
        catch_up: Callable[[LiveGame], Awaitable[None]],
    ) -> None:
        self.memory = memory
        self.changes = changes
        self.ai_turns = ai_turns
        self.presence = presence
        self.tasks = tasks
        self.node = node
        self.catch_up = catch_up  # (under the lock) the game brought up to the database

    def schedule(self, live: LiveGame) -> None:
        """Arrange the timed work the game has now: its AI turn, its flag."""
        self.cancel_clock(live)
        if self.tasks.closing:
            return
        state = live.game.state
        seat = state.current_player
        if self.node is not None:  # timed work runs where the game's lease is held
            timed = live.data.status == "active" and seat is not None
            timed = timed and (live.data.kind(seat) == "ai" or live.data.turn_started is not None)  # type: ignore[arg-type]
            if not timed:
                self.node.done(live.id)
                return
            if not self.node.holds(live.id):
                self.node.want(live.id)
                return
        if live.data.status != "active":
            return
        if seat is not None and live.data.kind(seat) == "ai" and live.ai_version != live.version:
            live.ai_version = live.version
            live.ai_task = self.tasks.spawn(self.ai_turns.run(live, live.version))
        remaining = live.data.remaining()
        if seat is not None and live.data.turn_started is not None and remaining is not None:
            flag_at = clocks.flag_time(remaining[seat], live.data.turn_started)
            delay = max(0.0, flag_at - time.time()) + 0.005
            loop = asyncio.get_running_loop()
            live.clock_timer = loop.call_later(
                delay, lambda: self.tasks.spawn(self._flag_timer(live.id))
            )

    def retry_later(self, live: LiveGame) -> None:
        """The database is away: look at the game's timed work again in a while."""
        asyncio.get_running_loop().call_later(AI_RETRY_SECONDS, lambda: self.schedule(live))

    @staticmethod
    def cancel_clock(live: LiveGame) -> None:
        if live.clock_timer is not None:
            live.clock_timer.cancel()
            live.clock_timer = None

    def cancel(self, live: LiveGame) -> None:
        """Stop every timer of a game (it leaves memory, or the server stops)."""
        self.cancel_clock(live)
        self.presence.disarm(live)

    async def _flag_timer(self, game_id: str) -> None:
        live = self.memory.active(game_id)
        if live is None:
            return
        async with live.lock:
            try:
                if self.node is not None:
                    await self.catch_up(live)
                if not await self.check_flag(live):
                    self.schedule(live)  # woke a little early
            except ServerError:  # the database is away: look again in a while
                self.retry_later(live)

    async def check_flag(self, live: LiveGame) -> bool:
        """End the game on time if the running clock is out (call under the lock)."""
        remaining = live.data.remaining()
        seat = live.game.state.current_player
        started = live.data.turn_started
        if live.data.status != "active" or seat is None or started is None or remaining is None:
            return False
        if not clocks.is_flagged(remaining[seat], started, time.time()):
            return False
        fields = finish(live.game.state, "time", 1 - seat)
        fields[f"remaining{seat}"] = 0
        event = await self.changes.commit(live, "flag", {"seat": seat}, fields)
        self.changes.announce(live, event)
        return True
