"""The terminal app's settings that are not part of a game (read by the app and its screen)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..ai import Limit
from ..ai.review import DEFAULT_LIMIT
from ..engine import Rules


@dataclass(frozen=True)
class AppOptions:
    """Settings of the app that are not part of a game."""

    rules: Rules = field(default_factory=Rules)
    human_seat: int = 0
    seed: int | None = None
    delay: float = 0.6  # at least this long per move when watching agents
    hint_time: float = 1.0
    save_path: str | None = None
    review_limit: Limit = DEFAULT_LIMIT  # the search of each position in a review (R)
    review_workers: int = 2  # processes judging positions at once (1: a thread of the app)
    preferences_path: Path | None = None  # where they are kept (None: for this run only)
    lessons_path: Path | None = None  # where the guided first game's place is kept (idem)
