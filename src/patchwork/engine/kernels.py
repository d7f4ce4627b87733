"""The rules of Patchwork, once, as Numba-compiled kernels over a flat int64 state vector.

Everything else in the package (the Python objects, the AI, the user interfaces) asks these
functions; no rule is written anywhere else. With ``NUMBA_DISABLE_JIT=1`` they run as plain
Python, which is how coverage and debugging see them.

The state vector's layout is written once, in ``layout``.

Move codes: ADVANCE (0); 1 + square for placing a special patch (square = 9*row + col);
BUY_BASE + the global placement index of ``tables`` for buying and placing a patch.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import data
from .layout import (
    BONUS,
    BUTTONS,
    CIRCLE,
    CIRCLE_LEN,
    EDITION,
    FIRST,
    INCOME,
    MODE,
    PENDING,
    PENDING_PLAYER,
    POSITION,
    QUILT_HI,
    QUILT_LO,
    SPECIALS,
    SPLIT,
    TOP,
)
from .tables import (
    BONUS_HI,
    BONUS_LO,
    CANONICAL,
    INCOME_SPACES,
    MODE_COUNT,
    MODE_HI,
    MODE_INDEX,
    MODE_LO,
    PATCH_BUTTONS,
    PATCH_INCOME,
    PATCH_TIME,
    PL_HI,
    PL_LO,
    PL_PATCH,
    SPECIAL_SPACES,
)

ADVANCE = 0
SPECIAL_BASE = 1
NUM_SQUARES = data.BOARD_SIZE * data.BOARD_SIZE
BUY_BASE = SPECIAL_BASE + NUM_SQUARES
NUM_PLACEMENTS = len(PL_PATCH)
# Room for the longest legal-move list (advance + 3 patches x widest) plus one scratch slot.
MAX_MOVES = 2 + data.OFFERED_PATCHES * MODE_INDEX.shape[2]

FINAL = data.FINAL_SPACE
OFFERED = data.OFFERED_PATCHES
BONUS_POINTS = data.BONUS_POINTS
EMPTY_PENALTY = data.EMPTY_PENALTY


@njit(cache=True)
def popcount(x: int) -> int:
    # LLVM turns this loop into a single popcnt instruction.
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def empty_squares(s: np.ndarray, p: int) -> int:
    return NUM_SQUARES - popcount(s[QUILT_LO + p]) - popcount(s[QUILT_HI + p])


@njit(cache=True)
def square_is_empty(s: np.ndarray, p: int, sq: int) -> bool:
    if sq < SPLIT:
        return (s[QUILT_LO + p] >> sq) & 1 == 0
    return (s[QUILT_HI + p] >> (sq - SPLIT)) & 1 == 0


@njit(cache=True)
def footprint_free(mode: int, patch: int, i: int, lo: int, hi: int) -> bool:
    """Whether the i-th listed footprint of ``patch`` (rules mode ``mode``) misses every
    covered square of the quilt (lo, hi): the one overlap test of the rules."""
    return ((MODE_LO[mode, patch, i] & lo) | (MODE_HI[mode, patch, i] & hi)) == 0


@njit(cache=True)
def affordable(s: np.ndarray, p: int, patch: int) -> bool:
    return PATCH_BUTTONS[patch] <= s[BUTTONS + p]


@njit(cache=True)
def fits_somewhere(s: np.ndarray, p: int, patch: int) -> bool:
    mode = s[MODE]
    lo = s[QUILT_LO + p]
    hi = s[QUILT_HI + p]
    for i in range(MODE_COUNT[mode, patch]):  # noqa: SIM110 (a plain loop compiles best)
        if footprint_free(mode, patch, i, lo, hi):
            return True
    return False


@njit(cache=True)
def is_terminal(s: np.ndarray) -> bool:
    return s[POSITION] == FINAL and s[POSITION + 1] == FINAL and s[PENDING] == 0


@njit(cache=True)
def current_player(s: np.ndarray) -> int:
    """The player to move: a pending special patch first, then the token further behind."""
    if s[PENDING] > 0:
        return s[PENDING_PLAYER]
    a = s[POSITION]
    b = s[POSITION + 1]
    if a == FINAL and b == FINAL:
        return -1
    if a < b:
        return 0
    if b < a:
        return 1
    return s[TOP]


@njit(cache=True)
def legal_moves(s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal move codes into ``out`` (size >= MAX_MOVES); return how many."""
    p = current_player(s)
    if p < 0:
        return 0
    lo = s[QUILT_LO + p]
    hi = s[QUILT_HI + p]
    n = 0
    if s[PENDING] > 0:
        for sq in range(NUM_SQUARES):
            if square_is_empty(s, p, sq):
                out[n] = SPECIAL_BASE + sq
                n += 1
        return n
    out[0] = ADVANCE
    n = 1
    mode = s[MODE]
    for j in range(offer_size(s)):
        patch = s[CIRCLE + j]
        if not affordable(s, p, patch):
            continue
        for i in range(MODE_COUNT[mode, patch]):
            # Branch-free: always write, only keep the slot when the footprint fits.
            out[n] = BUY_BASE + MODE_INDEX[mode, patch, i]
            n += footprint_free(mode, patch, i, lo, hi)
    return n


