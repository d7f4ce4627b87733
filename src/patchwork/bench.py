"""``patchwork bench``: how fast the compiled engine and the searcher are, on one core.

Every in-process figure times compiled code (the Numba kernels, called in compiled loops) after
a warm-up that compiles it, except ``state_legal_moves_ms``, which times the Python face. Time
is the thread's CPU time, so other programs sharing the machine slow the figures less than
they would wall-clock time; each figure is the best of several repeats. The start-up figures
are wall-clock times of a fresh interpreter.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence

import numba
import numpy as np
import numpy.typing as npt
from numba import njit

from .engine import kernels as K
from .engine import layout as L
from .engine import playout
from .engine.state import State, new_game
from .i18n.commandline import HelpFormatter

I64 = npt.NDArray[np.int64]
Progress = Callable[[str], None]

# The opening with the most legal moves: 1 advance + 3 patches x 448 placements.
OPENING_CIRCLE = (5, 18, 26, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 21,
                  22, 23, 24, 25, 27, 28, 29, 30, 31, 32, 0)  # fmt: skip
STARTUP_CODE = "import patchwork; s = patchwork.new_game(seed=1); s.legal_moves()"
SETUPS = 512  # distinct standard setups the random games start from
DEFAULT_SECONDS = 10.0
# Share of the time budget per measurement (the start-up runs take what they take).
SHARES = {
    "uniform": 0.35,
    "piece_first": 0.25,
    "legal_moves": 0.1,
    "apply": 0.15,
    "state_legal_moves": 0.15,
    "mcts": 0.4,
}
REPEATS = 5

# What each figure is, in the order the table shows them: (key, label, unit, format).
ROWS = (
    ("uniform_games_per_s", "uniform random games", "games/s", "{:,.0f}"),
    ("piece_first_games_per_s", "piece-first random games", "games/s", "{:,.0f}"),
    ("mean_plies", "uniform random game length", "plies", "{:.2f}"),
    ("piece_first_mean_plies", "piece-first random game length", "plies", "{:.2f}"),
    ("legal_moves_us", "legal_moves kernel, opening", "us", "{:.3f}"),
    ("opening_moves", "  legal moves in that opening", "moves", "{:.0f}"),
    ("apply_us", "apply_move kernel, opening", "us", "{:.4f}"),
    ("state_legal_moves_ms", "State.legal_moves(), opening", "ms", "{:.3f}"),
    ("mcts_opening_iterations_per_s", "MCTS iterations, opening", "iter/s", "{:,.0f}"),
    ("mcts_midgame_iterations_per_s", "MCTS iterations, midgame", "iter/s", "{:,.0f}"),
    ("cold_start_s", "start-up, empty Numba cache", "s", "{:.2f}"),
    ("warm_start_s", "start-up, warm Numba cache", "s", "{:.2f}"),
)


@njit(cache=True)
def _legal_moves_loop(s: I64, reps: int) -> int:
    out = np.empty(K.MAX_MOVES, dtype=np.int64)
    total = 0
    for _ in range(reps):
        n = K.legal_moves(s, out)
        total += n + out[n - 1]
    return total


@njit(cache=True)
def _apply_loop(s: I64, codes: I64, reps: int, apply: bool) -> int:
    # Each move is applied to a fresh copy of s; with apply=False only the copies are made,
    # so the difference of the two is the cost of apply_move alone.
    v = np.empty_like(s)
    total = 0
    for _ in range(reps):
        for code in codes:
            v[:] = s
            if apply:
                K.apply_move(v, code)
            total += v[L.POSITION] + v[L.BUTTONS]
    return total


def _best_time(run: Callable[[int], object], budget: float) -> float:
    """The best CPU time per unit of ``run(n)`` (which does n units of work) over a few
    repeats that fill about ``budget`` seconds."""
    run(1)  # compile (or load from the cache) and warm up
    target = budget / (REPEATS + 1)
    n = 1
    # Grow n until one call takes its share of the budget, so that the timer's resolution
    # and the call overhead do not count.
    while True:
        t0 = time.thread_time()
        run(n)
        dt = time.thread_time() - t0
        if dt > 0 and (dt >= target or dt >= 1.0):
            break
        n = 2 * n if dt < 1e-4 else max(n + 1, int(1.1 * n * target / dt))
    best = dt / n
    deadline = time.perf_counter() + REPEATS * dt
    for _ in range(REPEATS - 1):
        if time.perf_counter() > deadline:
            break
        t0 = time.thread_time()
        run(n)
        dt = time.thread_time() - t0
        if dt > 0:
            best = min(best, dt / n)
    return best


def _games(
    kernel: Callable[[I64, int, int], int], starts: I64, budget: float
) -> tuple[float, float]:
    """(games per second, mean plies) of a ``*_games`` playout kernel."""
    counts = {"games": 0, "plies": 0, "calls": 0}

    def run(n: int) -> None:
        counts["calls"] += 1
        counts["plies"] += int(kernel(starts, n, counts["calls"]))
        counts["games"] += n

    per_game = _best_time(run, budget)
    return 1.0 / per_game, counts["plies"] / counts["games"]


def midgame() -> State:
    """A fixed middle-game position: the greedy agent against itself until both tokens
    have passed space 20."""
    from .ai.agents import GreedyAgent

    state, agent = new_game(seed=5), GreedyAgent(seed=5)
    while min(p.position for p in state.players) < 20:
        state = state.apply(agent.choose(state))
    return state


def _mcts_run(state: State) -> Callable[[int], object]:
    """``run(n)``: n MCTS iterations on a fresh tree from ``state`` (the searcher's settings)."""
    from .ai import mcts

    def run(n: int) -> None:
        tree = mcts.Tree(2 * n + 16)
        tree.run(state.vector, n, mcts.Params())

    return run


def _startup(cache_dir: str) -> float:
    """Wall time of STARTUP_CODE in a fresh interpreter using ``cache_dir`` as Numba's cache."""
    code = f"import time; t = time.perf_counter(); {STARTUP_CODE}; print(time.perf_counter() - t)"
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return float(done.stdout.split()[-1])


def run_bench(
    seconds: float = DEFAULT_SECONDS, progress: Progress | None = None
) -> dict[str, float]:
    """Measure the engine; about ``seconds`` of timed work plus two fresh interpreters.

    Keys: uniform_games_per_s, piece_first_games_per_s, mean_plies, piece_first_mean_plies
    (random games from standard setups), legal_moves_us, apply_us, state_legal_moves_ms (at
    the 1345-move opening), opening_moves, mcts_opening_iterations_per_s and
    mcts_midgame_iterations_per_s (the searcher), cold_start_s, warm_start_s (see STARTUP_CODE).
    """
    say = progress if progress is not None else (lambda _: None)
    budget = {name: max(seconds, 0.0) * share for name, share in SHARES.items()}
    results: dict[str, float] = {}

    starts = np.stack([new_game(seed=i).vector for i in range(SETUPS)])
    say(f"uniform random games ({budget['uniform']:.1f} s)")
    rate, plies = _games(playout.uniform_games, starts, budget["uniform"])
    results["uniform_games_per_s"] = rate
    results["mean_plies"] = plies
    say(f"piece-first random games ({budget['piece_first']:.1f} s)")
    rate, plies = _games(playout.piece_first_games, starts, budget["piece_first"])
    results["piece_first_games_per_s"] = rate
    results["piece_first_mean_plies"] = plies

    opening = new_game(circle=OPENING_CIRCLE)
    s = np.array(opening.vector)
    codes = opening.legal_move_codes()
    results["opening_moves"] = float(len(codes))
    say(f"legal_moves kernel at the opening ({budget['legal_moves']:.1f} s)")
    per_call = _best_time(lambda n: _legal_moves_loop(s, n), budget["legal_moves"])
    results["legal_moves_us"] = per_call * 1e6

    say(f"apply_move kernel at the opening ({budget['apply']:.1f} s)")
    with_apply = _best_time(lambda n: _apply_loop(s, codes, n, True), budget["apply"] * 0.7)
    copy_only = _best_time(lambda n: _apply_loop(s, codes, n, False), budget["apply"] * 0.3)
    # Guard against timer noise on a tiny budget: never report less than a tenth of the total.
    per_apply = max(with_apply - copy_only, with_apply / 10) / len(codes)
    results["apply_us"] = per_apply * 1e6

    say(f"State.legal_moves() at the opening ({budget['state_legal_moves']:.1f} s)")

    def state_legal_moves(n: int) -> None:
        for _ in range(n):
            opening.legal_moves()

    per_call = _best_time(state_legal_moves, budget["state_legal_moves"])
    results["state_legal_moves_ms"] = per_call * 1e3

    for name, state in (("opening", opening), ("midgame", midgame())):
        say(f"MCTS iterations, {name} ({budget['mcts'] / 2:.1f} s)")
        per_iteration = _best_time(_mcts_run(state), budget["mcts"] / 2)
        results[f"mcts_{name}_iterations_per_s"] = 1.0 / per_iteration

    with tempfile.TemporaryDirectory(prefix="patchwork-bench-") as cache_dir:
        say("start-up with an empty Numba cache (fresh interpreter)")
        results["cold_start_s"] = _startup(cache_dir)
        say("start-up with a warm Numba cache (fresh interpreter)")
        results["warm_start_s"] = _startup(cache_dir)
    return results


def format_table(results: dict[str, float]) -> str:
    """The results as an aligned plain-text table."""
    lines = [
        f"patchwork bench: Python {platform.python_version()}, numba {numba.__version__}, "
        f"numpy {np.__version__}, one core, thread CPU time (best of {REPEATS})"
    ]
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        lines.append("NUMBA_DISABLE_JIT is set: these are plain-Python speeds")
    shown = [(label, fmt.format(results[key]), unit) for key, label, unit, fmt in ROWS]
    shown += [(key, f"{value:g}", "") for key, value in results.items() if key not in _KEYS]
    wl = max(len(label) for label, _, _ in shown)
    wv = max(len(value) for _, value, _ in shown)
    lines += [f"  {label:<{wl}}  {value:>{wv}}  {unit}".rstrip() for label, value, unit in shown]
    return "\n".join(lines)


_KEYS = {key for key, _, _, _ in ROWS}


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """The options of ``patchwork bench`` (added to ``parser`` when given)."""
    if parser is None:
        parser = argparse.ArgumentParser(
            formatter_class=HelpFormatter,
            prog="patchwork bench",
            description="Measure the speed of the compiled engine.",
        )
    parser.add_argument(
        "--json", action="store_true", help="also print the results as JSON on the last line"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=DEFAULT_SECONDS,
        metavar="S",
        help=f"time budget of the timed measurements (default {DEFAULT_SECONDS:g})",
    )
    return parser


def run_from_args(args: argparse.Namespace) -> int:
    if args.seconds < 0:
        print("patchwork bench: --seconds must not be negative", file=sys.stderr)
        return 2

    def progress(what: str) -> None:
        print(f"bench: {what}", file=sys.stderr, flush=True)

    results = run_bench(args.seconds, progress)
    print(format_table(results))
    if args.json:
        print(json.dumps(results))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``patchwork bench [--json] [--seconds S]``; returns the exit status."""
    return run_from_args(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
