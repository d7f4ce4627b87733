"""Patchwork as an OpenSpiel Python game, registered as ``python_patchwork``.

    import pyspiel
    import patchwork.envs.openspiel  # registers the game
    game = pyspiel.load_game("python_patchwork")             # the setup is chance's
    game = pyspiel.load_game("python_patchwork(seed=7)")     # one fixed setup: deterministic

A sequential, perfect-information, zero-sum game for two players; the player to move is the
engine's (the time board decides: turns do not alternate). Utilities are +1 / -1 (the
tie-break decides equal scores). Actions are the ids of :mod:`patchwork.envs.encoding`.

The setup (the order of the circle) is the only randomness of Patchwork. With the default
``seed=-1`` it is drawn by chance at the start: 32 chance nodes, each placing the next patch
of the circle clockwise from the neutral token, uniformly among the patches 1-32 not placed
yet (the starting patch 0 always comes last, as in the rules). A game ``seed`` >= 0 fixes the
circle to ``patchwork.new_game(seed=seed)``'s instead and that game has no chance node (its
type then says DETERMINISTIC, which algorithms such as AlphaZero ask for). Either way a
state serialises as its history, so ``pyspiel.serialize_game_and_state`` round-trips.

Parameters: ``seed`` (int, -1), ``edition`` ("revised" or "original"), ``rotation`` and
``flip`` (bools, True). Installed with the ``openspiel`` extra.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine import Rules, State, data, new_game
from . import encoding as E
from . import missing_extra

try:
    import pyspiel
    from open_spiel.python.observation import IIGObserverForPublicInfoGame
except ImportError as e:  # pragma: no cover - depends on what is installed
    raise missing_extra("open_spiel", "openspiel") from e

SHORT_NAME = "python_patchwork"
NUM_PLAYERS = 2
SETUP_DRAWS = data.NUM_PATCHES - 1  # patch 0 is always last
# Every turn moves a time token at least one space forward (53 spaces each), and at most
# five special patches are placed on top of that.
MAX_GAME_LENGTH = NUM_PLAYERS * data.FINAL_SPACE + data.SPECIAL_PATCH_COUNT
DEFAULT_PARAMS: dict[str, Any] = {
    "seed": -1,
    "edition": "revised",
    "rotation": True,
    "flip": True,
}


def _game_type(chance: bool) -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Python Patchwork",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if chance
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=NUM_PLAYERS,
        min_num_players=NUM_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULT_PARAMS,
    )


GAME_TYPE = _game_type(chance=True)


def _game_info(chance: bool) -> Any:
    return pyspiel.GameInfo(
        num_distinct_actions=E.NUM_ACTIONS,
        max_chance_outcomes=data.NUM_PATCHES if chance else 0,
        num_players=NUM_PLAYERS,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=MAX_GAME_LENGTH,
    )


class PatchworkGame(pyspiel.Game):  # type: ignore[misc]
    """The game object ``pyspiel.load_game("python_patchwork(...)")`` builds."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**DEFAULT_PARAMS, **(params or {})}
        self.seed = int(p["seed"])
        self.rules = Rules(str(p["edition"]), bool(p["rotation"]), bool(p["flip"]))
        chance = self.seed < 0
        super().__init__(_game_type(chance), _game_info(chance), p)

    def new_initial_state(self) -> PatchworkState:
        return PatchworkState(self)

    def max_chance_nodes_in_history(self) -> int:
        return SETUP_DRAWS if self.seed < 0 else 0

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return PatchworkObserver(params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class PatchworkState(pyspiel.State):  # type: ignore[misc]
    """A position: the setup drawn so far, then the engine's (immutable) state."""

    def __init__(self, game: PatchworkGame) -> None:
        super().__init__(game)
        self._rules = game.rules
        self._drawn: list[int] = []
        self._state: State | None = (
            new_game(seed=game.seed, rules=game.rules) if game.seed >= 0 else None
        )

    @property
    def engine_state(self) -> State | None:
        """The engine state, or None while the circle is being drawn."""
        return self._state

    # -- OpenSpiel's API -----------------------------------------------------------------

    def current_player(self) -> int:
        if self._state is None:
            return int(pyspiel.PlayerId.CHANCE)
        p = self._state.current_player
        return int(pyspiel.PlayerId.TERMINAL) if p is None else p

    def _legal_actions(self, player: int) -> list[int]:
        if self._state is None or self._state.current_player != player:
            return []
        ids: list[int] = E.legal_actions(self._state).tolist()
        return ids

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self._state is None, "only the setup is chance's"
        left = sorted(set(range(1, data.NUM_PATCHES)) - set(self._drawn))
        return [(patch, 1.0 / len(left)) for patch in left]

    def _apply_action(self, action: int) -> None:
        if self._state is None:
            self._drawn.append(int(action))
            if len(self._drawn) == SETUP_DRAWS:
                circle = [*self._drawn, data.STARTING_PATCH]
                self._state = new_game(circle=circle, rules=self._rules)
            return
        code = E.action_to_code(self._state, int(action))
        if not E.is_legal_action(self._state, int(action)):
            raise ValueError(f"action {action} is not legal here: {self._state.to_text()}")
        self._state = self._state.apply_code(code)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE or self._state is None:
            return f"circle:{action}"
        return E.action_to_string(self._state, int(action))

    def is_terminal(self) -> bool:
        return self._state is not None and self._state.is_terminal()

    def returns(self) -> list[float]:
        if self._state is None or not self._state.is_terminal():
            return [0.0, 0.0]
        return [1.0, -1.0] if self._state.winner() == 0 else [-1.0, 1.0]

    def __str__(self) -> str:
        if self._state is None:
            drawn = ",".join(str(p) for p in self._drawn) or "-"
            return f"setup: circle so far {drawn}"
        return self._state.to_text()


class PatchworkObserver:
    """The observation tensor of :mod:`patchwork.envs.encoding`, with named views."""

    def __init__(self, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.tensor = np.zeros(E.OBS_SIZE, dtype=np.float32)
        self.dict = E.split_observation(self.tensor)

    def set_from(self, state: PatchworkState, player: int) -> None:
        engine = state.engine_state
        if engine is None:
            self.tensor.fill(0.0)
        else:
            E.encode_observation(engine, player, out=self.tensor)

    def string_from(self, state: PatchworkState, player: int) -> str:
        engine = state.engine_state
        if engine is None:
            return str(state)
        return E.observation_string(engine, player)


pyspiel.register_game(GAME_TYPE, PatchworkGame)
