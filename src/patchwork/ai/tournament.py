"""``patchwork tournament``: agents play each other many times, and the numbers say who is better.

Every pair of players plays the same random circles twice, seats swapped, so neither the setup
nor the seat favours anyone. Circles depend only on the tournament seed and the setup number
(every pair sees the same ones), and each agent's seed only on the tournament seed, the game
number and the seat: a game's result does not depend on which process played it or in what
order, so ``--workers`` changes the speed and nothing else.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import math
import multiprocessing
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import combinations
from multiprocessing import util as mp_util
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from ..engine import Game, PatchworkError, Rules, new_game, standard_circle
from ..engine.data import EDITIONS
from . import stats
from .agents import Agent
from .limit import Limit
from .registry import agent_names, get_agent

FORMAT = "patchwork-tournament"
VERSION = 1
BOOTSTRAP_SAMPLES = 200
OUT_SUFFIXES = (".json", ".csv")


class TournamentError(PatchworkError):
    """A game could not be played (an agent failed) or the results could not be written;
    ``result`` holds the games finished before it happened."""

    def __init__(self, message: str, result: TournamentResult | None = None) -> None:
        super().__init__(message)
        self.result = result


# -- what is played ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GameSpec:
    """One game to play: everything a worker process needs, and nothing it must remember."""

    index: int
    setup: int
    pair: tuple[int, int]  # player indices, in the order given
    seats: tuple[int, int]  # player index in seat 0 (moves first) and seat 1
    agents: tuple[str, str]  # agent names in seat 0 and seat 1
    circle_seed: int
    circle: tuple[int, ...]
    agent_seeds: tuple[int, int]
    rules: Rules
    limit: Limit | None


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


def derive_seed(*parts: object) -> int:
    """A stable 32-bit seed from the tournament seed and a game's coordinates (unlike
    ``hash``, the same in every process and on every run)."""
    text = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=4).digest(), "big")


def schedule(
    agents: Sequence[str], games: int, seed: int, rules: Rules, limit: Limit | None
) -> list[GameSpec]:
    """The games of a round robin, setup by setup, so a stopped tournament is still balanced:
    for every setup each pair plays the circle twice, seats swapped. ``games`` (per pair)
    must be even."""
    specs: list[GameSpec] = []
    pairs = list(combinations(range(len(agents)), 2))
    for setup in range(games // 2):
        circle_seed = derive_seed(seed, "circle", setup)
        circle = tuple(standard_circle(circle_seed))
        for pair in pairs:
            for seats in (pair, pair[::-1]):
                index = len(specs)
                specs.append(
                    GameSpec(
                        index=index,
                        setup=setup,
                        pair=pair,
                        seats=seats,
                        agents=(agents[seats[0]], agents[seats[1]]),
                        circle_seed=circle_seed,
                        circle=circle,
                        agent_seeds=(
                            derive_seed(seed, "agent", index, 0),
                            derive_seed(seed, "agent", index, 1),
                        ),
                        rules=rules,
                        limit=limit,
                    )
                )
    return specs


# -- playing (in this process, or in a worker process) ----------------------------------------

# Reseedable agents of this process by (player index, name), reused across games.
_agents: dict[tuple[int, str], Agent] = {}
# Set by the parent on Ctrl-C: worker processes give up their game at the next move.
_stop: Event | None = None


def _close(agent: object) -> None:
    close = getattr(agent, "close", None)
    if callable(close):
        close()


def _close_agents() -> None:
    while _agents:
        _close(_agents.popitem()[1])


def _reseedable(agent: object) -> bool:
    return callable(getattr(agent, "reseed", None))


EXTERNAL_PREFIX = "cmd:"


def build_agent(name: str, seed: int | None = None) -> Agent:
    """An agent by name; ``cmd:COMMAND`` is a program speaking the engine protocol
    (docs/protocol.md), started in the process that plays it (on its first move), reseeded
    for each game and closed with the process's other agents."""
    if name.startswith(EXTERNAL_PREFIX):
        # The protocol layer sits above this one: imported only when such a player is named.
        from ..protocol.agent import EngineAgent

        return EngineAgent.from_name(name, seed=seed)
    return get_agent(name, seed=seed)


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


