"""A learned value: a small network over both quilts, the time board and the circle.

It estimates a two-player position's outcome from the view of the player to move (the final
margin and the chance to win); the search blends it with a playout's at each new leaf
(``mcts.Params.value_mix``). The inputs are ``features``: each quilt square by square, each
player's buttons, income, place on the time board and what is still ahead of it, and the
next patches of the circle. The weights were fitted by ``benchmarks/value_net.py`` to the
search's own estimates in 72,000 positions of its self-play; the package ships them in
``value_weights.npz``. Inference is compiled: a sparse first layer (a covered square adds
its row, an empty one nothing) and two small dense ones, a few microseconds a position.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from numba import njit

from ..engine import data
from ..engine import kernels as K
from ..engine import layout as L
from ..engine.errors import PatchworkError
from ..engine.tables import PATCH_BUTTONS, PATCH_INCOME, PATCH_TIME, PAYDAYS_AHEAD, SPECIAL_SPACES

SQUARES = data.BOARD_SIZE * data.BOARD_SIZE
PATCH_SQUARES = np.array([len(p.cells) for p in data.PATCHES], dtype=np.int64)
CIRCLE_SEEN = 6  # the patches of the circle the network sees, from the first offered
PLAYER_INPUTS = SQUARES + 10
SPECIALS = SPECIAL_SPACES.shape[1]
N_INPUTS = 2 * PLAYER_INPUTS + 2 + 6 * CIRCLE_SEEN + 2 * SPECIALS
MARGIN_SCALE = 20.0  # the network's first output is the margin over this


@njit(cache=True)
def _player(s: np.ndarray, q: int, out: np.ndarray, at: int) -> None:
    lo = s[L.QUILT_LO + q]
    hi = s[L.QUILT_HI + q]
    for sq in range(SQUARES):
        bit = (lo >> sq) & 1 if sq < L.SPLIT else (hi >> (sq - L.SPLIT)) & 1
        out[at + sq] = float(bit)
    at += SQUARES
    buttons = s[L.BUTTONS + q]
    position = s[L.POSITION + q]
    income = s[L.INCOME + q]
    empty = K.empty_squares(s, q)
    paydays = PAYDAYS_AHEAD[position]
    out[at] = buttons / 30.0
    out[at + 1] = income / 15.0
    out[at + 2] = position / data.FINAL_SPACE
    out[at + 3] = paydays / 9.0
    out[at + 4] = empty / SQUARES
    out[at + 5] = income * paydays / 50.0
    # The score the rulebook counts at the end, bonus tile apart, with the income to come.
    out[at + 6] = (buttons + income * paydays - data.EMPTY_PENALTY * empty) / 50.0
    out[at + 7] = 1.0 if s[L.TOP] == q else 0.0
    out[at + 8] = 1.0 if s[L.BONUS] == q else 0.0
    out[at + 9] = 1.0 if s[L.FIRST] == q else 0.0


@njit(cache=True)
def features(s: np.ndarray, p: int, out: np.ndarray) -> None:
    """The network's inputs for a position seen by player ``p`` (own side first)."""
    o = 1 - p
    _player(s, p, out, 0)
    _player(s, o, out, PLAYER_INPUTS)
    at = 2 * PLAYER_INPUTS
    out[at] = 1.0 if s[L.BONUS] < 0 else 0.0
    out[at + 1] = 1.0 if s[L.PENDING] > 0 else 0.0
    at += 2
    for i in range(CIRCLE_SEEN):
        if i < s[L.CIRCLE_LEN]:
            patch = s[L.CIRCLE + i]
            cost = PATCH_BUTTONS[patch]
            out[at] = cost / 10.0
            out[at + 1] = PATCH_TIME[patch] / 6.0
            out[at + 2] = PATCH_INCOME[patch] / 3.0
            out[at + 3] = PATCH_SQUARES[patch] / 8.0
            out[at + 4] = 1.0 if cost <= s[L.BUTTONS + p] else 0.0
            out[at + 5] = 1.0 if cost <= s[L.BUTTONS + o] else 0.0
        else:
            for j in range(6):
                out[at + j] = 0.0
        at += 6
    edition = s[L.EDITION]
    for i in range(SPECIALS):
        space = SPECIAL_SPACES[edition, i]
        there = (s[L.SPECIALS] >> i) & 1
        out[at + i] = 1.0 if there and space > s[L.POSITION + p] else 0.0
        out[at + SPECIALS + i] = 1.0 if there and space > s[L.POSITION + o] else 0.0