@njit(cache=True)
def offered_slot(s: np.ndarray, patch: int) -> int:
    """Where ``patch`` stands among the offered patches, or -1 if it is not offered."""
    for j in range(offer_size(s)):
        if s[CIRCLE + j] == patch:
            return j
    return -1


@njit(cache=True)
def fits(s: np.ndarray, p: int, k: int) -> bool:
    return (PL_LO[k] & s[QUILT_LO + p]) == 0 and (PL_HI[k] & s[QUILT_HI + p]) == 0


@njit(cache=True)
def is_legal(s: np.ndarray, code: int) -> bool:
    p = current_player(s)
    if p < 0:
        return False
    if s[PENDING] > 0:
        sq = code - SPECIAL_BASE
        return 0 <= sq < NUM_SQUARES and square_is_empty(s, p, sq)
    if code == ADVANCE:
        return True
    k = code - BUY_BASE
    if k < 0 or k >= NUM_PLACEMENTS or CANONICAL[s[MODE], k] != k:
        return False
    patch = PL_PATCH[k]
    return offered_slot(s, patch) >= 0 and affordable(s, p, patch) and fits(s, p, k)


@njit(cache=True)
def _reverse(s: np.ndarray, a: int, b: int) -> None:
    b -= 1
    while a < b:
        t = s[a]
        s[a] = s[b]
        s[b] = t
        a += 1
        b -= 1


@njit(cache=True)
def next_offer_size(s: np.ndarray, slot: int) -> int:
    """How many patches are offered after a move that buys the patch at circle ``slot``
    (-1: a move that buys none, so also how many are offered now)."""
    return min(OFFERED, s[CIRCLE_LEN] - (1 if slot >= 0 else 0))


@njit(cache=True)
def offer_size(s: np.ndarray) -> int:
    """How many patches are offered now: the first three of the circle, or all that are left."""
    return next_offer_size(s, -1)


@njit(cache=True)
def next_offer(s: np.ndarray, slot: int, k: int) -> int:
    """The k-th patch offered after a move that buys the patch at circle ``slot`` (-1: one
    that buys none): the neutral token moves onto the bought patch's place, so the offer
    starts just past it (``_take_from_circle``). ``k < next_offer_size(s, slot)``."""
    return s[CIRCLE + (slot + 1 + k) % s[CIRCLE_LEN]]


@njit(cache=True)
def _take_from_circle(s: np.ndarray, slot: int) -> None:
    """Move the neutral token onto ``slot`` and lift that patch out of the circle."""
    n = s[CIRCLE_LEN]
    # Rotate left by slot + 1 (three reversals): the patches after it come first, the
    # skipped ones follow, and the chosen one ends up last, where it is dropped.
    _reverse(s, CIRCLE, CIRCLE + slot + 1)
    _reverse(s, CIRCLE + slot + 1, CIRCLE + n)
    _reverse(s, CIRCLE, CIRCLE + n)
    s[CIRCLE + n - 1] = -1
    s[CIRCLE_LEN] = n - 1


@njit(cache=True)
def covers_bonus_square(s: np.ndarray, p: int) -> bool:
    """Whether p's quilt board has some aligned 7x7 square completely covered."""
    lo = s[QUILT_LO + p]
    hi = s[QUILT_HI + p]
    for i in range(len(BONUS_LO)):
        if (lo & BONUS_LO[i]) == BONUS_LO[i] and (hi & BONUS_HI[i]) == BONUS_HI[i]:
            return True
    return False


