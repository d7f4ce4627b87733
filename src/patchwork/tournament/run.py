"""Running a tournament: check the players, schedule the games, play them here, in worker
processes or on a Ray cluster (``patchwork.parallel``) with a progress bar, and stop cleanly
on Ctrl-C with the games finished so far."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ..ai import Limit
from ..engine import PatchworkError, Rules
from ..parallel import Executor, Hooks, open_executor
from ..protocol.agent import EngineAgent
from .files import check_out_path
from .play import (
    GameResult,
    build_agent,
    close_agent,
    close_agents,
    play_game,
    worker_init,
)
from .results import TournamentResult
from .schedule import GameSpec, schedule

# What each worker process (or Ray actor) does around its games.
HOOKS = Hooks(start=worker_init, finish=close_agents)


class TournamentError(PatchworkError):
    """An agent failed with ``stop_on_fault`` set, or the results could not be written;
    ``result`` holds the games finished before it happened."""

    def __init__(self, message: str, result: TournamentResult | None = None) -> None:
        super().__init__(message)
        self.result = result


def _score_line(result: TournamentResult) -> str:
    labels = result.labels
    wins = result.wins()
    if len(labels) == 2:
        return f"{labels[0]} {wins[0]}-{wins[1]} {labels[1]}"
    return "  ".join(f"{name} {w}" for name, w in zip(labels, wins, strict=True))


PLAIN_EVERY = 60.0  # seconds between progress lines when stderr is not a terminal


def _plain_progress(total: int, console: Console, result: TournamentResult) -> Callable[[], None]:
    """``advance()`` for a log file (a run under nohup, CI): a line at most every PLAIN_EVERY
    seconds and one at the end, where a bar would only fill the file with redraws."""
    start = last = time.perf_counter()

    def advance() -> None:
        nonlocal last
        now = time.perf_counter()
        finished = len(result.games)
        if now - last < PLAIN_EVERY and finished < total:
            return
        last = now
        elapsed = timedelta(seconds=round(now - start))
        eta = timedelta(seconds=round((now - start) / finished * (total - finished)))
        console.print(
            f"games {finished}/{total}  elapsed {elapsed}  eta {eta}  {_score_line(result)}",
            highlight=False,
            soft_wrap=True,
        )

    return advance


@contextmanager
def _progress(total: int, enabled: bool, result: TournamentResult) -> Iterator[Callable[[], None]]:
    """A bar on stderr (games, elapsed, ETA, running score), or plain lines where stderr is
    not a terminal; yields ``advance()``."""
    if not enabled:
        yield lambda: None
        return
    console = Console(stderr=True)
    if not console.is_terminal:
        yield _plain_progress(total, console, result)
        return
    bar = Progress(
        TextColumn("[bold]games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        TextColumn("{task.fields[score]}"),
        console=console,
    )
    with bar:
        task = bar.add_task("games", total=total, score=_score_line(result))
        yield lambda: bar.update(task, advance=1, score=_score_line(result))


def _normalise(
    agents: Sequence[str], games: int, limit: Limit | float | None, workers: int | None
) -> tuple[list[str], int, Limit | None]:
    names = [str(a) for a in agents]
    if len(names) < 2:
        raise PatchworkError("a tournament needs at least two players")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise PatchworkError(f"the number of games must be a positive whole number, not {games!r}")
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, int) or workers < 1
    ):
        raise PatchworkError(f"workers must be a positive whole number, not {workers!r}")
    if limit is not None and not isinstance(limit, Limit):
        limit = Limit(time=float(limit))
    for name in dict.fromkeys(names):
        # Unknown names (and engine programs that do not start) fail here, before any game.
        agent = build_agent(name)
        try:
            if isinstance(agent, EngineAgent):
                agent.start()
        finally:
            close_agent(agent)
    return names, games + games % 2, limit


def run_tournament(
    players: Sequence[str],
    games: int,
    limit: Limit | float | None = None,
    workers: int | None = 1,
    seed: int = 0,
    rules: Rules | None = None,
    progress: bool = True,
    out: str | Path | None = None,
    ray: str | None = None,
    stop_on_fault: bool = False,
) -> TournamentResult:
    """Play a round robin of ``games`` games per pair (an odd number is rounded up, so every
    circle is played from both seats) and return the results.

    ``limit`` applies to every move of every agent (None: each agent's own default). Ctrl-C
    stops early: the result keeps the finished games and has ``interrupted`` set. ``out``
    (.json or .csv) is written at the end either way. Raises PatchworkError for bad input.

    An agent that fails (raises, answers an illegal move, or, as an engine program, answers
    more than ``protocol.agent.TIME_MARGIN`` seconds after ``limit.time``) forfeits that game
    and the tournament goes on; with ``stop_on_fault`` the first failure raises
    TournamentError (with the games finished before it) instead.

    ``workers`` games are played at once, each in its own process (1: in this one). ``ray``
    plays them on the Ray cluster at that address instead (``local``: a Ray of this machine
    started for the run; ``auto``, ``HOST:PORT``, ``ray://HOST:PORT``), at most ``workers``
    at once (None: one per CPU there); a cluster that cannot be reached raises
    PatchworkError before any game.
    """
    agents, games, limit = _normalise(players, games, limit, workers)
    rules = Rules() if rules is None else rules
    if out is not None:
        check_out_path(out)
    specs = schedule(agents, games, seed, rules, limit, stop_on_fault)
    if ray is None:
        workers = min(workers or 1, len(specs))
    executor = open_executor(workers, ray, HOOKS)
    result = TournamentResult(
        agents=agents,
        games_per_pair=games,
        limit=limit,
        workers=min(executor.workers, len(specs)),
        seed=seed,
        rules=rules,
        planned=len(specs),
        stop_on_fault=stop_on_fault,
    )
    start = time.perf_counter()
    error: str | None = None
    cause: BaseException | None = None
    with _progress(len(specs), progress, result) as advance:

        def done(game: GameResult) -> None:
            result.games.append(game)
            advance()

        try:
            result.interrupted = _play_all(executor, specs, done)
        except Exception as e:  # a fault with stop_on_fault ends the run, not the results
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


def _play_all(
    executor: Executor, specs: Sequence[GameSpec], done: Callable[[GameResult], None]
) -> bool:
    """Play every game with ``executor`` (closed at the end); True when stopped by Ctrl-C.
    Games under way when it is pressed give up at their next move; queued ones never start."""
    try:
        with executor:
            for game in executor.map_unordered(play_game, specs):
                if game is not None:  # None: stopped during the game
                    done(game)
    except KeyboardInterrupt:
        return True
    return False