@njit(cache=True)
def forward(
    x: np.ndarray,
    net: tuple[np.ndarray, ...],
    h1: np.ndarray,
    h2: np.ndarray,
) -> tuple[float, float]:
    """(chance to win, margin) by the network (``net``: w1, b1, w2, b2, w3, b3) for the side
    whose view the inputs ``x`` are from; ``h1`` and ``h2`` are its hidden layers' room."""
    w1, b1, w2, b2, w3, b3 = net
    h1[:] = b1
    for i in range(len(x)):
        v = x[i]
        if v != 0.0:
            row = w1[i]
            for j in range(len(h1)):
                h1[j] += v * row[j]
    # Row by row, as the first layer: each row of w2 is contiguous, so the inner loop runs
    # in SIMD, and a unit ReLU turned off costs nothing (the sums come out in the same order).
    h2[:] = b2
    for j in range(len(h1)):
        a = h1[j]
        if a > 0.0:
            row = w2[j]
            for k in range(len(h2)):
                h2[k] += a * row[k]
    margin = b3[0]
    logit = b3[1]
    for k in range(len(h2)):
        if h2[k] > 0.0:
            margin += h2[k] * w3[k, 0]
            logit += h2[k] * w3[k, 1]
    return 1.0 / (1.0 + math.exp(-logit)), margin * MARGIN_SCALE


@njit(cache=True)
def evaluate(
    s: np.ndarray,
    net: tuple[np.ndarray, ...],
    x: np.ndarray,
    h1: np.ndarray,
    h2: np.ndarray,
) -> tuple[float, float]:
    """(chance player 0 wins, player 0's margin) by the network, for a live position;
    ``x``, ``h1`` and ``h2`` are its layers' room."""
    p = K.current_player(s)
    features(s, p, x)
    won, margin = forward(x, net, h1, h2)
    if p == 1:
        return 1.0 - won, -margin
    return won, margin


NAMES = ("w1", "b1", "w2", "b2", "w3", "b3")
WEIGHTS_FILE = Path(__file__).with_name("value_weights.npz")


def load(path: Path | str = WEIGHTS_FILE, inputs: int = N_INPUTS) -> tuple[np.ndarray, ...]:
    """The six weight arrays (w1, b1, w2, b2, w3, b3) of an ``.npz`` file
    ``benchmarks/value_net.py fit`` wrote, checked against this version's ``inputs``."""
    path = Path(path)
    try:
        with np.load(path) as f:
            arrays = tuple(np.ascontiguousarray(f[k], dtype=np.float64) for k in NAMES)
    except OSError as e:
        raise PatchworkError(f"cannot read the value weights {path}: {e}") from e
    except KeyError as e:
        raise PatchworkError(f"the value weights {path} need arrays {', '.join(NAMES)}: {e}") from e
    except (ValueError, EOFError) as e:
        raise PatchworkError(f"the value weights {path} are not an .npz file of numbers") from e
    w1, b1, w2, b2, w3, b3 = arrays
    shapes_fit = (
        w1.ndim == 2
        and w1.shape[0] == inputs
        and b1.shape == (w1.shape[1],)
        and w2.ndim == 2
        and w2.shape[0] == w1.shape[1]
        and b2.shape == (w2.shape[1],)
        and w3.shape == (w2.shape[1], 2)
        and b3.shape == (2,)
    )
    if not shapes_fit:
        raise PatchworkError(
            f"the value weights {path} do not fit this version's {inputs} inputs "
            f"(shapes {', '.join(str(a.shape) for a in arrays)})"
        )
    if not all(np.isfinite(a).all() for a in arrays):
        raise PatchworkError(f"the value weights {path} must all be finite numbers")
    return arrays


WEIGHTS = load()  # the package's, fitted to the searcher's self-play (docs/strength.md)
