"""``patchwork puzzles generate``: find puzzles in self-play between the AI levels, or in the
finished games of a server's database, each proved (``find``).

Self-play: each game is played to its end between two levels (every pair of the levels that
set a difficulty, ``find.FINDERS``, in turn: the lower levels make the mistakes that leave a
position with one good move), and every position of the phases asked for with a choice is a
candidate. A server's games
(``--from-db``): the position before each move its review classes a mistake or a blunder, as
lichess finds its puzzles; in a game without a review, every position near the end. This
package sits below the server, so the server reads its database (``server.puzzles.finished``)
and hands the games in (``Finished``). A position is kept once, whatever game reaches it; the
same options give the same puzzles on any number of workers.
"""

from __future__ import annotations

import argparse
import sys
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeVar

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..ai.levels import level
from ..engine import Game, PatchworkError, State, new_game, parse_move
from ..i18n.commandline import HelpFormatter
from ..options import positive_int
from ..parallel import open_executor
from .find import FINDERS, PHASES, Phase, candidate, prove
from .puzzle import STARTER, Puzzle, dump, load

PAIRS = [(a, b) for a in FINDERS for b in FINDERS if a < b]
PHASE_CHOICES: dict[str, tuple[Phase, ...]] = {
    "endgame": ("endgame",), "middlegame": ("middlegame",), "both": PHASES,
}  # fmt: skip
J = TypeVar("J")
Found = tuple[list[tuple[int, int, Puzzle]], int]  # (game order, ply, puzzle)s; positions tried


@dataclass(frozen=True)
class Finished:
    """A finished game to find puzzles in: ``name`` says which ("game AbC123"), ``start`` (a
    position text) and ``moves`` are its record; ``flawed`` the plies (1: the first move)
    whose move its review classes a mistake or a blunder, None when it has no review."""

    name: str
    start: str
    moves: tuple[str, ...]
    flawed: frozenset[int] | None = None


Reader = Callable[[str], list[Finished]]  # a database URL -> its finished games
OnGame = Callable[[int, int], None]  # (games done, puzzles found so far)


def _found(
    game: Game, plies: Iterable[int], phases: Sequence[Phase], seed: int, name: str, order: int
) -> Found:
    """The puzzles at ``plies`` of ``game`` (the positions before those moves)."""
    found, tried = [], 0
    for ply in plies:
        if not candidate(game.states[ply], phases):
            continue
        tried += 1
        puzzle = prove(game, ply, seed * 1_000 + ply, f"{name}, ply {ply}")
        if puzzle is not None:
            found.append((order, ply, puzzle))
    return found, tried


def _self_play(job: tuple[int, int, int, tuple[Phase, ...]]) -> Found:
    """The puzzles of one game between levels ``a`` and ``b`` (seed ``seed``)."""
    seed, a, b, phases = job
    agents = (level(a, seed=seed), level(b, seed=seed + 1))
    game = Game(new_game(seed=seed))
    while not game.state.is_terminal():
        mover = game.state.current_player
        assert mover is not None  # the game is not over
        game.push(agents[mover].choose(game.state))
    name = f"level{a} v level{b}, seed {seed}"
    return _found(game, range(len(game.moves)), phases, seed, name, seed)


def _finished(job: tuple[int, Finished, tuple[Phase, ...]]) -> Found:
    """The puzzles of a finished game: at its review's mistakes and blunders, or without a
    review near the end."""
    order, f, phases = job
    game = Game(State.from_text(f.start))
    for move in f.moves:
        game.push(parse_move(move))
    if f.flawed is None:
        plies: Iterable[int] = range(len(f.moves))
        phases = tuple(p for p in phases if p == "endgame")
    else:
        plies = sorted(p - 1 for p in f.flawed if 0 < p <= len(f.moves))
    return _found(game, plies, phases, zlib.crc32(f.name.encode()), f.name, order)


def _run(
    work: Callable[[J], Found], jobs: list[J], workers: int, on_game: OnGame | None
) -> tuple[list[Puzzle], int]:
    """The puzzles of every job, each position once, easiest first (within a difficulty in
    the order of the games), not yet numbered; and the positions tried."""
    found: list[tuple[int, int, Puzzle]] = []
    tried = 0
    with open_executor(workers, None) as executor:
        for done, (puzzles, n) in enumerate(executor.map_unordered(work, jobs), start=1):
            found += puzzles
            tried += n
            if on_game is not None:
                on_game(done, len(found))
    seen: set[str] = set()
    kept = []
    for _, _, p in sorted(found, key=lambda f: (f[0], f[1])):
        if p.position not in seen:
            seen.add(p.position)
            kept.append(p)
    kept = _varied(kept)
    kept.sort(key=lambda p: p.difficulty)  # stable: within a difficulty, in game order
    return kept, tried


