"""The statistics of a tournament: win rates, Elo and score margins, with 95% intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

from ..ai import stats
from .schedule import player_labels

if TYPE_CHECKING:
    from .play import GameResult

BOOTSTRAP_SAMPLES = 200


@dataclass(frozen=True)
class PlayerStats:
    label: str
    agent: str
    games: int
    wins: int
    win_rate: float
    win_interval: tuple[float, float]
    elo: float
    elo_interval: tuple[float, float]
    mean_margin: float
    margin_halfwidth: float
    seconds_per_move: float
    forfeits: int  # games lost by failing (a crash, an illegal move, a late answer)


@dataclass(frozen=True)
class PairStats:
    """Head to head, from the first player of the pair's side."""

    players: tuple[str, str]
    games: int
    wins: tuple[int, int]
    win_rate: float
    win_interval: tuple[float, float]
    mean_margin: float
    margin_halfwidth: float


@dataclass(frozen=True)
class Summary:
    players: list[PlayerStats]
    pairs: list[PairStats]
    first_mover_games: int
    first_mover_wins: int
    first_mover_rate: float
    first_mover_interval: tuple[float, float]
    elo_anchor: str
    elo_method: str  # "score", "bradley-terry", or "bradley-terry+prior" after a clean sweep

    def to_dict(self) -> dict[str, Any]:
        def rate(wins: int, games: int, interval: tuple[float, float]) -> dict[str, Any]:
            return {"wins": wins, "games": games, "rate": _rate(wins, games), "ci95": interval}

        return {
            "players": [
                {
                    "name": p.label,
                    "agent": p.agent,
                    "games": p.games,
                    "wins": p.wins,
                    "win_rate": p.win_rate,
                    "win_ci95": list(p.win_interval),
                    "elo": p.elo,
                    "elo_ci95": list(p.elo_interval),
                    "mean_margin": p.mean_margin,
                    "margin_ci95_halfwidth": p.margin_halfwidth,
                    "seconds_per_move": p.seconds_per_move,
                    "forfeits": p.forfeits,
                }
                for p in self.players
            ],
            "pairs": [
                {
                    "players": list(p.players),
                    "games": p.games,
                    "wins": list(p.wins),
                    "win_rate": p.win_rate,
                    "win_ci95": list(p.win_interval),
                    "mean_margin": p.mean_margin,
                    "margin_ci95_halfwidth": p.margin_halfwidth,
                }
                for p in self.pairs
            ],
            "first_mover": rate(
                self.first_mover_wins, self.first_mover_games, self.first_mover_interval
            ),
            "elo_anchor": self.elo_anchor,
            "elo_method": self.elo_method,
        }


def _rate(wins: int, games: int) -> float:
    return wins / games if games else math.nan


def wins(players: int, games: Sequence[GameResult]) -> list[int]:
    """Games won by each of ``players`` players."""
    out = [0] * players
    for g in games:
        out[g.winner_player] += 1
    return out


def _margins(player: int, games: Sequence[GameResult]) -> tuple[float, float]:
    """Mean margin and its 95% half-width; a forfeited game, stopped midway, has none."""
    return stats.mean_interval([float(g.margin(player)) for g in games if g.forfeit is None])


def summarise(agents: Sequence[str], games: Sequence[GameResult], seed: int) -> Summary:
    """Win rates (Wilson intervals), Elo (from the score for two players, a Bradley-Terry fit
    with bootstrap intervals for more) and mean margins of the games played so far; a
    forfeited game counts as a loss for the player who failed."""
    k = len(agents)
    labels = player_labels(agents)
    played = [[g for g in games if p in g.spec.seats] for p in range(k)]
    won = wins(k, games)
    outcomes = [(g.winner_player, g.loser_player) for g in games]
    if k == 2:
        n = len(games)
        elo = [0.0, stats.elo_from_score(won[1] / n) if n else math.nan]
        elo_ci = [(0.0, 0.0), stats.elo_interval(won[1], n) if n else (math.nan, math.nan)]
        method = "score"
    else:
        matrix = stats.win_matrix(outcomes, k)
        method = "bradley-terry" if stats.has_mle(matrix) else "bradley-terry+prior"
        elo = stats.fit_elo(matrix, anchor=0)
        elo_ci = stats.bootstrap_elo_intervals(
            outcomes, k, samples=BOOTSTRAP_SAMPLES, seed=seed, anchor=0
        )
    players = []
    for p in range(k):
        gs = played[p]
        mean, half = _margins(p, gs)
        secs = sum(g.seconds[g.spec.seats.index(p)] for g in gs)
        made = sum(g.moves_made[g.spec.seats.index(p)] for g in gs)
        players.append(
            PlayerStats(
                label=labels[p],
                agent=agents[p],
                games=len(gs),
                wins=won[p],
                win_rate=_rate(won[p], len(gs)),
                win_interval=stats.wilson_interval(won[p], len(gs)),
                elo=elo[p],
                elo_interval=elo_ci[p],
                mean_margin=mean,
                margin_halfwidth=half,
                seconds_per_move=secs / made if made else math.nan,
                forfeits=sum(1 for g in gs if g.forfeit is not None and g.loser_player == p),
            )
        )
    pairs = []
    for i, j in combinations(range(k), 2):
        gs = [g for g in games if g.spec.pair == (i, j)]
        wi = sum(1 for g in gs if g.winner_player == i)
        mean, half = _margins(i, gs)
        pairs.append(
            PairStats(
                players=(labels[i], labels[j]),
                games=len(gs),
                wins=(wi, len(gs) - wi),
                win_rate=_rate(wi, len(gs)),
                win_interval=stats.wilson_interval(wi, len(gs)),
                mean_margin=mean,
                margin_halfwidth=half,
            )
        )
    n = len(games)
    first = sum(1 for g in games if g.winner == 0)
    return Summary(
        players=players,
        pairs=pairs,
        first_mover_games=n,
        first_mover_wins=first,
        first_mover_rate=_rate(first, n),
        first_mover_interval=stats.wilson_interval(first, n),
        elo_anchor=labels[0],
        elo_method=method,
    )
