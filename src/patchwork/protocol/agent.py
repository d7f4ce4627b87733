"""An engine program as an agent: what lets tournaments and the CodinGame host seat one."""

from __future__ import annotations

from ..ai import Limit
from ..engine import Move, State
from .client import DEFAULT_TIMEOUT, READY_TIMEOUT, Engine

PREFIX = "cmd:"


def is_engine_player(name: str) -> bool:
    """Whether a player name stands for an engine program (``cmd:COMMAND``)."""
    return name.startswith(PREFIX)


class EngineAgent:
    """Plays a seat by asking an engine program (started on first use) for its moves.

    ``reseed(seed)`` starts a new game (and sets the engine's Seed option when it has one),
    so one program serves a whole series of games; ``close()`` ends it.
    """

    def __init__(
        self,
        command: str,
        seed: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        ready_timeout: float = READY_TIMEOUT,
    ) -> None:
        self.command = command
        self.name = f"{PREFIX}{command}"
        self._seed = seed
        self._timeouts = (timeout, ready_timeout)
        self._engine: Engine | None = None

    @classmethod
    def from_name(cls, name: str, seed: int | None = None) -> EngineAgent:
        """The agent for a ``cmd:COMMAND`` player name."""
        return cls(name[len(PREFIX) :].strip(), seed=seed)

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            timeout, ready = self._timeouts
            self._engine = Engine.popen(self.command, timeout=timeout, ready_timeout=ready)
            self._apply_seed()
        return self._engine

    def _apply_seed(self) -> None:
        engine = self._engine
        if engine is not None and self._seed is not None and "seed" in engine.options:
            spec = engine.options["seed"]
            high = spec.max if spec.max is not None else 2**31 - 1
            engine.set_option("Seed", self._seed % (high + 1))

    def reseed(self, seed: int) -> None:
        self._seed = seed
        if self._engine is not None:
            self._engine.new_game()
            self._apply_seed()

    def choose(self, state: State, limit: Limit | float | None = None) -> Move:
        return self.engine.play(state, limit)

    def close(self) -> None:
        engine, self._engine = self._engine, None
        if engine is not None:
            engine.quit()
