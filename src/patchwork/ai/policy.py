"""Cheap compiled judgement for the search: where a patch goes, what to buy, random playouts.

None of this is a rule: legality always comes from the engine kernels. These functions only
rank what the engine allows.

- Placement policy: a placement scores for the sides it lays against sewn-on patches or the
  quilt's edge (tight packing), loses for empty squares it walls in (each empty square costs
  points at the end) and gains a little for staying inside the central square the size of
  the bonus tile (7x7) while the tile is unclaimed.
- Purchase policy: a patch is worth its squares (each saves the empty-square penalty), its
  income over the paydays still ahead and minus its price, per space of time it costs;
  advancing earns about one button per space.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine import data
from ..engine import kernels as K
from ..engine import layout as L
from ..engine.tables import (
    MODE_COUNT,
    MODE_INDEX,
    PATCH_BUTTONS,
    PATCH_INCOME,
    PATCH_TIME,
    PAYDAYS_AHEAD,
    PL_HI,
    PL_LO,
    bits_of,
    bonus_area,
)

SIZE = data.BOARD_SIZE
PATCH_CELLS = np.array([len(p.cells) for p in data.PATCHES], dtype=np.int64)

EMPTY_PENALTY = float(data.EMPTY_PENALTY)
HOLE_PENALTY = 4.0
BONUS_AREA_WEIGHT = 0.25


def _neighbour_tables() -> tuple[np.ndarray, ...]:
    """Per square: its orthogonal neighbours' bits and how many of its sides face the edge."""
    sq_lo = np.zeros(SIZE * SIZE, dtype=np.int64)
    sq_hi = np.zeros(SIZE * SIZE, dtype=np.int64)
    sq_edge = np.zeros(SIZE * SIZE, dtype=np.int64)
    for r in range(SIZE):
        for c in range(SIZE):
            near = [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
            inside = [(a, b) for a, b in near if 0 <= a < SIZE and 0 <= b < SIZE]
            sq_lo[r * SIZE + c], sq_hi[r * SIZE + c] = bits_of(inside)
            sq_edge[r * SIZE + c] = 4 - len(inside)
    # Per placement: the squares around its footprint and its sides along the quilt's edge,
    # for all placements at once on (placement, row, col) grids (a loop takes a tenth of a
    # second, which every process would pay at import).
    bit = np.arange(SIZE * SIZE, dtype=np.int64) % L.SPLIT  # each square's bit in its word
    covered = np.empty((len(PL_LO), SIZE * SIZE), dtype=bool)
    covered[:, : L.SPLIT] = (PL_LO[:, None] >> bit[: L.SPLIT]) & 1
    covered[:, L.SPLIT :] = (PL_HI[:, None] >> bit[L.SPLIT :]) & 1
    grid = covered.reshape(-1, SIZE, SIZE)
    around = np.zeros_like(grid)
    around[:, 1:, :] |= grid[:, :-1, :]
    around[:, :-1, :] |= grid[:, 1:, :]
    around[:, :, 1:] |= grid[:, :, :-1]
    around[:, :, :-1] |= grid[:, :, 1:]
    outside = (around & ~grid).reshape(-1, SIZE * SIZE)
    weight = np.int64(1) << bit
    pl_nlo = outside[:, : L.SPLIT] @ weight[: L.SPLIT]
    pl_nhi = outside[:, L.SPLIT :] @ weight[L.SPLIT :]
    pl_edge = covered @ sq_edge
    return sq_lo, sq_hi, sq_edge, pl_nlo, pl_nhi, pl_edge


SQ_NLO, SQ_NHI, SQ_EDGE, PL_NLO, PL_NHI, PL_EDGE = _neighbour_tables()
# The central square the size of the bonus tile: a quilt that fills it claims the tile.
_MARGIN = (SIZE - data.BONUS_SIZE) // 2
BONUS_AREA_LO, BONUS_AREA_HI = bonus_area(_MARGIN, _MARGIN)


@njit(cache=True)
def _enclosed(new_lo: int, new_hi: int, cand_lo: int, cand_hi: int) -> int:
    """How many of the candidate empty squares have no empty neighbour left."""
    holes = 0
    free_lo = ~new_lo
    free_hi = ~new_hi
    x = cand_lo
    while x:
        sq = K.popcount((x & -x) - 1)
        x &= x - 1
        if (SQ_NLO[sq] & free_lo) == 0 and (SQ_NHI[sq] & free_hi) == 0:
            holes += 1
    x = cand_hi
    while x:
        sq = L.SPLIT + K.popcount((x & -x) - 1)
        x &= x - 1
        if (SQ_NLO[sq] & free_lo) == 0 and (SQ_NHI[sq] & free_hi) == 0:
            holes += 1
    return holes


@njit(cache=True)
def _packing(lo: int, hi: int, k: int, bonus_open: bool) -> float:
    """Placement ``k``'s score before walled-in holes: its sides against patches or the edge,
    and its squares in the bonus area while the tile is open."""
    score = float(K.popcount(PL_NLO[k] & lo) + K.popcount(PL_NHI[k] & hi) + PL_EDGE[k])
    if bonus_open:
        inside = K.popcount(PL_LO[k] & BONUS_AREA_LO) + K.popcount(PL_HI[k] & BONUS_AREA_HI)
        score += BONUS_AREA_WEIGHT * inside
    return score


@njit(cache=True)
def _holes(lo: int, hi: int, k: int) -> int:
    """The empty squares next to placement ``k`` that it walls in alone."""
    new_lo = lo | PL_LO[k]
    new_hi = hi | PL_HI[k]
    return _enclosed(new_lo, new_hi, PL_NLO[k] & ~new_lo, PL_NHI[k] & ~new_hi)


@njit(cache=True)
def placement_score(lo: int, hi: int, k: int, bonus_open: bool) -> float:
    """How good placement ``k`` looks on a quilt (lo, hi): packing minus walled-in holes."""
    return _packing(lo, hi, k, bonus_open) - HOLE_PENALTY * _holes(lo, hi, k)


@njit(cache=True)
def touches(lo: int, hi: int, code: int) -> bool:
    """Whether a buy (move code) lays its patch against the quilt's edge or another patch."""
    k = code - K.BUY_BASE
    return PL_EDGE[k] > 0 or (PL_NLO[k] & lo) != 0 or (PL_NHI[k] & hi) != 0


@njit(cache=True)
def special_score(lo: int, hi: int, sq: int) -> float:
    """A special patch best fills a hole: score the covered or edge sides around it."""
    covered = K.popcount(SQ_NLO[sq] & lo) + K.popcount(SQ_NHI[sq] & hi) + SQ_EDGE[sq]
    return covered * 1.0


@njit(cache=True)
def patch_rate(patch: int, position: int) -> float:
    """Points a patch is worth per space of time it costs (advancing earns about 1)."""
    value = (
        EMPTY_PENALTY * PATCH_CELLS[patch]
        + PATCH_INCOME[patch] * PAYDAYS_AHEAD[position]
        - PATCH_BUTTONS[patch]
    )
    return value / max(PATCH_TIME[patch], 1)


@njit(cache=True)
def sample_placement(s: np.ndarray, p: int, patch: int, tries: int) -> int:
    """A good fitting placement of ``patch`` (global index), or -1 if it fits nowhere.

    Scores ``tries`` random placements and keeps the best that fits; when none of them fits,
    scans the whole list so that "fits nowhere" is exact.
    """
    mode = s[L.MODE]
    lo = s[L.QUILT_LO + p]
    hi = s[L.QUILT_HI + p]
    count = MODE_COUNT[mode, patch]
    bonus_open = s[L.BONUS] < 0
    best = -1
    best_score = -1e9
    for _ in range(tries):
        i = np.random.randint(count)
        if K.footprint_free(mode, patch, i, lo, hi):
            k = MODE_INDEX[mode, patch, i]
            # Holes only lower the score: count them only where packing alone would win.
            sc = _packing(lo, hi, k, bonus_open)
            if sc > best_score:
                sc -= HOLE_PENALTY * _holes(lo, hi, k)
                if sc > best_score:
                    best_score = sc
                    best = k
    if best >= 0:
        return best
    start = np.random.randint(count)
    for j in range(count):
        i = (start + j) % count
        if K.footprint_free(mode, patch, i, lo, hi):
            return MODE_INDEX[mode, patch, i]
    return -1


@njit(cache=True)
def best_special_square(s: np.ndarray, p: int) -> int:
    lo = s[L.QUILT_LO + p]
    hi = s[L.QUILT_HI + p]
    best = -1
    best_score = -1e9
    for sq in range(SIZE * SIZE):
        if K.square_is_empty(s, p, sq):
            sc = special_score(lo, hi, sq) + np.random.random() * 0.5
            if sc > best_score:
                best_score = sc
                best = sq
    return best


@njit(cache=True)
def _jitter(noise: float) -> float:
    """Uniform noise with standard deviation ``noise`` (cheaper than a normal draw)."""
    return noise * 1.7320508 * (2.0 * np.random.random() - 1.0)


@njit(cache=True)
def policy_move(s: np.ndarray, noise: float, tries: int) -> int:
    """One move of the playout policy (a legal move code); the state must not be final."""
    p = K.current_player(s)
    if s[L.PENDING] > 0:
        return K.SPECIAL_BASE + best_special_square(s, p)
    position = s[L.POSITION + p]
    best_code = K.ADVANCE
    best_value = 1.0 + _jitter(noise)
    for j in range(K.offer_size(s)):
        patch = s[L.CIRCLE + j]
        if not K.affordable(s, p, patch):
            continue
        value = patch_rate(patch, position) + _jitter(noise)
        if value <= best_value:
            continue
        k = sample_placement(s, p, patch, tries)
        if k >= 0:
            best_value = value
            best_code = K.BUY_BASE + k
    return best_code


@njit(cache=True)
def playout(s: np.ndarray, noise: float, tries: int) -> None:
    """Play the policy to the end of the game, in place."""
    while not K.is_terminal(s):
        K.apply_move(s, policy_move(s, noise, tries))


@njit(cache=True)
def seed(value: int) -> None:
    np.random.seed(value)