@njit(cache=True)
def _check_bonus(s: np.ndarray, p: int) -> None:
    if s[BONUS] < 0 and covers_bonus_square(s, p):
        s[BONUS] = p


@njit(cache=True)
def income_due(old: int, target: int, income: int) -> int:
    """What the button-income marks pay a token moving from ``old`` to ``target``: the
    player's ``income`` for every mark crossed or landed on (old < mark <= target)."""
    paid = 0
    for mark in INCOME_SPACES:
        if old < mark <= target:
            paid += income
    return paid


@njit(cache=True)
def special_between(s: np.ndarray, i: int, old: int, target: int) -> bool:
    """Whether the edition's i-th special patch still lies on a space a token moving from
    ``old`` to ``target`` crosses or lands on (old < space <= target): it takes it."""
    space = SPECIAL_SPACES[s[EDITION]][i]
    return (s[SPECIALS] >> i) & 1 == 1 and old < space <= target


@njit(cache=True)
def advance_target(s: np.ndarray, p: int) -> int:
    """Where advancing puts p's token: the space just past the opponent's, at most the end."""
    return min(s[POSITION + 1 - p] + 1, FINAL)


@njit(cache=True)
def moves_again(s: np.ndarray, p: int, target: int) -> bool:
    """Whether p, its token moved to ``target``, moves next (special patches aside): the
    token further behind moves, and one landing on the other's goes on top of it."""
    return target < FINAL and target <= s[POSITION + 1 - p]


@njit(cache=True)
def _move_token(s: np.ndarray, p: int, target: int) -> None:
    """Move p's time token to ``target``; every mark crossed pays (``income_due``)."""
    old = s[POSITION + p]
    s[BUTTONS + p] += income_due(old, target, s[INCOME + p])
    for i in range(len(SPECIAL_SPACES[s[EDITION]])):
        if special_between(s, i, old, target):
            s[SPECIALS] &= ~(1 << i)
            s[PENDING] += 1
            s[PENDING_PLAYER] = p
    land(s, p, target)


@njit(cache=True)
def land(s: np.ndarray, p: int, target: int) -> None:
    """Put p's time token on ``target``: on top of a token there, first to the end if so."""
    s[POSITION + p] = target
    if target == s[POSITION + 1 - p]:
        s[TOP] = p
    if target == FINAL and s[FIRST] < 0:
        s[FIRST] = p


@njit(cache=True)
def apply_move(s: np.ndarray, code: int) -> None:
    """Play a legal move in place (legality is the caller's job: see ``is_legal``)."""
    p = current_player(s)
    if s[PENDING] > 0:
        sq = code - SPECIAL_BASE
        if sq < SPLIT:
            s[QUILT_LO + p] |= 1 << sq
        else:
            s[QUILT_HI + p] |= 1 << (sq - SPLIT)
        s[PENDING] -= 1
        _check_bonus(s, p)
    elif code == ADVANCE:
        target = advance_target(s, p)
        s[BUTTONS + p] += target - s[POSITION + p]
        _move_token(s, p, target)
    else:
        k = code - BUY_BASE
        patch = PL_PATCH[k]
        _take_from_circle(s, offered_slot(s, patch))
        s[BUTTONS + p] -= PATCH_BUTTONS[patch]
        s[QUILT_LO + p] |= PL_LO[k]
        s[QUILT_HI + p] |= PL_HI[k]
        s[INCOME + p] += PATCH_INCOME[patch]
        _check_bonus(s, p)
        _move_token(s, p, min(s[POSITION + p] + PATCH_TIME[patch], FINAL))
    # A special patch with no empty square left to go on is discarded.
    if s[PENDING] > 0 and empty_squares(s, s[PENDING_PLAYER]) == 0:
        s[PENDING] = 0
    if s[PENDING] == 0:
        s[PENDING_PLAYER] = 0  # one way to write "nobody", so equal positions compare equal


@njit(cache=True)
def score(s: np.ndarray, p: int) -> int:
    bonus = BONUS_POINTS if s[BONUS] == p else 0
    return s[BUTTONS + p] + bonus - EMPTY_PENALTY * empty_squares(s, p)


@njit(cache=True)
def winner(s: np.ndarray) -> int:
    """The winner of a finished game: higher score, ties to the first to reach the end."""
    a = score(s, 0)
    b = score(s, 1)
    if a > b:
        return 0
    if b > a:
        return 1
    return s[FIRST]
