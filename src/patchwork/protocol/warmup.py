"""Load the compiled search code before a clock is running.

Numba loads each kernel from its on-disk cache on first use, a fraction of a second each;
a bot with 100 ms a turn cannot afford that mid-game. ``warm_up`` runs every path a search
takes (the tree search, tree reuse after a move, and the exact endgame search) once, on
positions of its own.
"""

from __future__ import annotations

import random

from ..ai import Limit, MCTSAgent, endgame
from ..engine import Rules, State, new_game


def near_end_position(rules: Rules, seed: int = 0) -> State:
    """A position from a random game, close enough to the end for the exact search."""
    rng = random.Random(seed)
    state = new_game(seed=seed, rules=rules)
    while not state.is_terminal() and not endgame.near_end(state):
        codes = state.legal_move_codes()
        # Mostly advance-or-buy decisions as a person would take them: any legal move will do.
        state = state.apply_code(int(codes[rng.randrange(len(codes))]))
    return state


def warm_up(rules: Rules, agent: MCTSAgent | None = None) -> None:
    """Run each search path once (on ``agent`` if given, so its own tree is allocated too)."""
    searcher = agent or MCTSAgent(limit=Limit(iterations=64), seed=0)
    state = new_game(seed=0, rules=rules)
    result = searcher.search(state, Limit(iterations=64))
    searcher.search(state.apply(result.best_move), Limit(iterations=64))  # tree reuse
    end = near_end_position(rules)
    if not end.is_terminal():
        endgame.solve_state(end, 2_000)
        searcher.search(end, Limit(iterations=16))
    if agent is None:
        searcher.close()
