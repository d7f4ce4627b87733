"""``patchwork tournament``: agents play each other many times, and the numbers say who is better.

Every pair of players plays the same random circles twice, seats swapped, so neither the setup
nor the seat favours anyone. Circles depend only on the tournament seed and the setup number
(every pair sees the same ones), and each agent's seed only on the tournament seed, the game
number and the seat: a game's result does not depend on which process played it or in what
order, so ``--workers`` (or ``--ray``, a Ray cluster) changes the speed and nothing else.

An application over ``ai`` (the agents) and ``protocol`` (engine programs as players), in
modules by job: ``schedule`` (what is played), ``play`` (one game and its result),
``results`` and ``summary`` (what was played, and its statistics), ``files`` (JSON and CSV),
``run`` (the runner over a ``patchwork.parallel`` executor: progress, Ctrl-C), ``report``
(the tables) and ``cli`` (the command).
"""

from .cli import main
from .play import GameResult, build_agent, play_game
from .report import print_report, report
from .results import TournamentResult
from .run import TournamentError, run_tournament
from .schedule import GameSpec, derive_seed, schedule
from .summary import PairStats, PlayerStats, Summary

__all__ = [
    "GameResult",
    "GameSpec",
    "PairStats",
    "PlayerStats",
    "Summary",
    "TournamentError",
    "TournamentResult",
    "build_agent",
    "derive_seed",
    "main",
    "play_game",
    "print_report",
    "report",
    "run_tournament",
    "schedule",
]
