"""What a tournament played: each finished game, and the games so far with their settings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..ai import Limit
from ..engine import Rules
from . import files
from .schedule import GameSpec
from .summary import Summary, summarise


@dataclass(frozen=True)
class GameResult:
    """A finished game; ``winner``, ``scores``, ``seconds`` and ``moves_made`` are by seat."""

    spec: GameSpec
    moves: tuple[str, ...]
    scores: tuple[int, int]
    winner: int
    seconds: tuple[float, float]
    moves_made: tuple[int, int]

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
        }


def _labels(agents: Sequence[str]) -> list[str]:
    """Display names, numbered where the same agent plays more than once."""
    out: list[str] = []
    for i, name in enumerate(agents):
        if agents.count(name) > 1:
            out.append(f"{name}#{agents[: i + 1].count(name)}")
        else:
            out.append(name)
    return out


@dataclass
class TournamentResult:
    """The games played so far and how they were set up; ``summary()`` gives the statistics."""

    agents: list[str]
    games_per_pair: int
    limit: Limit | None
    workers: int
    seed: int
    rules: Rules
    planned: int
    games: list[GameResult] = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0

    @property
    def labels(self) -> list[str]:
        return _labels(self.agents)

    def wins(self) -> list[int]:
        out = [0] * len(self.agents)
        for g in self.games:
            out[g.winner_player] += 1
        return out

    def summary(self) -> Summary:
        """Win rates, Elo and margins of the games so far."""
        return summarise(self)

    def settings(self) -> dict[str, Any]:
        limit = self.limit
        return {
            "players": self.labels,
            "agents": list(self.agents),
            "games_per_pair": self.games_per_pair,
            "limit": None
            if limit is None
            else {"time": limit.time, "iterations": limit.iterations},
            "workers": self.workers,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "planned_games": self.planned,
            "completed_games": len(self.games),
            "interrupted": self.interrupted,
            "seconds": round(self.seconds, 3),
        }

    def to_dict(self) -> dict[str, Any]:
        """The JSON document: {format, version, settings, summary, games}."""
        return files.to_dict(self)

    def write(self, path: str | Path) -> None:
        """Write JSON ({settings, summary, games}) or CSV (one row per game) by the suffix."""
        files.write(self, path)
