"""Position analysis for hints and game review: what the searcher thinks of every choice."""

from __future__ import annotations

from ..engine.state import State
from .limit import Limit
from .search import MCTSAgent, SearchResult


def analyse(
    state: State,
    limit: Limit | float | None = None,
    workers: int = 1,
    seed: int | None = None,
) -> SearchResult:
    """Search ``state`` (default 1 s) and report, for the player to move: the estimated win
    probability, the expected final score margin, the best move with its principal line, and
    the same figures for every candidate decision (advance, each patch, or each square)."""
    agent = MCTSAgent(limit=limit, workers=workers, seed=seed, reuse=False, name="analysis")
    try:
        return agent.search(state)
    finally:
        agent.close()