def _worker_init(stop: Event) -> None:
    """Worker processes ignore Ctrl-C (the parent handles it and sets ``stop``) and close
    their agents when the pool shuts them down."""
    global _stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _stop = stop
    # Finalizers run when a multiprocessing child exits (atexit handlers do not), before it
    # waits for its own children such as an MCTS agent's pool; priority 100 runs this before
    # the queues' own finalizers (10), which would strand that pool's shutdown.
    mp_util.Finalize(None, _close_agents, exitpriority=100)


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
                _close(agent)


def _play(spec: GameSpec, agents: Sequence[Agent]) -> GameResult | None:
    game = Game(new_game(circle=spec.circle, rules=spec.rules, first_player=0))
    seconds = [0.0, 0.0]
    made = [0, 0]
    while not game.state.is_terminal():
        if _stop is not None and _stop.is_set():
            return None
        seat = game.state.current_player
        assert seat is not None
        start = time.perf_counter()
        try:
            game.push(agents[seat].choose(game.state, spec.limit))
        except PatchworkError as e:
            raise PatchworkError(
                f"game {spec.index + 1}, move {len(game) + 1}: {spec.agents[seat]} "
                f"(seat {seat}) failed: {e}"
            ) from None
        seconds[seat] += time.perf_counter() - start
        made[seat] += 1
    winner = game.state.winner()
    assert winner is not None
    a, b = game.state.scores()
    return GameResult(
        spec=spec,
        moves=tuple(str(m) for m in game.moves),
        scores=(a, b),
        winner=winner,
        seconds=(seconds[0], seconds[1]),
        moves_made=(made[0], made[1]),
    )


# -- results ----------------------------------------------------------------------------------


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
        k = len(self.agents)
        labels = self.labels
        played = [[g for g in self.games if p in g.spec.seats] for p in range(k)]
        wins = self.wins()
        outcomes = [(g.winner_player, g.loser_player) for g in self.games]
        if k == 2:
            n = len(self.games)
            elo = [0.0, stats.elo_from_score(wins[1] / n) if n else math.nan]
            elo_ci = [(0.0, 0.0), stats.elo_interval(wins[1], n) if n else (math.nan, math.nan)]
            method = "score"
        else:
            matrix = stats.win_matrix(outcomes, k)
            method = "bradley-terry" if stats.has_mle(matrix) else "bradley-terry+prior"
            elo = stats.fit_elo(matrix, anchor=0)
            elo_ci = stats.bootstrap_elo_intervals(
                outcomes, k, samples=BOOTSTRAP_SAMPLES, seed=self.seed, anchor=0
            )
        players = []
        for p in range(k):
            gs = played[p]
            mean, half = stats.mean_interval([float(g.margin(p)) for g in gs])
            secs = sum(g.seconds[g.spec.seats.index(p)] for g in gs)
            made = sum(g.moves_made[g.spec.seats.index(p)] for g in gs)
            players.append(
                PlayerStats(
                    label=labels[p],
                    agent=self.agents[p],
                    games=len(gs),
                    wins=wins[p],
                    win_rate=_rate(wins[p], len(gs)),
                    win_interval=stats.wilson_interval(wins[p], len(gs)),
                    elo=elo[p],
                    elo_interval=elo_ci[p],
                    mean_margin=mean,
                    margin_halfwidth=half,
                    seconds_per_move=secs / made if made else math.nan,
                )
            )
        pairs = []
        for i, j in combinations(range(k), 2):
            gs = [g for g in self.games if g.spec.pair == (i, j)]
            wi = sum(1 for g in gs if g.winner_player == i)
            mean, half = stats.mean_interval([float(g.margin(i)) for g in gs])
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
        n = len(self.games)
        first = sum(1 for g in self.games if g.winner == 0)
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
        labels = self.labels
        out: dict[str, Any] = _finite(
            {
                "format": FORMAT,
                "version": VERSION,
                "settings": self.settings(),
                "summary": self.summary().to_dict(),
                "games": [g.to_dict(labels) for g in self.games],
            }
        )
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, allow_nan=False)

    def csv_rows(self) -> list[dict[str, Any]]:
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
                }
            )
        return rows

    def write(self, path: str | Path) -> None:
        """Write JSON ({settings, summary, games}) or CSV (one row per game) by the suffix."""
        p = Path(path)
        check_out_path(p)
        try:
            if p.suffix.lower() == ".json":
                p.write_text(self.to_json() + "\n", "utf-8")
            else:
                rows = self.csv_rows()
                with p.open("w", newline="", encoding="utf-8") as f:
                    writer = csv.DictWriter(f, fieldnames=_CSV_FIELDS)
                    writer.writeheader()
                    writer.writerows(rows)
        except OSError as e:
            raise PatchworkError(f"cannot write {p}: {e.strerror or e}") from None


