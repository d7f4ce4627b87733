"""What a tournament has played so far and how it was set up, with its statistics and its
JSON and CSV forms."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..ai import Limit
from ..engine import Rules
from . import files
from .files import check_out_path
from .play import GameResult
from .schedule import player_labels
from .summary import Summary, summarise, wins


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
    stop_on_fault: bool = False
    games: list[GameResult] = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0

    @property
    def labels(self) -> list[str]:
        return player_labels(self.agents)

    def wins(self) -> list[int]:
        """Games won by each player."""
        return wins(len(self.agents), self.games)

    def summary(self) -> Summary:
        """Win rates, Elo and margins of the games so far."""
        return summarise(self.agents, self.games, self.seed)

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
            "stop_on_fault": self.stop_on_fault,
            "planned_games": self.planned,
            "completed_games": len(self.games),
            "interrupted": self.interrupted,
            "seconds": round(self.seconds, 3),
        }

    def to_dict(self) -> dict[str, Any]:
        """The JSON document: {format, version, settings, summary, games}."""
        labels = self.labels
        out: dict[str, Any] = files.finite(
            {
                "format": files.FORMAT,
                "version": files.VERSION,
                "settings": self.settings(),
                "summary": self.summary().to_dict(),
                "games": [g.to_dict(labels) for g in self.games],
            }
        )
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, allow_nan=False)

    def csv_rows(self) -> list[dict[str, Any]]:
        """One row per game, for the CSV file."""
        labels = self.labels
        rows = []
        for g in self.games:
            s = g.spec
            rows.append(
                {
                    "index": s.index,
                    "setup": s.setup,
                    "player0": labels[s.seats[0]],
                    "player1": labels[s.seats[1]],
                    "circle_seed": s.circle_seed,
                    "score0": g.scores[0],
                    "score1": g.scores[1],
                    "winner": g.winner,
                    "winner_name": labels[g.winner_player],
                    "plies": g.plies,
                    "seconds0": round(g.seconds[0], 4),
                    "seconds1": round(g.seconds[1], 4),
                    "agent_seed0": s.agent_seeds[0],
                    "agent_seed1": s.agent_seeds[1],
                    "circle": " ".join(str(x) for x in s.circle),
                    "moves": " ".join(g.moves),
                    "forfeit": g.forfeit or "",
                }
            )
        return rows

    def write(self, path: str | Path) -> None:
        """Write JSON ({settings, summary, games}) or CSV (one row per game) by the suffix."""
        p = Path(path)
        check_out_path(p)
        if p.suffix.lower() == ".json":
            files.write_text(p, self.to_json() + "\n")
        else:
            files.write_csv(p, self.csv_rows())
