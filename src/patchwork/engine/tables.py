"""Precomputed tables the compiled kernels read: every placement footprint, costs, marks.

A quilt board is 81 bits in two 64-bit words (see ``layout``): word 0 holds the rows above
``SPLIT_ROW`` (bit ``9*row + col``), word 1 the others (bit ``9*(row-SPLIT_ROW) + col``).

An orientation is ``4*flip + turns``: the printed shape, mirrored left-right when ``flip``,
then turned ``turns`` quarter turns clockwise. A placement is a (patch, orientation, anchor)
where the anchor is the top-left square of the transformed shape's bounding box. Every
placement gets a global index; for each rules mode (which orientations are allowed) the
distinct footprints of each patch are listed once, by their first allowed orientation.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from . import data
from .layout import SPLIT, quilt_bits

Cells = tuple[tuple[int, int], ...]
I64 = npt.NDArray[np.int64]

ORIENTATIONS = 8
ORIENTATION_NAMES = ("r0", "r90", "r180", "r270", "f0", "f90", "f180", "f270")
NUM_MODES = 4  # mode = 2 * rotation + flip


def mode_of(rotation: bool, flip: bool) -> int:
    return 2 * int(rotation) + int(flip)


def allowed_orientations(mode: int) -> tuple[int, ...]:
    turns = (0, 1, 2, 3) if mode & 2 else (0,)
    flips = (0, 1) if mode & 1 else (0,)
    return tuple(4 * f + t for f in flips for t in turns)


def square_bits(row: int, col: int) -> tuple[int, int]:
    """The (word 0, word 1) bit pattern of one square."""
    sq = data.BOARD_SIZE * row + col
    if sq < SPLIT:
        return 1 << sq, 0
    return 0, 1 << (sq - SPLIT)


def bits_of(squares: object) -> tuple[int, int]:
    lo = hi = 0
    for row, col in squares:  # type: ignore[attr-defined]
        a, b = square_bits(row, col)
        lo |= a
        hi |= b
    return lo, hi


def squares_of(lo: int, hi: int) -> frozenset[tuple[int, int]]:
    bits = quilt_bits(lo, hi)
    out = []
    while bits:
        low = bits & -bits
        out.append(divmod(low.bit_length() - 1, data.BOARD_SIZE))
        bits ^= low
    return frozenset(out)


def bonus_area(row: int, col: int) -> tuple[int, int]:
    """The bit pattern of the 7x7 (bonus tile sized) square whose top-left is (row, col)."""
    size = range(data.BONUS_SIZE)
    return bits_of((row + r, col + c) for r in size for c in size)


def orient(cells: Cells, orientation: int) -> Cells:
    """The cells of a shape in an orientation, normalised to a top-left of (0, 0)."""
    width = 1 + max(c for _, c in cells)
    out = [(r, width - 1 - c) for r, c in cells] if orientation >= 4 else list(cells)
    for _ in range(orientation % 4):
        height = 1 + max(r for r, _ in out)
        out = [(c, height - 1 - r) for r, c in out]
    return tuple(sorted(out))


def _build() -> dict[str, I64]:
    n = data.NUM_PATCHES
    size = data.BOARD_SIZE
    index = np.full((n, ORIENTATIONS, size, size), -1, dtype=np.int64)
    patch_l: list[int] = []
    orient_l: list[int] = []
    row_l: list[int] = []
    col_l: list[int] = []
    lo_l: list[int] = []
    hi_l: list[int] = []
    word0 = (1 << SPLIT) - 1
    for patch in data.PATCHES:
        for o in range(ORIENTATIONS):
            cells = orient(patch.cells, o)
            height = 1 + max(r for r, _ in cells)
            width = 1 + max(c for _, c in cells)
            # The shape at the top-left corner as one 81-bit integer: moving it to (row, col)
            # shifts every square's bit by 9*row + col (it fits, so no square wraps a row).
            shape = quilt_bits(*bits_of(cells))
            for row in range(size - height + 1):
                for col in range(size - width + 1):
                    bits = shape << (size * row + col)
                    lo, hi = bits & word0, bits >> SPLIT
                    patch_l.append(patch.id)
                    orient_l.append(o)
                    row_l.append(row)
                    col_l.append(col)
                    lo_l.append(lo)
                    hi_l.append(hi)
    total = len(patch_l)
    index[patch_l, orient_l, row_l, col_l] = np.arange(total)
    canon = [[-1] * total for _ in range(NUM_MODES)]
    lists: list[list[list[int]]] = [[[] for _ in range(n)] for _ in range(NUM_MODES)]
    by_orientation: list[list[int]] = [[] for _ in range(ORIENTATIONS)]
    for k, o in enumerate(orient_l):
        by_orientation[o].append(k)
    for mode in range(NUM_MODES):
        first: dict[tuple[int, int, int], int] = {}
        for o in allowed_orientations(mode):
            for k in by_orientation[o]:
                key = (patch_l[k], lo_l[k], hi_l[k])
                if key not in first:
                    first[key] = k
                    lists[mode][patch_l[k]].append(k)
                canon[mode][k] = first[key]
    widest = max(len(ks) for per_mode in lists for ks in per_mode)
    mode_count = np.zeros((NUM_MODES, n), dtype=np.int64)
    mode_index = np.zeros((NUM_MODES, n, widest), dtype=np.int64)
    mode_lo = np.zeros((NUM_MODES, n, widest), dtype=np.int64)
    mode_hi = np.zeros((NUM_MODES, n, widest), dtype=np.int64)
    for mode in range(NUM_MODES):
        for p in range(n):
            ks = lists[mode][p]
            mode_count[mode, p] = len(ks)
            mode_index[mode, p, : len(ks)] = ks
            mode_lo[mode, p, : len(ks)] = [lo_l[k] for k in ks]
            mode_hi[mode, p, : len(ks)] = [hi_l[k] for k in ks]
    return {
        "index": index,
        "canon": np.array(canon, dtype=np.int64),
        "patch": np.array(patch_l, dtype=np.int64),
        "orient": np.array(orient_l, dtype=np.int64),
        "row": np.array(row_l, dtype=np.int64),
        "col": np.array(col_l, dtype=np.int64),
        "lo": np.array(lo_l, dtype=np.int64),
        "hi": np.array(hi_l, dtype=np.int64),
        "mode_count": mode_count,
        "mode_index": mode_index,
        "mode_lo": mode_lo,
        "mode_hi": mode_hi,
    }


def _bonus_masks() -> tuple[I64, I64]:
    span = data.BOARD_SIZE - data.BONUS_SIZE + 1
    los, his = [], []
    for r0 in range(span):
        for c0 in range(span):
            lo, hi = bonus_area(r0, c0)
            los.append(lo)
            his.append(hi)
    return np.array(los, dtype=np.int64), np.array(his, dtype=np.int64)


_T = _build()
# (patch, orientation, row, col) -> global placement index, or -1 when off the board.
PLACEMENT_INDEX: I64 = _T["index"]
# [mode, placement] -> the placement listed for that footprint in that mode, -1 if not allowed.
CANONICAL: I64 = _T["canon"]
PL_PATCH: I64 = _T["patch"]
PL_ORIENT: I64 = _T["orient"]
PL_ROW: I64 = _T["row"]
PL_COL: I64 = _T["col"]
PL_LO: I64 = _T["lo"]
PL_HI: I64 = _T["hi"]
MODE_COUNT: I64 = _T["mode_count"]
MODE_INDEX: I64 = _T["mode_index"]
MODE_LO: I64 = _T["mode_lo"]
MODE_HI: I64 = _T["mode_hi"]
BONUS_LO, BONUS_HI = _bonus_masks()

PATCH_BUTTONS: I64 = np.array([p.buttons for p in data.PATCHES], dtype=np.int64)
PATCH_TIME: I64 = np.array([p.time for p in data.PATCHES], dtype=np.int64)
PATCH_INCOME: I64 = np.array([p.income for p in data.PATCHES], dtype=np.int64)
INCOME_SPACES: I64 = np.array(data.INCOME_SPACES, dtype=np.int64)
# [space] -> income marks still ahead of a token there (paydays left).
PAYDAYS_AHEAD: I64 = np.array(
    [sum(1 for m in data.INCOME_SPACES if m > s) for s in range(data.FINAL_SPACE + 1)],
    dtype=np.int64,
)
EDITION_INDEX = {edition: i for i, edition in enumerate(data.EDITIONS)}
SPECIAL_SPACES: I64 = np.array([data.SPECIAL_SPACES[e] for e in data.EDITIONS], dtype=np.int64)
FULL_LO, FULL_HI = bits_of((r, c) for r in range(data.BOARD_SIZE) for c in range(data.BOARD_SIZE))
