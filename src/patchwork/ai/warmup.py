"""Load the compiled code before a clock is running.

Numba loads each kernel from its on-disk cache on first use (or compiles it), a fraction of a
second each: a bot with 100 ms a turn or a server's first request cannot afford that. Each
function here runs one part of the compiled code once, on positions of its own, so that every
process loads what it will use and nothing more. (A search worker process warms up by running
its own job once: see ``search._worker_init``.)
"""

from __future__ import annotations

import contextlib
import random
import sys
from collections.abc import Iterator

from ..engine import Rules, State, new_game
from ..engine.automa import Automa
from . import endgame
from .levels import LADDER, SEARCH, level
from .limit import Limit
from .search import MCTSAgent

_BLAS = "scipy.linalg.cython_blas"


@contextlib.contextmanager
def numba_without_blas_probe() -> Iterator[None]:
    """Numba sets up its compiler on the first compiled call of a process, and that set-up
    probes for SciPy's BLAS (``numba.np.arraymath``), importing SciPy's linear algebra when
    SciPy is installed: a quarter second or more, which a bot's first turn cannot spare. Our
    kernels use no linear algebra, so the probe is told there is none: Numba then only takes
    its plain loop for ``np.correlate``/``np.convolve``, and compiling ``np.dot`` and the like
    still finds SciPy later (that import is not blocked once this block is left)."""
    if _BLAS in sys.modules or "numba.np.arraymath" in sys.modules:
        yield  # imported already, or the compiler is set up: nothing left to spare
        return
    sys.modules[_BLAS] = None  # type: ignore[assignment]  # an import of it raises ImportError
    try:
        yield
    finally:
        if sys.modules.get(_BLAS, 0) is None:
            del sys.modules[_BLAS]


def warm_up_engine(rules: Rules | None = None) -> State:
    """The rules: play one game through (legal moves, the legality check, apply, scores and
    the winner); returns the final position."""
    state = new_game(seed=0, rules=rules)
    while not state.is_terminal():
        move = state.legal_moves()[-1]
        state.check_legal(move)
        state = state.apply(move)
    state.scores()
    state.winner()
    return state


def warm_up_levels(rules: Rules | None = None) -> None:
    """The levels that do not search: the playout policy and the one-move look-ahead."""
    state = new_game(seed=0, rules=rules)
    for n, rung in LADDER.items():
        if rung.kind != SEARCH:
            level(n, seed=0).choose(state)


def near_end_position(rules: Rules, seed: int = 0) -> State:
    """A position from a random game, close enough to the end for the exact search."""
    rng = random.Random(seed)
    state = new_game(seed=seed, rules=rules)
    while not state.is_terminal() and not endgame.near_end(state):
        codes = state.legal_move_codes()
        # Mostly advance-or-buy decisions as a person would take them: any legal move will do.
        state = state.apply_code(int(codes[rng.randrange(len(codes))]))
    return state


def warm_up_tree_search(rules: Rules, agent: MCTSAgent) -> None:
    """The tree search on ``agent`` (so that its own tree is allocated too): a search, tree
    reuse after a move, and a search close to the end."""
    state = new_game(seed=0, rules=rules)
    result = agent.search(state, Limit(iterations=64))
    agent.search(state.apply(result.best_move), Limit(iterations=64))  # tree reuse
    end = near_end_position(rules)
    if not end.is_terminal():
        agent.search(end, Limit(iterations=16))


def warm_up_endgame(rules: Rules) -> None:
    """The exact endgame search and a game's end (scores, the winner), on positions of its
    own: safe on a thread of its own while a search runs."""
    end = near_end_position(rules)
    if not end.is_terminal():
        endgame.solve_state(end, 2_000)
    while not end.is_terminal():
        end = end.apply_code(int(end.legal_move_codes()[-1]))
    end.scores()
    end.winner()


def warm_up_search(rules: Rules, agent: MCTSAgent | None = None) -> None:
    """Every path a search takes: the tree search, tree reuse after a move and the exact
    endgame search (on ``agent`` if given, so that its own tree is allocated too)."""
    searcher = agent or MCTSAgent(limit=Limit(iterations=64), seed=0)
    warm_up_tree_search(rules, searcher)
    warm_up_endgame(rules)
    if agent is None:
        searcher.close()


def warm_up_everything() -> None:
    """Compile (or load) every kernel once: the rules, the levels, and the search and the
    exact endgame of a two-player and of a solo game."""
    with numba_without_blas_probe():
        for rules in (Rules(), Rules(solo=Automa())):
            warm_up_engine(rules)
            warm_up_search(rules)
        warm_up_levels()


if __name__ == "__main__":
    # `make warm`: a fresh checkout compiles its kernels once, in one process, rather than in
    # every test process and server that starts before Numba's cache is written.
    warm_up_everything()
