"""Is the searcher's taste for an early advance a weakness? Issue 19 asks; this agent answers
by play: it is the default searcher, except that until it has bought its first patch it
never advances (it plays its most visited purchase instead). Played against the searcher
itself, it wins clearly more than half the games only if the early advance costs games:

    patchwork tournament "py:benchmarks.opening_probe:agent@iterations=3000" \
        "mcts@iterations=3000" --games 200 --workers 2 --seed S

run from the checkout's root. Not shipped to users.
"""

from __future__ import annotations

from typing import Any

from patchwork.ai.limit import Limit
from patchwork.ai.search import MCTSAgent
from patchwork.engine.moves import Advance, Move
from patchwork.engine.state import State


class BuyFirstAgent(MCTSAgent):
    """The searcher, made to buy before it ever advances."""

    def choose(self, state: State, limit: Limit | float | None = None) -> Move:
        player = state.current_player
        if player is None or state.players[player].quilt.bits:
            return super().choose(state, limit)
        result = self.search(state, limit)
        purchases = [c for c in result.candidates if c.patch_id is not None]
        if not isinstance(result.best_move, Advance) or not purchases:
            return result.best_move
        return max(purchases, key=lambda c: c.visits).move


def agent(seed: int | None = None, **settings: Any) -> BuyFirstAgent:
    """The ``py:benchmarks.opening_probe:agent[@settings]`` player of tournaments."""
    return BuyFirstAgent(seed=seed, name="buy-first", **settings)
