"""Playing one game of a tournament, in this process or in a worker process.

Agents are built by name in the process that plays them; an agent that can be reseeded is
kept for the process's next games, any other is built for one game and closed after it. An
agent that fails (raises, answers an illegal move, or, as an engine program, answers late)
forfeits the game, as in cutechess, unless the tournament stops at the first fault.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..ai import Agent, Limit, get_agent
from ..ai.registry import parse_spec
from ..engine import Game, PatchworkError, new_game
from ..engine.play import Played, Seat, play_out
from ..parallel import StopFlag
from ..protocol.agent import EngineAgent
from .schedule import GameSpec


@dataclass(frozen=True)
class GameResult:
    """A finished game; ``winner``, ``scores``, ``seconds`` and ``moves_made`` are by seat.
    ``forfeit`` says why the loser failed, in a game that ended there (``scores`` are then
    the position's)."""

    spec: GameSpec
    moves: tuple[str, ...]
    scores: tuple[int, int]
    winner: int
    seconds: tuple[float, float]
    moves_made: tuple[int, int]
    forfeit: str | None = None

    @property
    def plies(self) -> int:
        return len(self.moves)

    @property
    def winner_player(self) -> int:
        return self.spec.seats[self.winner]

    @property
    def loser_player(self) -> int:
        return self.spec.seats[1 - self.winner]

    def margin(self, player: int) -> int:
        """``player``'s score minus the opponent's."""
        seat = self.spec.seats.index(player)
        return self.scores[seat] - self.scores[1 - seat]

    def to_dict(self, labels: Sequence[str]) -> dict[str, Any]:
        s = self.spec
        return {
            "index": s.index,
            "setup": s.setup,
            "pair": [labels[s.pair[0]], labels[s.pair[1]]],
            "players": [labels[s.seats[0]], labels[s.seats[1]]],
            "agents": list(s.agents),
            "agent_seeds": list(s.agent_seeds),
            "circle_seed": s.circle_seed,
            "circle": list(s.circle),
            "first_player": 0,
            "moves": list(self.moves),
            "scores": list(self.scores),
            "winner": self.winner,
            "winner_name": labels[self.winner_player],
            "plies": self.plies,
            "moves_made": list(self.moves_made),
            "seconds": [round(x, 4) for x in self.seconds],
            "forfeit": self.forfeit,
        }


# Reseedable agents of this process by (player index, name), reused across games.
_agents: dict[tuple[int, str], Agent] = {}
# Set by the run on Ctrl-C: worker processes give up their game at the next move.
_stop: StopFlag | None = None


def close_agent(agent: object) -> None:
    close = getattr(agent, "close", None)
    if callable(close):
        close()


def close_agents() -> None:
    while _agents:
        close_agent(_agents.popitem()[1])


def _reseedable(agent: object) -> bool:
    return callable(getattr(agent, "reseed", None))


EXTERNAL_PREFIX = "cmd:"
PYTHON_PREFIX = "py:"


def build_agent(name: str, seed: int | None = None) -> Agent:
    """An agent by name; ``cmd:COMMAND`` is a program speaking the engine protocol
    (docs/protocol.md), started in the process that plays it (on its first move), reseeded
    for each game and closed with the process's other agents; ``py:MODULE:FACTORY`` is
    ``FACTORY(seed=..., **settings)`` from a Python module."""
    if name.startswith(EXTERNAL_PREFIX):
        return EngineAgent.from_name(name, seed=seed)
    if name.startswith(PYTHON_PREFIX):
        return _python_agent(name, seed)
    return get_agent(name, seed=seed)


def _python_agent(name: str, seed: int | None) -> Agent:
    """``py:MODULE:FACTORY[@settings]``: an agent that is no part of the package (the frozen
    baseline of benchmarks/, a bot of one's own), imported from the current directory or the
    Python path, with the named agents' ``@key=value`` settings and any others of its own."""
    target, options = parse_spec(name[len(PYTHON_PREFIX) :], open_keys=True)
    module_name, colon, factory_name = target.strip().rpartition(":")
    if not colon or not module_name or not factory_name:
        raise PatchworkError(f"bad agent {name!r}: write py:MODULE:FACTORY, e.g. py:mybot:agent")
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise PatchworkError(f"agent {name!r}: cannot import {module_name!r}: {e}") from None
    factory = getattr(module, factory_name, None)
    if not callable(factory):
        raise PatchworkError(f"agent {name!r}: {module_name} has no {factory_name}()")
    try:
        agent: Agent = factory(seed=seed, **options)
    except TypeError as e:
        raise PatchworkError(f"bad options for agent {name!r}: {e}") from None
    return agent


def _agent_for(player: int, name: str, seed: int) -> Agent:
    """The agent for a player, seeded for this game. An agent that offers ``reseed(seed)`` is
    kept in this process and reseeded for every game; any other is built for the game and
    closed after it, since reusing it would make a game depend on the games its process
    played before (and ``--workers`` would change the results)."""
    agent = _agents.get((player, name))
    if agent is not None:
        agent.reseed(seed)  # type: ignore[attr-defined]  # only reseedable agents are kept
        return agent
    agent = build_agent(name, seed=seed)
    if _reseedable(agent):
        _agents[(player, name)] = agent
    return agent


def worker_init(stop: StopFlag) -> None:
    """A worker process (or Ray actor) gives up its game at the next move once the run sets
    ``stop`` (on Ctrl-C); the executor ends it with ``close_agents``."""
    global _stop
    _stop = stop


def play_game(spec: GameSpec) -> GameResult | None:
    """Play one game; None when the tournament was stopped during it."""
    agents: list[Agent] = []
    try:
        for s in (0, 1):
            agents.append(_agent_for(spec.seats[s], spec.agents[s], spec.agent_seeds[s]))
        return _play(spec, agents)
    finally:
        for agent in agents:
            if not _reseedable(agent):
                close_agent(agent)


def _stopped(game: Game) -> bool:
    return _stop is not None and _stop.is_set()


def _seat(agent: Agent, limit: Limit | None) -> Seat:
    return lambda state: agent.choose(state, limit)


def _play(spec: GameSpec, agents: Sequence[Agent]) -> GameResult | None:
    game = Game(new_game(circle=spec.circle, rules=spec.rules, first_player=0))
    seconds = [0.0, 0.0]
    made = [0, 0]

    def count(played: Played) -> None:
        seconds[played.player] += played.seconds
        made[played.player] += 1

    forfeit = None
    try:
        seats = [_seat(agent, spec.limit) for agent in agents]
        if not play_out(game, seats, on_move=count, stop=_stopped):
            return None
        winner = game.state.winner()
    except Exception as e:  # the agent's own failure: it loses this game
        seat = game.state.current_player  # the failed move was not pushed
        assert seat is not None
        forfeit = str(e) if isinstance(e, PatchworkError) else f"{type(e).__name__}: {e}"
        if spec.stop_on_fault:
            raise PatchworkError(
                f"game {spec.index + 1}, move {len(game) + 1}: {spec.agents[seat]} "
                f"(seat {seat}) failed: {forfeit}"
            ) from None
        winner = 1 - seat
    assert winner is not None
    a, b = game.state.scores()
    return GameResult(
        spec=spec,
        moves=tuple(str(m) for m in game.moves),
        scores=(a, b),
        winner=winner,
        seconds=(seconds[0], seconds[1]),
        moves_made=(made[0], made[1]),
        forfeit=forfeit,
    )
