"""Position analysis for hints, the analysis board and game review: what the searcher thinks
of every choice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.moves import Buy, Move, square_name
from ..engine.state import State
from .limit import Limit
from .search import MCTSAgent, SearchResult


def analyse(
    state: State,
    limit: Limit | float | None = None,
    workers: int = 1,
    seed: int | None = None,
    on_info: Callable[[int, float], None] | None = None,
    **options: Any,
) -> SearchResult:
    """Search ``state`` (default 1 s) and report, for the player to move: the estimated win
    probability, the expected final score margin, the best move with its principal line, and
    the same figures for every candidate decision (advance, each patch, or each square).
    ``on_info(iterations, seconds)`` is called about twice a second while it searches;
    ``options`` go to the searcher (``MCTSAgent``)."""
    options.setdefault("name", "analysis")
    agent = MCTSAgent(limit=limit, workers=workers, seed=seed, reuse=False, **options)
    try:
        return agent.search(state, on_info=on_info)
    finally:
        agent.close()


def squares(move: Move) -> list[str]:
    """The squares a move covers, by name (none for an advance)."""
    return [square_name(r, c) for r, c in sorted(move.squares)]


def as_dict(result: SearchResult) -> dict[str, Any]:
    """A search's view of a position as JSON-ready data (the server's and ``--json``'s form)."""
    return {
        "player": result.player,
        "best_move": str(result.best_move),
        "squares": squares(result.best_move),
        "win_probability": round(result.win_probability, 4),
        "margin": round(result.margin, 2),
        "principal_line": [str(m) for m in result.principal_line],
        "exact": result.exact,
        "iterations": result.iterations,
        "seconds": round(result.seconds, 3),
        "candidates": [
            {
                "move": str(c.move),
                "patch": c.patch_id
                if c.patch_id is not None
                else (c.move.patch_id if isinstance(c.move, Buy) else None),
                "visits": c.visits,
                "win_probability": round(c.win_probability, 4),
                "margin": round(c.margin, 2),
                "line": [str(m) for m in c.line],
            }
            for c in result.candidates
        ],
    }
