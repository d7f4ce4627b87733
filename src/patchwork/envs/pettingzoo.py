"""A PettingZoo AEC environment, shaped like PettingZoo's classic board games.

    from patchwork.envs.pettingzoo import env
    game = env(render_mode="ansi")
    game.reset(seed=42)
    for agent in game.agent_iter():
        obs, reward, termination, truncation, info = game.last()
        done = termination or truncation
        action = None if done else policy(obs["observation"], obs["action_mask"])
        game.step(action)

Agents are ``player_0`` (moves first) and ``player_1``. ``agent_selection`` follows the time
board: the player whose time token is behind moves, so one player may move several times in
a row. Each observation is ``{"observation": float32 vector, "action_mask": int8 vector}``
(see :mod:`patchwork.envs.encoding`); the mask is all zeros for the agent not to move. At
the end the winner gets +1 and the loser -1 (the tie-break decides equal scores). ``env()``
wraps ``raw_env`` as the classic games do: an illegal action ends the game with -1 for the
agent that took it. Installed with the ``rl`` extra.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..engine import IllegalMoveError, PatchworkError, Rules, State
from ..engine import kernels as K
from . import encoding as E
from . import missing_extra
from .render import RENDER_MODES, RGB, check_render_mode, render

try:
    from gymnasium import logger, spaces
    from gymnasium.utils import EzPickle, seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - depends on what is installed
    raise missing_extra("pettingzoo", "rl") from e

AGENTS = ("player_0", "player_1")
Observation = dict[str, np.ndarray]


def env(**kwargs: Any) -> AECEnv[str, Observation, int]:
    """The environment with PettingZoo's classic wrappers (illegal action: -1 and the end;
    out-of-range actions asserted; calls in the right order enforced)."""
    game: AECEnv[str, Observation, int] = raw_env(**kwargs)
    game = wrappers.TerminateIllegalWrapper(game, illegal_reward=-1)
    game = wrappers.AssertOutOfBoundsWrapper(game)
    game = wrappers.OrderEnforcingWrapper(game)
    return game


class raw_env(AECEnv[str, Observation, int], EzPickle):  # type: ignore[misc]
    """Two-player Patchwork as an AEC game (no wrappers: an illegal action raises).

    Parameters:
        rules: a ``patchwork.Rules`` (default: revised edition, turning and flipping).
        margin_shaping: each step also rewards both agents ``margin_shaping`` x the change
            of their score margin (zero-sum; the sum over a game is the final margin).
        render_mode: None, "ansi" or "rgb_array" (as the Gymnasium env's).

    ``reset`` options: ``circle`` (33 patch ids) or ``state`` (a ``patchwork.State``).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "patchwork_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        rules: Rules | None = None,
        margin_shaping: float = 0.0,
        render_mode: str | None = None,
    ) -> None:
        EzPickle.__init__(self, rules, margin_shaping, render_mode)
        super().__init__()
        check_render_mode(render_mode)
        self.rules = Rules() if rules is None else rules
        self.margin_shaping = float(margin_shaping)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.action_spaces = {a: spaces.Discrete(E.NUM_ACTIONS) for a in AGENTS}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(E.OBS_LOW, E.OBS_HIGH, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (E.NUM_ACTIONS,), dtype=np.int8),
                }
            )
            for a in AGENTS
        }
        self._rng, _ = seeding.np_random(None)
        self._state: State | None = None
        self._mask = np.zeros(E.NUM_ACTIONS, dtype=np.int8)
        self._observed: list[E.F32 | None] = [None, None]

    @property
    def state(self) -> State:
        """The engine state now (immutable)."""
        if self._state is None:
            raise PatchworkError("call reset() first")
        return self._state

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng, _ = seeding.np_random(seed)
        options = options or {}
        state = E.start_state(options, self.rules, self._rng)
        self._state = state
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def observe(self, agent: str) -> Observation:
        p = AGENTS.index(agent)
        state = self.state
        # The wrappers observe the same state several times: encode it once per agent.
        cached = self._observed[p]
        if cached is None:
            cached = self._observed[p] = E.encode_observation(state, p)
        mask = (
            self._mask.copy()
            if agent == self.agent_selection and not state.is_terminal()
            else np.zeros(E.NUM_ACTIONS, dtype=np.int8)
        )
        return {"observation": cached.copy(), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        a = -1 if action is None else int(action)
        if not (0 <= a < E.NUM_ACTIONS and self._mask[a]):
            raise IllegalMoveError(
                f"{agent} chose action {action!r}, which is not in its action mask"
            )
        shaping = self.margin_shaping
        before = self._margin(state) if shaping else 0.0
        state = state.apply_code(E.action_to_code(state, a))
        self._state = state
        self._cumulative_rewards[agent] = 0.0
        shaped = shaping * (self._margin(state) - before) if shaping else 0.0
        self.rewards = {AGENTS[0]: shaped, AGENTS[1]: -shaped}
        if state.is_terminal():
            winner = AGENTS[state.winner() or 0]
            for a_ in self.agents:
                self.rewards[a_] += 1.0 if a_ == winner else -1.0
                self.infos[a_] = {"scores": state.scores(), "winner": state.winner()}
            self.terminations = dict.fromkeys(self.agents, True)
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | RGB | None:
        if self.render_mode is None:
            logger.warn("render() called without a render_mode; use render_mode='ansi'")
            return None
        return render(self.state, self.render_mode, AGENTS)

    def close(self) -> None:
        pass

    # -- helpers -----------------------------------------------------------------------------

    def _select(self) -> None:
        """Hand the turn to the player the time board says is to move."""
        state = self.state
        self._observed = [None, None]
        p = state.current_player
        if p is None:
            # Over: the agents leave one by one through _was_dead_step, player 0 first.
            self._mask[:] = 0
            self.agent_selection = self.agents[0]
        else:
            E.legal_action_mask(state, self._mask)
            self.agent_selection = AGENTS[p]

    @staticmethod
    def _margin(state: State) -> float:
        v = state.vector
        return float(K.score(v, 0) - K.score(v, 1))
