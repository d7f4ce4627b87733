"""Rating a finished rated game, once, and telling its clients (the event ``rated``). The
ratings domain does the rating (ratings/rating.py, given by the app); the games never reach
into its tables."""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from sqlalchemy import Engine

from ..common.errors import ServerError
from ..storage.models import EventData
from ..storage.store import StaleWrite, Store
from .changes import Changes
from .live import LiveGame

log = logging.getLogger("patchwork.server")


class Rated(Protocol):
    """A game just rated (ratings/rating.py's ``RatedGame``)."""

    @property
    def version(self) -> int: ...
    @property
    def updated_at(self) -> dt.datetime: ...
    @property
    def ratings(self) -> list[dict[str, Any] | None]: ...
    @property
    def event(self) -> EventData: ...


class Rating(Protocol):
    """What the games ask of the ratings domain (ratings/rating.py)."""

    def rate_game(
        self, engine: Engine, game_id: str, expected_version: int | None = None
    ) -> Rated | None: ...
    def unrated_games(self, engine: Engine) -> list[str]: ...


class Results:
    def __init__(
        self,
        store: Store,
        rating: Rating,
        changes: Changes,
        *,
        several: bool,
        committed: Callable[[str, int], None],
        catch_up: Callable[[LiveGame], Awaitable[None]],
    ) -> None:
        self.store = store
        self.rating = rating
        self.changes = changes
        self.several = several
        self.committed = committed
        self.catch_up = catch_up

    async def rate(self, live: LiveGame) -> None:
        """Rate a finished rated game (once: ratings/rating.py) and announce it to its
        clients as the event ``rated``. If that fails, the next start of a server rates it."""
        async with live.lock:
            for _ in range(3):
                if live.data.ratings is not None:
                    return
                try:
                    rated = await self.store.call(
                        self.rating.rate_game, self.store.engine, live.id, live.version
                    )
                except StaleWrite:  # another process changed the game: read it, try again
                    rated = None
                except Exception:
                    log.exception("rating game %s failed (the next start rates it)", live.id)
                    return
                if rated is not None:
                    live.data.ratings = rated.ratings
                    live.data.version = rated.version
                    live.data.updated_at = rated.updated_at
                    live.invalidate()
                    self.committed(live.id, rated.version)
                    self.changes.announce(live, rated.event)
                    return
                if not self.several:
                    return
                with contextlib.suppress(ServerError):  # rated elsewhere, or changed
                    await self.catch_up(live)
