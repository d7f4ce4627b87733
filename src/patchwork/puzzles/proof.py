"""What every legal move of a position leads to, proved by the exact endgame search."""

from __future__ import annotations

from dataclasses import dataclass

from ..ai import endgame
from ..engine.moves import Move
from ..engine.state import State

BUDGET = 300_000  # nodes the solver may visit for each move's position
SPACES = 64  # the solver is tried at any distance from the end (the budget decides)


@dataclass(frozen=True)
class Outcome:
    """A move's end with best play from both sides after it, for the player who made it."""

    wins: bool
    margin: int  # the final score margin, for the mover
    line: tuple[str, ...]  # the move, then best play to the end


def outcome(state: State, move: str, budget: int = BUDGET) -> Outcome | None:
    """The exact end of ``move`` in ``state`` (None if the solver runs out of budget)."""
    mover = state.current_player
    after = state.apply(Move.parse(move, state))
    if after.is_terminal():
        s0, s1 = after.scores()
        margin = s0 - s1 if mover == 0 else s1 - s0
        return Outcome(after.winner() == mover, margin, (move,))
    solved = endgame.solve_state(after, budget, SPACES)
    if solved is None:
        return None
    margin = solved.margin0 if mover == 0 else -solved.margin0
    return Outcome(solved.winner == mover, margin, (move, *map(str, solved.line)))


def outcomes(state: State, budget: int = BUDGET) -> dict[str, Outcome] | None:
    """The exact end of every legal move of ``state``; None if any is out of the budget."""
    found = {}
    for move in state.legal_moves():
        text = str(move)
        result = outcome(state, text, budget)
        if result is None:
            return None
        found[text] = result
    return found
