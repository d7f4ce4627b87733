"""Is the searcher's taste for an early advance a weakness? Issue 19 asks; this agent answers
by play: it is the default searcher, except that until it has bought its first patch it
never advances (it plays its most visited purchase instead). Played against the searcher
itself, it wins clearly more than half the games only if the early advance costs games:

    patchwork tournament "py:benchmarks.opening_probe:agent@iterations=3000" \
        "mcts@iterations=3000" --games 200 --workers 2 --seed S

run from the checkout's root, and ``python benchmarks/opening_probe.py RECORD.json`` counts in
its record how often each player advanced before its first purchase. Not shipped to users.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from patchwork.ai.limit import Limit
from patchwork.ai.search import MCTSAgent
from patchwork.engine.game import Game
from patchwork.engine.moves import Advance, Move
from patchwork.engine.state import State, new_game


def unbought(state: State, player: int) -> bool:
    """Whether ``player`` has yet to buy a patch (the probe's condition for never advancing)."""
    return not state.players[player].quilt.bits


class BuyFirstAgent(MCTSAgent):
    """The searcher, made to buy before it ever advances."""

    def choose(self, state: State, limit: Limit | float | None = None) -> Move:
        player = state.current_player
        if player is None or not unbought(state, player):
            return super().choose(state, limit)
        result = self.search(state, limit)
        purchases = [c for c in result.candidates if c.patch_id is not None]
        if not isinstance(result.best_move, Advance) or not purchases:
            return result.best_move
        return max(purchases, key=lambda c: c.visits).move


def agent(seed: int | None = None, **settings: Any) -> BuyFirstAgent:
    """The ``py:benchmarks.opening_probe:agent[@settings]`` player of tournaments."""
    return BuyFirstAgent(seed=seed, name="buy-first", **settings)


def advanced_first(game: dict[str, Any]) -> list[bool]:
    """For each player of a game in a tournament's record: did it advance before buying?"""
    played = Game(new_game(circle=game["circle"], first_player=game["first_player"]))
    for move in game["moves"]:
        played.push(move)
    advanced = [False, False]
    for player, state, move in zip(played.movers(), played.states[:-1], played.moves, strict=True):
        advanced[player] |= isinstance(move, Advance) and unbought(state, player)
    return advanced


if __name__ == "__main__":
    for path in sys.argv[1:]:
        counts: dict[str, list[int]] = {}
        for game in json.loads(Path(path).read_text("utf-8"))["games"]:
            for name, advanced in zip(game["players"], advanced_first(game), strict=True):
                counts.setdefault(name, [0, 0])[0] += advanced
                counts[name][1] += 1
        for name, (n, games) in counts.items():
            print(f"{path}: {name} advanced before its first purchase in {n} of {games} games")
