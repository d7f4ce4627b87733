"""An engine program as an agent: what lets tournaments and the CodinGame host seat one."""

from __future__ import annotations

from ..ai import Limit
from ..engine import Move, State
from .client import DEFAULT_TIMEOUT, READY_TIMEOUT, Engine, EngineError

PREFIX = "cmd:"
# Seconds an engine's answer may arrive after the time it was given (pipes, a busy machine):
# a move for ``Limit(time=0.1)`` may take 0.2 s, no more.
TIME_MARGIN = 0.1


class EngineTimeError(EngineError):
    """The engine answered, but later than its time and the margin allowed."""


def is_engine_player(name: str) -> bool:
    """Whether a player name stands for an engine program (``cmd:COMMAND``)."""
    return name.startswith(PREFIX)


class EngineAgent:
    """Plays a seat by asking an engine program (started on first use) for its moves.

    Every game, the first included, begins with ``newgame`` (and the engine's Seed option
    when it has one), so one program serves a whole series of games; ``close()`` ends it.
    With a time limit, an answer that arrives more than ``time_margin`` seconds late raises
    EngineTimeError (the program is kept); a program that fails otherwise is stopped by the
    client and started afresh on next use.
    """

    def __init__(
        self,
        command: str,
        seed: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        ready_timeout: float = READY_TIMEOUT,
        time_margin: float = TIME_MARGIN,
    ) -> None:
        self.command = command
        self.time_margin = time_margin
        self.name = f"{PREFIX}{command}"
        self._seed = seed
        self._timeouts = (timeout, ready_timeout)
        self._engine: Engine | None = None

    @classmethod
    def from_name(cls, name: str, seed: int | None = None) -> EngineAgent:
        """The agent for a ``cmd:COMMAND`` player name."""
        return cls(name[len(PREFIX) :].strip(), seed=seed)

    def start(self) -> Engine:
        """The program, started if it is not running (handshake, isready, a new game)."""
        if self._engine is None:
            timeout, ready = self._timeouts
            self._engine = Engine.popen(self.command, timeout=timeout, ready_timeout=ready)
            self._new_game(self._engine)
        return self._engine

    def _new_game(self, engine: Engine) -> None:
        engine.new_game()
        if self._seed is not None and "seed" in engine.options:
            spec = engine.options["seed"]
            high = spec.max if spec.max is not None else 2**31 - 1
            engine.set_option("Seed", self._seed % (high + 1))

    def reseed(self, seed: int) -> None:
        self._seed = seed
        if self._engine is not None:
            self._new_game(self._engine)

    def choose(self, state: State, limit: Limit | float | None = None) -> Move:
        engine = self.start()  # its start-up is paid for before the clock runs
        try:
            analysis = engine.analyse(state, limit)
        except EngineError:
            self._engine = None  # the client has stopped it: a fresh one next time
            raise
        allowed = Limit.of(limit, Limit()).time
        if allowed is not None and analysis.answered_after > allowed + self.time_margin:
            raise EngineTimeError(
                f"engine {engine.name!r} answered after {analysis.answered_after:.3f} s, "
                f"over its {allowed:g} s and the {self.time_margin:g} s margin"
            )
        return analysis.best_move

    def close(self) -> None:
        engine, self._engine = self._engine, None
        if engine is not None:
            engine.quit()
