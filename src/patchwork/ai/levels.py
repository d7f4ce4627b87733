"""The ladder for people: five named configurations, each stronger than the one below.

Level 1 plays the playout policy with a lot of noise (buys sensible patches, sometimes
badly timed), level 2 looks one move ahead, levels 3-5 search with MCTS for longer and on
more cores. Levels 3 and 4 are set in search iterations, not seconds, so they play the same
on a slow server as on a fast one (and the same game again with the same seed); level 5 is
the strongest the machine can do in 5 s. Measured strengths are in the README.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..engine.errors import PatchworkError
from ..i18n import N_
from .agents import Agent, GreedyAgent
from .limit import Limit
from .policy_agent import PolicyAgent
from .search import MCTSAgent

LEVELS = (1, 2, 3, 4, 5)
# English, marked for the catalogs: each interface shows them in its reader's language.
DESCRIPTIONS = {
    1: N_("plays like a beginner who buys what shines, often at the wrong moment"),
    2: N_("plays like a casual player who thinks one move ahead"),
    3: N_("plays like a club player: sound, with slips near the end"),
    4: N_("plays like an expert, and the last moves perfectly"),
    5: N_("plays like a master: thinks hardest and takes a few seconds a move"),
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
    # Each step is 30-100 times the search of the one below: what it takes to win 70%.
    # Level 4 at 10,000 iterations left level 5 only 69% of its games (README "Strength").
    default = {3: Limit(iterations=100), 4: Limit(iterations=3_000), 5: Limit(time=5.0)}[n]
    options.setdefault("workers", 2 if n == 5 else 1)
    # Level 3 leaves the exact endgame search to the stronger levels.
    options.setdefault("exact_endgame", n > 3)
    limit = options.pop("limit", default)
    return MCTSAgent(limit=limit, seed=seed, name=name, **options)


@cache
def ponders(n: int) -> bool:
    """Whether level ``n`` thinks on the opponent's time (``MCTSAgent.ponders``)."""
    agent = level(n)
    return isinstance(agent, MCTSAgent) and agent.ponders
