"""Running a tournament: check the players, schedule the games, play them here or in worker
processes with a progress bar, and stop cleanly on Ctrl-C with the games finished so far."""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
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
from .files import check_out_path
from .play import (
    EXTERNAL_PREFIX,
    GameResult,
    build_agent,
    close_agent,
    close_agents,
    play_game,
    worker_init,
)
from .results import TournamentResult
from .schedule import GameSpec, schedule


class TournamentError(PatchworkError):
    """A game could not be played (an agent failed) or the results could not be written;
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
            close_agent(agent)
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
        close_agents()


def _run_pool(specs: Sequence[GameSpec], workers: int, done: Callable[[GameResult], None]) -> bool:
    """Play in ``workers`` spawned processes; True when stopped by Ctrl-C."""
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=worker_init, initargs=(stop,))
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
