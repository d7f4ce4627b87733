"""A single-agent Gymnasium environment: you play one seat, an opponent the other.

    import gymnasium as gym
    import patchwork.envs.gymnasium  # registers "Patchwork-v0"
    env = gym.make("Patchwork-v0", opponent="greedy")
    # or, without the import: gym.make("patchwork.envs.gymnasium:Patchwork-v0")

Actions are the ids of :mod:`patchwork.envs.encoding` (``Discrete(2026)``); ``info`` carries
the legality mask and ``action_masks()`` returns it for masked policies (sb3-contrib's
MaskablePPO finds it by that name). The opponent is an agent of ours by name (``"random"``,
``"greedy"``, ``"level3"``...), any object with ``choose(state) -> Move``, a callable
``f(state) -> Move | action id``, or ``"self"`` for self-play (the env then stops at every
turn of either player and observes for the player to move). Installed with the ``rl`` extra.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, SupportsFloat

import numpy as np

from ..engine import IllegalMoveError, Move, PatchworkError, Rules, State
from ..engine import kernels as K
from . import encoding as E
from . import missing_extra
from .render import RENDER_MODES, RGB, check_render_mode, render

try:
    import gymnasium as gym
    from gymnasium import spaces
except ImportError as e:  # pragma: no cover - depends on what is installed
    raise missing_extra("gymnasium", "rl") from e

ENV_ID = "Patchwork-v0"
SELF_PLAY = "self"

Opponent = Callable[[State], Move | int]


def _as_opponent(opponent: object, seed: int | None, options: dict[str, Any]) -> object:
    if isinstance(opponent, str):
        if opponent == SELF_PLAY:
            return None
        from ..ai import get_agent

        return get_agent(opponent, seed=seed, **options)
    if opponent is None or hasattr(opponent, "choose") or callable(opponent):
        return opponent
    raise PatchworkError(
        f"opponent must be an agent name, an agent, a callable or {SELF_PLAY!r}, not {opponent!r}"
    )


class PatchworkEnv(gym.Env[E.F32, np.int64]):
    """Two-player Patchwork as a single-agent environment.

    Parameters:
        opponent: an agent name of ``patchwork.ai`` (built with a seed drawn from the env's
            random generator at every seeded reset), an object with ``choose(state)``, a
            callable ``f(state) -> Move | action id``, or ``"self"``/None for self-play.
        agent_player: the seat you play (0 moves first), or None for a random seat each
            episode.
        rules: a ``patchwork.Rules``; the default is the revised edition, turning and
            flipping allowed.
        margin_shaping: adds ``margin_shaping`` x the change of your score margin (your
            score minus the opponent's, the engine's ``scores()``) to each reward, so that
            an episode's rewards sum to +-1 + margin_shaping x the final margin (minus the
            margin at your first observation, which is 0 unless the opponent moved first).
        illegal_action: "lose" (an id outside the mask ends the episode, reward -1,
            ``info["illegal_action"] = True``) or "raise" (IllegalMoveError).
        opponent_options: more keyword arguments for ``get_agent`` (e.g. ``iterations``).
        render_mode: None, "ansi" (``render()`` returns both quilt boards as text) or
            "rgb_array" (a picture of the position, an HxWx3 uint8 array).

    Observation: the float32 vector of :func:`encoding.encode_observation`, seen by the
    seat you play (in self-play, by the player to move). Reward: +1 for a win, -1 for a
    loss at the end (the tie-break decides equal scores), plus the shaping. ``reset``
    options: ``circle`` (33 patch ids), ``agent_player``, ``state`` (start from a
    ``patchwork.State``).
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        opponent: str | Opponent | object | None = "random",
        *,
        agent_player: int | None = None,
        rules: Rules | None = None,
        margin_shaping: float = 0.0,
        illegal_action: str = "lose",
        opponent_options: dict[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        if agent_player not in (None, 0, 1):
            raise PatchworkError(f"agent_player must be 0, 1 or None, not {agent_player!r}")
        if illegal_action not in ("lose", "raise"):
            raise PatchworkError(
                f"illegal_action must be 'lose' or 'raise', not {illegal_action!r}"
            )
        check_render_mode(render_mode)
        self.rules = Rules() if rules is None else rules
        self.agent_player = agent_player
        self.margin_shaping = float(margin_shaping)
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self._opponent_spec = SELF_PLAY if opponent is None else opponent
        self._opponent_options = dict(opponent_options or {})
        self._opponent: object = _as_opponent(self._opponent_spec, None, self._opponent_options)
        self.self_play = self._opponent is None
        self.action_space = spaces.Discrete(E.NUM_ACTIONS)
        self.observation_space = spaces.Box(E.OBS_LOW, E.OBS_HIGH, dtype=np.float32)
        self._state: State | None = None
        self._seat = 0
        self._mask = np.zeros(E.NUM_ACTIONS, dtype=np.int8)
        self._margin = 0
        self._done = False

    # -- the game ----------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The engine state now (immutable)."""
        if self._state is None:
            raise PatchworkError("call reset() first")
        return self._state

    @property
    def player(self) -> int:
        """The seat being observed: yours, or in self-play the player to move."""
        return self._seat

    def action_masks(self) -> E.I8:
        """The legality mask of the observation just returned (all zeros once it is over)."""
        return self._mask.copy()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[E.F32, dict[str, Any]]:
        super().reset(seed=seed)
        options = dict(options or {})
        if seed is not None and isinstance(self._opponent_spec, str):
            self._close_opponent()
            agent_seed = int(self.np_random.integers(2**31))
            self._opponent = _as_opponent(self._opponent_spec, agent_seed, self._opponent_options)
        seat = options.get("agent_player", self.agent_player)
        if seat is None:
            seat = int(self.np_random.integers(2))
        if seat not in (0, 1):
            raise PatchworkError(f"agent_player must be 0 or 1, not {seat!r}")
        state = E.start_state(options, self.rules, self.np_random)
        self._seat = int(seat)
        self._done = False
        self._state = state
        if not self.self_play:
            self._play_opponent()
        self._seat = self._observed_seat()
        self._margin = self._margin_of(self._seat)
        return self._observe(), self._info()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[E.F32, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._state is None or self._done:
            raise PatchworkError("the episode is over: call reset()")
        a = int(action)
        mover = self._seat
        if not (0 <= a < E.NUM_ACTIONS and self._mask[a]):
            if self.illegal_action == "raise":
                named = E.action_to_string(self._state, a) if 0 <= a < E.NUM_ACTIONS else "none"
                raise IllegalMoveError(f"action {a} (move {named}) is not in the legality mask")
            self._done = True
            self._mask[:] = 0
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), -1.0, True, False, info
        self._state = self._state.apply_code(E.action_to_code(self._state, a))
        if not self.self_play:
            self._play_opponent()
        margin = self._margin_of(mover)
        reward = self.margin_shaping * (margin - self._margin)
        terminated = self._state.is_terminal()
        if terminated:
            self._done = True
            reward += 1.0 if self._state.winner() == mover else -1.0
        else:
            self._seat = self._observed_seat()
            margin = self._margin_of(self._seat)
        self._margin = margin
        return self._observe(), float(reward), terminated, False, self._info()

    def render(self) -> str | RGB | None:
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; use render_mode='ansi'")
            return None
        names = ["opponent", "opponent"] if not self.self_play else ["player 0", "player 1"]
        if not self.self_play:
            names[self._seat] = "you"
        names = [f"{name} ({p})" for p, name in enumerate(names)]
        return render(self.state, self.render_mode, (names[0], names[1]))

    def close(self) -> None:
        self._close_opponent()
        super().close()

    # -- helpers -----------------------------------------------------------------------------

    def _observed_seat(self) -> int:
        assert self._state is not None
        if self.self_play:
            p = self._state.current_player
            return self._seat if p is None else p
        return self._seat

    def _margin_of(self, player: int) -> int:
        assert self._state is not None
        if not self.margin_shaping:
            return 0
        v = self._state.vector
        return int(K.score(v, player)) - int(K.score(v, 1 - player))

    def _observe(self) -> E.F32:
        assert self._state is not None
        if self._done:
            self._mask[:] = 0
        else:
            E.legal_action_mask(self._state, self._mask)
        return E.encode_observation(self._state, self._seat)

    def _info(self) -> dict[str, Any]:
        assert self._state is not None
        info: dict[str, Any] = {"action_mask": self._mask.copy(), "player": self._seat}
        if self._state.is_terminal():
            info["scores"] = self._state.scores()
            info["winner"] = self._state.winner()
        return info

    def _play_opponent(self) -> None:
        """Let the opponent move until it is your turn or the game is over."""
        assert self._state is not None
        state = self._state
        while not state.is_terminal() and state.current_player != self._seat:
            state = state.apply_code(self._opponent_code(state))
        self._state = state

    def _opponent_code(self, state: State) -> int:
        opponent = self._opponent
        choose = getattr(opponent, "choose", None)
        answer = choose(state) if choose is not None else opponent(state)  # type: ignore[operator]
        if isinstance(answer, Move):
            return state.check_legal(answer)
        if isinstance(answer, int | np.integer) and E.is_legal_action(state, int(answer)):
            return E.action_to_code(state, int(answer))
        raise IllegalMoveError(f"the opponent answered {answer!r}, which is not legal here")

    def _close_opponent(self) -> None:
        close = getattr(self._opponent, "close", None)
        if callable(close):
            close()


def make_env(**kwargs: Any) -> PatchworkEnv:
    """``PatchworkEnv(**kwargs)``: for vectorised-env helpers that want a factory."""
    return PatchworkEnv(**kwargs)


def _register() -> None:
    if ENV_ID not in gym.registry:
        gym.register(id=ENV_ID, entry_point="patchwork.envs.gymnasium:PatchworkEnv")


_register()

__all__: Sequence[str] = ("ENV_ID", "PatchworkEnv", "make_env")
