"""An agent that plays the search's playout policy directly: instant, and human-like."""

from __future__ import annotations

import numpy as np

from ..engine.errors import PatchworkError
from ..engine.moves import Move, move_from_code
from ..engine.state import State
from . import policy
from .limit import Limit


class PolicyAgent:
    """Buys the patch with the best points per time (plus ``noise``), placed by the policy."""

    def __init__(
        self, noise: float = 0.35, tries: int = 12, seed: int | None = None, name: str = "policy"
    ) -> None:
        self.name = name
        self.noise = noise
        self.tries = tries
        self._seeds = np.random.SeedSequence(seed)

    def choose(self, state: State, limit: Limit | float | None = None) -> Move:
        if state.current_player is None:
            raise PatchworkError("the game is over: there is no move to choose")
        policy.seed(int(self._seeds.spawn(1)[0].generate_state(1)[0]))
        return move_from_code(int(policy.policy_move(state.vector, self.noise, self.tries)))
