"""The ladder for people: five named configurations, each stronger than the one below.

Level 1 plays the playout policy with a lot of noise (buys sensible patches, sometimes
badly timed), level 2 looks one move ahead, levels 3-5 search with MCTS for longer and on
more cores. Measured strengths are in the README.
"""

from __future__ import annotations

from typing import Any

from ..engine.errors import PatchworkError
from .agents import Agent, GreedyAgent
from .limit import Limit
from .policy_agent import PolicyAgent
from .search import MCTSAgent

LEVELS = (1, 2, 3, 4, 5)
DESCRIPTIONS = {
    1: "beginner: buys what looks good right now, often at the wrong moment",
    2: "casual: weighs every move one step ahead",
    3: "club: searches 0.03 s a move, and plays the last moves by feel",
    4: "expert: searches 1 s a move",
    5: "master: searches 5 s a move on two cores",
}


def level(n: int, seed: int | None = None, **options: Any) -> Agent:
    """The agent for level ``n`` (1-5); options override the level's settings."""
    if n not in LEVELS:
        raise PatchworkError(f"there is no level {n!r}: levels are 1-5")
    name = f"level{n}"
    if n == 1:
        return PolicyAgent(noise=options.pop("noise", 2.0), seed=seed, name=name, **options)
    if n == 2:
        return GreedyAgent(seed=seed, **options)
    seconds = {3: 0.03, 4: 1.0, 5: 5.0}[n]
    options.setdefault("workers", 2 if n == 5 else 1)
    # Level 3 leaves the exact endgame search to the stronger levels.
    options.setdefault("exact_endgame", n > 3)
    limit = options.pop("limit", Limit(time=seconds))
    return MCTSAgent(limit=limit, seed=seed, name=name, **options)
