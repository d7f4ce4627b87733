"""``patchwork puzzles generate``: find puzzles in self-play between the AI levels.

Each game is played to its end between two levels (every pair of levels 1-4 in turn, the
lower ones blundering more). Near the end, every position with a choice is proved move by
move with the exact endgame search (``proof.outcomes``); it becomes a puzzle when the moves
that end best win, are at most a third of the moves (a real choice, not a free one), and
end at least ``GAP`` points ahead of every other move.
Its themes are read off the answers, and its difficulty off which of the AI levels 1-4
find an answer (1: level 1 does, .. 5: none does). A position is kept once, whatever game
reaches it. The same options give the same puzzles.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..ai import endgame
from ..ai.levels import level
from ..engine import PATCHES, Buy, Game, Move, State, new_game
from ..i18n.commandline import HelpFormatter
from ..options import positive_int
from ..parallel import open_executor
from .proof import Outcome, outcomes
from .puzzle import STARTER, Puzzle, Theme, dump

NEAR_END = 20  # spaces to the end (both tokens) from which positions are proved
MOST_ANSWERS = 1 / 3  # a puzzle's answers are at most this share of its legal moves
GAP = 4  # points an answer ends ahead of every other move, at least
LEVELS = (1, 2, 3, 4)
PAIRS = [(a, b) for a in LEVELS for b in LEVELS if a < b]


def puzzle_of(
    state: State, proved: dict[str, Outcome], source: str, game: Game | None = None
) -> Puzzle | None:
    """The puzzle ``state`` makes given every move's proved end, or None: its answers are
    the moves that end best; they must win, be at most a third of the moves, and end at
    least ``GAP`` points better than any other move."""
    best = max(o.margin for o in proved.values())
    answers = sorted(m for m, o in proved.items() if o.margin == best)
    others = [o.margin for o in proved.values() if o.margin < best]
    if not proved[answers[0]].wins or not others or len(answers) > MOST_ANSWERS * len(proved):
        return None
    if best - max(others) < GAP:
        return None
    return Puzzle(
        id="",
        position=state.to_text(),
        answers=tuple(answers),
        line=proved[answers[0]].line,
        margin=best,
        gap=best - max(others),
        proof="exact",
        themes=themes(state, proved, set(answers)),
        difficulty=difficulty(state, set(answers)),
        moves=len(proved),
        source=source,
        start="" if game is None else game.start.to_text(),
        before=() if game is None else tuple(map(str, game.moves)),
    )


def themes(state: State, proved: dict[str, Outcome], answers: set[str]) -> tuple[Theme, ...]:
    """What the puzzle turns on, read off its right and wrong moves."""
    right = [Move.parse(m, state) for m in proved if m in answers]
    wrong = [Move.parse(m, state) for m in proved if m not in answers]
    found: list[Theme] = ["endgame"]
    mover = state.current_player
    if state.bonus_owner is None and all(state.apply(m).bonus_owner == mover for m in right):
        found.append("bonus")
    if all(str(m) == "A" for m in right) or (
        any(str(m) == "A" for m in wrong) and all(isinstance(m, Buy) for m in right)
    ):
        found.append("timing")
    right_patches = {m.patch_id for m in right if isinstance(m, Buy)}
    if any(isinstance(m, Buy) and m.patch_id in right_patches for m in wrong):
        found.append("packing")  # the right patch, sewn on the wrong way, loses
    wrong_buys = [m.patch_id for m in wrong if isinstance(m, Buy)]
    pays = right_patches and all(PATCHES[p].income > 0 for p in right_patches)
    if pays and wrong_buys and all(PATCHES[p].income == 0 for p in wrong_buys):
        found.append("income")  # the patch that pays, against those that do not
    return tuple(found)


def difficulty(state: State, answers: set[str], seed: int = 0) -> int:
    """1 when AI level 1 finds an answer, .. 4 when only level 4 does, 5 when none does."""
    for n in LEVELS:
        if str(level(n, seed=seed).choose(state)) in answers:
            return n
    return 5


def _game(job: tuple[int, int, int]) -> list[tuple[int, int, Puzzle]]:
    """The puzzles of one game between levels ``a`` and ``b`` (seed ``seed``), each with the
    game's seed and its ply."""
    seed, a, b = job
    agents = (level(a, seed=seed), level(b, seed=seed + 1))
    game = Game(new_game(seed=seed))
    found = []
    while not game.state.is_terminal():
        state, ply = game.state, len(game.moves)
        if endgame.near_end(state, NEAR_END) and len(state.legal_move_codes()) > 1:
            proved = outcomes(state)
            if proved is not None:
                source = f"level{a} v level{b}, seed {seed}, ply {ply}"
                puzzle = puzzle_of(state, proved, source, game)
                if puzzle is not None:
                    found.append((seed, ply, puzzle))
        mover = state.current_player
        assert mover is not None  # the game is not over
        game.push(agents[mover].choose(state))
    return found


OnGame = Callable[[int, int], None]  # (games played, games in all)


def generate(
    games: int, seed: int = 0, workers: int = 1, on_game: OnGame | None = None
) -> list[Puzzle]:
    """Puzzles from ``games`` games (seeds ``seed``..), each position once, easiest first
    and numbered; the same on any number of ``workers``."""
    jobs = [(seed + g, *PAIRS[g % len(PAIRS)]) for g in range(games)]
    found: list[tuple[int, int, Puzzle]] = []
    with open_executor(workers, None) as executor:
        for done, puzzles in enumerate(executor.map_unordered(_game, jobs), start=1):
            found += puzzles
            if on_game is not None:
                on_game(done, len(found))
    seen: set[str] = set()
    kept = []
    for _, _, p in sorted(found, key=lambda f: (f[0], f[1])):
        if p.position not in seen:
            seen.add(p.position)
            kept.append(p)
    kept.sort(key=lambda p: p.difficulty)  # stable: within a difficulty, in game order
    return [replace(p, id=f"{i:04d}") for i, p in enumerate(kept, start=1)]


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="patchwork puzzles generate",
        formatter_class=HelpFormatter,
        description="Find puzzles in self-play between the AI levels, each proved by the "
        "exact endgame search, and write them as JSON lines.",
    )
    p.add_argument("action", choices=["generate"], help="what to do: generate")
    p.add_argument("--games", type=positive_int, default=200, help="games to play (200)")
    p.add_argument("--seed", type=int, default=0, help="the first game's seed (0)")
    p.add_argument("--workers", type=positive_int, default=1, help="processes (1)")
    p.add_argument("--out", type=Path, default=STARTER, help=f"the file to write ({STARTER.name})")
    return p


def main(argv: list[str] | None = None) -> int:
    """``patchwork puzzles generate``: 0 done, 2 bad arguments."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 2
    bar = Progress(
        TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        TextColumn("{task.fields[found]} puzzles"), console=Console(stderr=True),
        disable=not sys.stderr.isatty(),
    )  # fmt: skip
    with bar:
        task = bar.add_task("games", total=args.games, found=0)
        puzzles = generate(
            args.games,
            args.seed,
            args.workers,
            lambda done, found: bar.update(task, completed=done, found=found),
        )
    dump(puzzles, args.out)
    print(f"{len(puzzles)} puzzles from {args.games} games written to {args.out}")
    return 0
