"""Random playouts: compiled kernels that play a state to the end of the game at random.

Two move pickers, both built only on the rules kernels of :mod:`.kernels` (``legal_moves``,
``apply_move``, ``current_player``, ...) and the placement tables they read:

``uniform``
    every turn, all legal moves are generated with ``legal_moves`` and one is picked uniformly.
    Buying dominates (an opening offers 1 advance against 1344 placements).
``piece_first``
    every turn, one option is picked uniformly among advance and each offered patch that the
    mover can afford and that fits somewhere on the mover's quilt board; then one of that
    patch's fitting placements, uniformly (rejection sampling over the patch's placement list,
    falling back to enumerating the fitting ones, which keeps it exactly uniform). A pending
    special patch goes on a uniformly chosen empty square.

Every playout works on its own copy of the state (the input is never written) and seeds
Numba's random generator inside the kernel, so a (state, seed) pair always gives the same game.
With ``NUMBA_DISABLE_JIT=1`` the same code runs as plain Python; the generator is then NumPy's
global legacy one, which Numba's copies draw for draw (the same seed gave the same games in
both modes with NumPy 2.4 and Numba 0.68), and seeding it reseeds NumPy's global generator.

The ``*_games`` kernels play many games in one compiled loop (for benchmarks and statistics):
game ``g`` starts from row ``g % len(starts)`` of a 2-D array of start states.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from .kernels import (
    ADVANCE,
    BUY_BASE,
    MAX_MOVES,
    NUM_SQUARES,
    SPECIAL_BASE,
    affordable,
    apply_move,
    current_player,
    empty_squares,
    footprint_free,
    legal_moves,
    offer_size,
    popcount,
    square_is_empty,
)
from .layout import CIRCLE, MODE, PENDING, QUILT_HI, QUILT_LO
from .tables import MODE_COUNT, MODE_INDEX

I64 = npt.NDArray[np.int64]

# Scratch space a move picker needs: room for every legal move.
SCRATCH_SIZE = MAX_MOVES
# Random placements tried before counting the fitting ones. Rejection sampling mostly succeeds
# at once on an open quilt board, but in random games about a sixth of the affordable patches
# fit nowhere and every try on them is wasted: 2-8 tries measured about equal, 16+ slower.
PLACEMENT_TRIES = 4


@njit(cache=True)
def _below(n: int) -> int:
    """A uniform integer in [0, n), n >= 1."""
    return int(np.random.randint(0, n))


@njit(cache=True)
def set_seed(seed: int) -> None:
    """Seed the random generator the playout kernels draw from (Numba's own, per thread)."""
    np.random.seed(seed)


@njit(cache=True)
def uniform_move(s: I64, scratch: I64) -> int:
    """A legal move of ``s`` chosen uniformly among all of them, or -1 once the game is over."""
    n = legal_moves(s, scratch)
    if n == 0:
        return -1
    return int(scratch[_below(n)])


@njit(cache=True)
def _random_empty_square(s: I64, p: int) -> int:
    # The r-th empty square of p's quilt board, r uniform; -1 if there is none (apply_move
    # never leaves a special patch pending on a full board, but a hand-made state might).
    empty = empty_squares(s, p)
    if empty == 0:
        return -1
    r = _below(empty)
    for sq in range(NUM_SQUARES):
        if square_is_empty(s, p, sq):
            if r == 0:
                return sq
            r -= 1
    return -1


@njit(cache=True)
def _random_placement(s: I64, p: int, mode: int, patch: int) -> int:
    """The global index of a uniformly chosen placement of ``patch`` that fits p's quilt
    board (the same footprint list and overlap test as ``legal_moves``), or -1 if none fits."""
    lo = s[QUILT_LO + p]
    hi = s[QUILT_HI + p]
    count = MODE_COUNT[mode, patch]
    # Rejection sampling: uniform over the fitting placements whenever it succeeds.
    for _ in range(PLACEMENT_TRIES):
        i = _below(count)
        if footprint_free(mode, patch, i, lo, hi):
            return int(MODE_INDEX[mode, patch, i])
    # Otherwise count the fitting ones (a branch-free pass the compiler vectorises) and take
    # a uniformly chosen one of them.
    n = 0
    for i in range(count):
        n += footprint_free(mode, patch, i, lo, hi)
    if n == 0:
        return -1
    r = _below(n)
    for i in range(count):
        if footprint_free(mode, patch, i, lo, hi):
            if r == 0:
                return int(MODE_INDEX[mode, patch, i])
            r -= 1
    return -1


@njit(cache=True)
def piece_first_move(s: I64) -> int:
    """A legal move of ``s`` chosen piece-first (see the module text), or -1 once it is over."""
    p = current_player(s)
    if p < 0:
        return -1
    if s[PENDING] > 0:
        sq = _random_empty_square(s, p)
        return -1 if sq < 0 else SPECIAL_BASE + sq
    mode = s[MODE]
    # Bit 0: advance (always allowed); bit j + 1: offered slot j, while it may still be bought.
    options = 1
    for j in range(offer_size(s)):
        if affordable(s, p, s[CIRCLE + j]):
            options |= 2 << j
    while True:
        # Pick uniformly among the options not yet ruled out. A patch that turns out not to
        # fit anywhere is dropped and the pick redrawn, which is uniform over those that fit.
        r = _below(popcount(options))
        bit = 0
        while True:
            if (options >> bit) & 1:
                if r == 0:
                    break
                r -= 1
            bit += 1
        if bit == 0:
            return ADVANCE
        k = _random_placement(s, p, mode, s[CIRCLE + bit - 1])
        if k >= 0:
            return BUY_BASE + k
        options &= ~(1 << bit)


@njit(cache=True)
def _play_uniform(v: I64, scratch: I64) -> int:
    # Play v to the end in place; return the number of plies played.
    plies = 0
    while True:
        code = uniform_move(v, scratch)
        if code < 0:
            return plies
        apply_move(v, code)
        plies += 1


@njit(cache=True)
def _play_piece_first(v: I64) -> int:
    plies = 0
    while True:
        code = piece_first_move(v)
        if code < 0:
            return plies
        apply_move(v, code)
        plies += 1


@njit(cache=True)
def uniform_playout(s: I64, seed: int) -> I64:
    """The final state of a uniformly random game from ``s`` (``s`` itself is not changed)."""
    set_seed(seed)
    v = s.copy()
    _play_uniform(v, np.empty(SCRATCH_SIZE, dtype=np.int64))
    return v


@njit(cache=True)
def piece_first_playout(s: I64, seed: int) -> I64:
    """The final state of a piece-first random game from ``s`` (``s`` is not changed)."""
    set_seed(seed)
    v = s.copy()
    _play_piece_first(v)
    return v


@njit(cache=True)
def uniform_plies(s: I64, seed: int) -> int:
    """The length in plies of the game ``uniform_playout(s, seed)`` plays."""
    set_seed(seed)
    return _play_uniform(s.copy(), np.empty(SCRATCH_SIZE, dtype=np.int64))


@njit(cache=True)
def piece_first_plies(s: I64, seed: int) -> int:
    """The length in plies of the game ``piece_first_playout(s, seed)`` plays."""
    set_seed(seed)
    return _play_piece_first(s.copy())


@njit(cache=True)
def uniform_games(starts: I64, n: int, seed: int) -> int:
    """Play ``n`` uniformly random games, game g from ``starts[g % len(starts)]`` (a 2-D array
    of state vectors, not changed); return the total number of plies played."""
    set_seed(seed)
    v = np.empty(starts.shape[1], dtype=np.int64)
    scratch = np.empty(SCRATCH_SIZE, dtype=np.int64)
    plies = 0
    for g in range(n):
        v[:] = starts[g % starts.shape[0]]
        plies += _play_uniform(v, scratch)
    return plies


@njit(cache=True)
def piece_first_games(starts: I64, n: int, seed: int) -> int:
    """As :func:`uniform_games`, with piece-first random games."""
    set_seed(seed)
    v = np.empty(starts.shape[1], dtype=np.int64)
    plies = 0
    for g in range(n):
        v[:] = starts[g % starts.shape[0]]
        plies += _play_piece_first(v)
    return plies