def _varied(puzzles: list[Puzzle]) -> list[Puzzle]:
    """The search finds advancing clearly best in the middle game far more often than any
    buy (unchecked, nearly every middle-game puzzle would be "advance"): its puzzles whose
    answer is to advance are kept only up to as many as those answered by a buy (the first
    in game order)."""
    advance = [p for p in puzzles if p.proof == "search" and p.answers == ("A",)]
    buys = sum(1 for p in puzzles if p.proof == "search" and p.answers != ("A",))
    dropped = {id(p) for p in advance[buys:]}
    return [p for p in puzzles if id(p) not in dropped]


def numbered(puzzles: Iterable[Puzzle], first: int = 1) -> list[Puzzle]:
    return [replace(p, id=f"{i:04d}") for i, p in enumerate(puzzles, start=first)]


def generate(
    games: int,
    seed: int = 0,
    workers: int = 1,
    on_game: OnGame | None = None,
    phases: Sequence[Phase] = ("endgame",),
) -> list[Puzzle]:
    """Puzzles from ``games`` self-play games (seeds ``seed``..), numbered."""
    return numbered(self_play(games, seed, workers, on_game, phases)[0])


def self_play(
    games: int, seed: int, workers: int, on_game: OnGame | None, phases: Sequence[Phase]
) -> tuple[list[Puzzle], int]:
    jobs = [(seed + g, *PAIRS[g % len(PAIRS)], tuple(phases)) for g in range(games)]
    return _run(_self_play, jobs, workers, on_game)


def from_games(
    games: Sequence[Finished],
    workers: int = 1,
    on_game: OnGame | None = None,
    phases: Sequence[Phase] = PHASES,
) -> tuple[list[Puzzle], int]:
    """Puzzles from finished games (see ``Finished``), not yet numbered; and the positions
    tried."""
    jobs = [(i, g, tuple(phases)) for i, g in enumerate(games)]
    return _run(_finished, jobs, workers, on_game)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="patchwork puzzles generate",
        formatter_class=HelpFormatter,
        description="Find puzzles in self-play between the AI levels, or in the finished "
        "games of a server's database, each proved (the exact endgame search near the end, "
        "a large search earlier), and write them as JSON lines.",
    )
    p.add_argument("action", choices=["generate"], help="what to do: generate")
    p.add_argument("--games", type=positive_int, default=200, help="games to play (200)")
    p.add_argument("--seed", type=int, default=0, help="the first game's seed (0)")
    p.add_argument("--workers", type=positive_int, default=1, help="processes (1)")
    p.add_argument(
        "--phase", choices=list(PHASE_CHOICES),
        help="where to look: endgame (proved exactly; self-play's default), middlegame "
        "(proved by a large search: ten times slower), or both (--from-db's default)",
    )  # fmt: skip
    p.add_argument(
        "--from-db", metavar="URL",
        help="the finished games of a server's database (as 'patchwork serve --db' takes it: "
        "sqlite:///games.db, postgresql+psycopg://...), read only, instead of self-play",
    )  # fmt: skip
    p.add_argument(
        "--out", type=Path,
        help=f"the file to write ({STARTER.name}; puzzles.jsonl with --from-db)",
    )  # fmt: skip
    p.add_argument(
        "--append", action="store_true",
        help="add the puzzles to the file's, numbered after them (positions already there "
        "are left out)",
    )  # fmt: skip
    return p


def main(argv: list[str] | None = None, read: Reader | None = None) -> int:
    """``patchwork puzzles generate``: 0 done, 2 bad arguments or a database that cannot be
    read. ``read`` reads a server's database (``--from-db``): the server hands it in."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 2
    out = args.out or (Path("puzzles.jsonl") if args.from_db else STARTER)
    phases = PHASE_CHOICES[args.phase or ("both" if args.from_db else "endgame")]
    try:
        known = load(out) if args.append and out.exists() else []
        finished: list[Finished] = []
        if args.from_db is not None:
            if read is None:
                raise PatchworkError("reading a server's database needs the server's reader")
            finished = read(args.from_db)
    except (PatchworkError, OSError, ValueError) as e:
        print(f"patchwork puzzles generate: {e}", file=sys.stderr)
        return 2
    total = len(finished) if args.from_db else args.games
    terminal = sys.stderr.isatty()
    bar = Progress(
        TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        TextColumn("{task.fields[found]} puzzles"), console=Console(stderr=True),
        disable=not terminal,
    )  # fmt: skip
    with bar:
        task = bar.add_task("games", total=total, found=0)

        def on_game(done: int, found: int) -> None:
            bar.update(task, completed=done, found=found)
            if not terminal:  # a log: a line a game
                print(f"games {done}/{total}: {found} puzzles", file=sys.stderr, flush=True)

        if args.from_db:
            found, tried = from_games(finished, args.workers, on_game, phases)
        else:
            found, tried = self_play(args.games, args.seed, args.workers, on_game, phases)
    seen = {p.position for p in known}
    new = numbered((p for p in found if p.position not in seen), len(known) + 1)
    dump([*known, *new], out)
    print(f"{len(new)} puzzles from {total} games ({tried} positions tried) written to {out}")
    return 0