_CSV_FIELDS = ("index", "setup", "player0", "player1", "circle_seed", "score0", "score1", "winner",
               "winner_name", "plies", "seconds0", "seconds1", "agent_seed0", "agent_seed1",
               "circle", "moves")  # fmt: skip


def _finite(x: Any) -> Any:
    """JSON has no infinities or NaN: an unbounded or missing value becomes null."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_finite(v) for v in x]
    return x


def check_out_path(path: str | Path) -> None:
    """Refuse an output path before hours of games are played, not after."""
    p = Path(path)
    if p.suffix.lower() not in OUT_SUFFIXES:
        raise PatchworkError(f"the output file must end in .json or .csv, not {str(p)!r}")
    if p.is_dir():
        raise PatchworkError(f"{str(p)!r} is a folder, not a file")
    parent = p.parent
    if not parent.is_dir():
        raise PatchworkError(f"cannot write {str(p)!r}: folder {str(parent)!r} does not exist")
    try:
        # Opening for append checks permissions without truncating an existing file.
        existed = p.exists()
        with p.open("a", encoding="utf-8"):
            pass
        if not existed:
            p.unlink()
    except OSError as e:
        raise PatchworkError(f"cannot write {str(p)!r}: {e.strerror or e}") from None


# -- running ----------------------------------------------------------------------------------


def _score_line(result: TournamentResult) -> str:
    labels = result.labels
    wins = result.wins()
    if len(labels) == 2:
        return f"{labels[0]} {wins[0]}-{wins[1]} {labels[1]}"
    return "  ".join(f"{name} {w}" for name, w in zip(labels, wins, strict=True))


@contextmanager
def _progress(total: int, enabled: bool, result: TournamentResult) -> Iterator[Callable[[], None]]:
    """A bar on stderr (games, elapsed, ETA, running score); yields ``advance()``."""
    if not enabled:
        yield lambda: None
        return
    bar = Progress(
        TextColumn("[bold]games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        TextColumn("{task.fields[score]}"),
        console=Console(stderr=True),
    )
    with bar:
        task = bar.add_task("games", total=total, score=_score_line(result))
        yield lambda: bar.update(task, advance=1, score=_score_line(result))


def _normalise(
    agents: Sequence[str], games: int, limit: Limit | float | None, workers: int
) -> tuple[list[str], int, Limit | None]:
    names = [str(a) for a in agents]
    if len(names) < 2:
        raise PatchworkError("a tournament needs at least two players")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise PatchworkError(f"the number of games must be a positive whole number, not {games!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise PatchworkError(f"workers must be a positive whole number, not {workers!r}")
    if limit is not None and not isinstance(limit, Limit):
        limit = Limit(time=float(limit))
    for name in dict.fromkeys(names):
        # Unknown names (and engine programs that do not start) fail here, before any game.
        agent = build_agent(name)
        try:
            if name.startswith(EXTERNAL_PREFIX):
                getattr(agent, "engine")  # noqa: B009  # starts the program: handshake, isready
        finally:
            _close(agent)
    return names, games + games % 2, limit


def run_tournament(
    players: Sequence[str],
    games: int,
    limit: Limit | float | None = None,
    workers: int = 1,
    seed: int = 0,
    rules: Rules | None = None,
    progress: bool = True,
    out: str | Path | None = None,
) -> TournamentResult:
    """Play a round robin of ``games`` games per pair (an odd number is rounded up, so every
    circle is played from both seats) and return the results.

    ``limit`` applies to every move of every agent (None: each agent's own default). Ctrl-C
    stops early: the result keeps the finished games and has ``interrupted`` set. ``out``
    (.json or .csv) is written at the end either way. Raises PatchworkError for bad input
    and TournamentError (with the partial result) when an agent fails.
    """
    agents, games, limit = _normalise(players, games, limit, workers)
    rules = Rules() if rules is None else rules
    if out is not None:
        check_out_path(out)
    specs = schedule(agents, games, seed, rules, limit)
    result = TournamentResult(
        agents=agents,
        games_per_pair=games,
        limit=limit,
        workers=workers,
        seed=seed,
        rules=rules,
        planned=len(specs),
    )
    start = time.perf_counter()
    error: str | None = None
    cause: BaseException | None = None
    with _progress(len(specs), progress, result) as advance:

        def done(game: GameResult) -> None:
            result.games.append(game)
            advance()

        try:
            if workers == 1:
                _run_here(specs, done)
            else:
                result.interrupted = _run_pool(specs, min(workers, len(specs)), done)
        except KeyboardInterrupt:
            result.interrupted = True
        except Exception as e:  # an agent's bug ends the run, not the results
            error = str(e) if isinstance(e, PatchworkError) else f"{type(e).__name__}: {e}"
            cause = e
    result.games.sort(key=lambda g: g.spec.index)
    result.seconds = time.perf_counter() - start
    if out is not None:
        try:
            result.write(out)
        except PatchworkError as e:
            error = f"{error}; {e}" if error else str(e)
    if error is not None:
        raise TournamentError(error, result) from cause
    return result


def _run_here(specs: Sequence[GameSpec], done: Callable[[GameResult], None]) -> None:
    try:
        for spec in specs:
            game = play_game(spec)
            if game is not None:
                done(game)
    finally:
        _close_agents()


def _run_pool(specs: Sequence[GameSpec], workers: int, done: Callable[[GameResult], None]) -> bool:
    """Play in ``workers`` spawned processes; True when stopped by Ctrl-C."""
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_worker_init, initargs=(stop,))
    pending: dict[Future[GameResult | None], GameSpec] = {}
    interrupted = False
    try:
        pending = {pool.submit(play_game, spec): spec for spec in specs}
        while pending:
            finished, _ = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for f in finished:
                del pending[f]
                game = f.result()
                if game is not None:
                    done(game)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        # Games under way give up at their next move; queued ones never start.
        stop.set()
        for f in pending:
            f.cancel()
        try:
            pool.shutdown(wait=True, cancel_futures=True)
        except KeyboardInterrupt:
            interrupted = True
            pool.shutdown(wait=False, cancel_futures=True)
    if interrupted:
        # Keep games that finished while we were stopping.
        for f in pending:
            if f.done() and not f.cancelled() and f.exception() is None:
                game = f.result()
                if game is not None:
                    done(game)
    return interrupted


# -- the report -------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def _interval_pct(ci: tuple[float, float]) -> str:
    lo, hi = ci
    return "" if math.isnan(lo) else f"{100 * lo:.0f}-{100 * hi:.0f}%"


def _elo(x: float) -> str:
    if math.isnan(x):
        return "-"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.0f}"


def _margin(mean: float, half: float) -> str:
    return "-" if math.isnan(mean) else f"{mean:+.1f}±{half:.1f}"


def _limit_text(limit: Limit | None) -> str:
    return "default limits" if limit is None else f"{limit} per move"


def report(result: TournamentResult) -> list[Table | str]:
    """The tables and lines that summarise a tournament, for a rich console."""
    s = result.summary()
    done = len(result.games)
    title = (
        f"{' vs '.join(result.labels)}: {done} games"
        + (f" of {result.planned} (interrupted)" if result.interrupted else "")
        + f", {_limit_text(result.limit)}, seed {result.seed}"
    )
    rules = result.rules
    if rules != Rules():
        title += f", {rules.edition} rules" + ("" if rules.rotation else ", no rotation")
        title += "" if rules.flip else ", no flip"
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1, 0, 0))
    for name in ("player", "games", "wins", "win %", "95% CI", "Elo", "95% CI", "margin", "s/move"):
        table.add_column(name, justify="left" if name == "player" else "right")
    for p in s.players:
        lo, hi = p.elo_interval
        anchor = p.label == s.elo_anchor
        table.add_row(
            p.label,
            str(p.games),
            str(p.wins),
            _pct(p.win_rate),
            _interval_pct(p.win_interval),
            "0" if anchor else _elo(p.elo),
            "" if anchor or math.isnan(lo) else f"{_elo(lo)}..{_elo(hi)}",
            _margin(p.mean_margin, p.margin_halfwidth),
            "-" if math.isnan(p.seconds_per_move) else f"{p.seconds_per_move:.3f}",
        )
    out: list[Table | str] = [table]
    if len(result.agents) > 2:
        pairs = Table(
            title="head to head (for the first of each pair)",
            title_justify="left",
            box=box.SIMPLE_HEAD,
            padding=(0, 1, 0, 0),
        )
        pairs.add_column("pair")
        pairs.add_column("games", justify="right")
        pairs.add_column("score", justify="right")
        pairs.add_column("win %", justify="right")
        pairs.add_column("95% CI", justify="right")
        pairs.add_column("margin", justify="right")
        for q in s.pairs:
            pairs.add_row(
                f"{q.players[0]} vs {q.players[1]}",
                str(q.games),
                f"{q.wins[0]}-{q.wins[1]}",
                _pct(q.win_rate),
                _interval_pct(q.win_interval),
                _margin(q.mean_margin, q.margin_halfwidth),
            )
        out.append(pairs)
    how = (
        f"Bradley-Terry fit, CI by {BOOTSTRAP_SAMPLES} bootstrap samples"
        if len(result.agents) > 2
        else "from the score, Wilson CI"
    )
    if s.elo_method.endswith("+prior"):
        how += "; someone won or lost every game, so half a virtual win each way per pair"
    out.append(f"Elo relative to {s.elo_anchor} ({how}); margin: mean score difference ± 95% CI")
    out.append(
        f"first to move won {_pct(s.first_mover_rate)} "
        f"(95% CI {_interval_pct(s.first_mover_interval)}) of {s.first_mover_games} games"
    )
    return out


def print_report(result: TournamentResult, console: Console | None = None) -> None:
    console = Console() if console is None else console
    for item in report(result):
        console.print(item)


# -- the command ------------------------------------------------------------------------------

EPILOG = """\
Each pair of players (a round robin for three or more) plays --games games: every random
circle twice, seats swapped; an odd number is rounded up. Circles and agent seeds come from
--seed, so a tournament is reproducible whatever --workers is (searches limited by time
are the exception). Without --time or --iterations each agent thinks as long as it
normally does (levels 3 and 4: 100 and 10,000 iterations, level 5: 5 s). Ctrl-C stops:
the finished games are reported and written to --out.

players: {names};
or cmd:COMMAND, a program speaking the engine protocol (docs/protocol.md), quoted as one
argument: "cmd:./mybot --flag". Each worker process starts it once and stops it at the end.
"""


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="patchwork tournament",
        description="Play agents against each other and report win rates and Elo.",
        epilog=EPILOG.format(names=", ".join(agent_names())),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "players", nargs="+", metavar="PLAYER", help="two or more agent names or cmd:COMMAND"
    )
    p.add_argument(
        "--games", type=_positive_int, default=10, metavar="N",
        help="games per pair (default 10; an odd number is rounded up)",
    )  # fmt: skip
    p.add_argument(
        "--time", type=_positive_float, metavar="S", help="seconds per move for every agent"
    )
    p.add_argument(
        "--iterations", type=_positive_int, metavar="K",
        help="search iterations per move for every agent (with --time: whichever ends first)",
    )  # fmt: skip
    p.add_argument(
        "--workers", type=_positive_int, default=1, metavar="W",
        help="games played at once, each in its own process (default 1: in this process)",
    )  # fmt: skip
    p.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    p.add_argument("--edition", choices=EDITIONS, default="revised", help="time board printing")
    p.add_argument("--no-rotation", action="store_true", help="patches may not be turned")
    p.add_argument("--no-flip", action="store_true", help="patches may not be mirrored")
    p.add_argument("--out", metavar="FILE", help="write the results: FILE.json or FILE.csv")
    return p


def _say(message: str) -> None:
    print(message, file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """``patchwork tournament``: 0 done, 1 an agent failed or --out could not be written,
    2 bad arguments, 130 interrupted (the finished games are still reported and written)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help, or argparse's own message for bad options
        return e.code if isinstance(e.code, int) else 2
    limit = None
    if args.time is not None or args.iterations is not None:
        limit = Limit(time=args.time, iterations=args.iterations)
    if args.games % 2:
        _say(
            f"note: {args.games} games per pair is odd; playing {args.games + 1} so that "
            "every circle is played from both seats"
        )
    try:
        rules = Rules(args.edition, rotation=not args.no_rotation, flip=not args.no_flip)
        result = run_tournament(
            args.players,
            args.games,
            limit=limit,
            workers=args.workers,
            seed=args.seed,
            rules=rules,
            progress=True,
            out=args.out,
        )
    except TournamentError as e:
        if e.result is not None:
            print_report(e.result)
        _say(f"patchwork tournament: {e}")
        return 1
    except PatchworkError as e:
        _say(f"patchwork tournament: {e}")
        return 2
    except KeyboardInterrupt:
        _say("interrupted")
        return 130
    print_report(result)
    if args.out:
        _say(f"results written to {args.out}")
    if result.interrupted:
        _say(f"interrupted after {len(result.games)} of {result.planned} games")
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
