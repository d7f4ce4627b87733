"""Exact search for the last moves of a game: alpha-beta over every legal move.

The value of a finished game for player 0 is ``+-WIN + margin``: winning comes first (ties
broken as the rules say), then the score margin. Player 0 maximises, player 1 minimises,
and since turns do not alternate each node asks the engine who is to move. The search gives
up (returns None) once it has visited ``budget`` nodes, and the sampling search takes over.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..engine import kernels as K
from ..engine import layout as L
from ..engine.data import FINAL_SPACE
from ..engine.moves import Move, move_from_code
from ..engine.state import State
from ..engine.tables import PL_PATCH
from . import policy

WIN = 1000
MAX_PLIES = 64
# Try the exact search once both tokens together are this close to the end: at 16 rather than
# 12 the searcher won 222 of 400 paired games at 10,000 iterations, and at 20 rather than 16
# 221 of 400 (README, "The AI"); a failed attempt costs about 0.1 s at its node budget.
ENDGAME_SPACES = 20


@dataclass(frozen=True)
class Solution:
    line: list[Move]
    value0: int
    winner: int
    margin0: int
    nodes: int


@njit(cache=True)
def _value0(s: np.ndarray) -> int:
    margin = K.score(s, 0) - K.score(s, 1)
    return (WIN if K.winner(s) == 0 else -WIN) + margin


@njit(cache=True)
def order_moves(s: np.ndarray, moves: np.ndarray, n: int, scores: np.ndarray) -> None:
    """Likely best first (alpha-beta cuts more): patches by the policy's worth per space of
    time against advancing's 1, each patch's placements by how well they pack."""
    p = K.current_player(s)
    lo = s[L.QUILT_LO + p]
    hi = s[L.QUILT_HI + p]
    position = s[L.POSITION + p]
    for i in range(n):
        code = moves[i]
        if code == K.ADVANCE:
            scores[i] = 100.0
        elif code < K.BUY_BASE:
            scores[i] = policy.special_score(lo, hi, code - K.SPECIAL_BASE)
        else:
            k = code - K.BUY_BASE
            contact = K.popcount(policy.PL_NLO[k] & lo) + K.popcount(policy.PL_NHI[k] & hi)
            scores[i] = (
                100.0 * policy.patch_rate(PL_PATCH[k], position) + contact + policy.PL_EDGE[k]
            )
    order = np.argsort(-scores[:n], kind="mergesort")
    tmp = moves[:n].copy()
    for i in range(n):
        moves[i] = tmp[order[i]]


@njit(cache=True)
def spaces_left(s: np.ndarray) -> int:
    """How far both time tokens together still are from the end."""
    return 2 * FINAL_SPACE - s[L.POSITION] - s[L.POSITION + 1]


@njit(cache=True)
def outcome(value0: int) -> tuple[float, float]:
    """A solved value for player 0 as (1.0 if player 0 wins else 0.0, score margin)."""
    if value0 > 0:
        return 1.0, float(value0 - WIN)
    return 0.0, float(value0 + WIN)


@njit(cache=True)
def workspace(
    n: int, depth: int = MAX_PLIES
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The solver's stack for states of length ``n``, ``depth`` plies deep: allocated once by
    a caller that solves many small positions (a megabyte costs more than solving a few
    hundred nodes)."""
    states = np.empty((depth, n), dtype=np.int64)
    moves = np.empty((depth, K.MAX_MOVES), dtype=np.int64)
    plies = np.empty((7, depth), dtype=np.int64)  # count, index, mover, best, alpha, ...
    pv = np.empty((depth, depth), dtype=np.int64)
    scores = np.empty(K.MAX_MOVES, dtype=np.float64)
    return states, moves, plies, pv, scores


@njit(cache=True)
def open_ply(
    states: np.ndarray, moves: np.ndarray, plies: np.ndarray, d: int, scores: np.ndarray
) -> None:
    """Ply ``d`` of a solver's stack: its legal moves, likely best first, none tried yet."""
    plies[0, d] = K.legal_moves(states[d], moves[d])
    order_moves(states[d], moves[d], plies[0, d], scores)
    plies[1, d] = 0


@njit(cache=True)
def take_line(pv: np.ndarray, pv_len: np.ndarray, d: int, code: int) -> None:
    """Ply ``d``'s best line becomes ``code`` followed by the line of the ply below it."""
    pv[d, 0] = code
    m = pv_len[d + 1]
    pv[d, 1 : m + 1] = pv[d + 1, :m]
    pv_len[d] = m + 1


@njit(cache=True)
def solve(s: np.ndarray, budget: int, line: np.ndarray) -> tuple[int, int, int]:
    """(value for player 0, moves in the line, nodes visited); nodes < 0 when out of budget."""
    states, moves, plies, pv, scores = workspace(len(s))
    return solve_in(s, budget, line, states, moves, plies, pv, scores)


@njit(cache=True)
def solve_in(
    s: np.ndarray,
    budget: int,
    line: np.ndarray,
    states: np.ndarray,
    moves: np.ndarray,
    plies: np.ndarray,
    pv: np.ndarray,
    scores: np.ndarray,
) -> tuple[int, int, int]:
    """``solve`` in a ``workspace``. Depth-first with an explicit stack (one row per ply),
    so no recursion in compiled code."""
    count = plies[0]
    index = plies[1]
    mover = plies[2]
    best = plies[3]
    alpha = plies[4]
    beta = plies[5]
    pv_len = plies[6]
    inf = 1 << 40
    states[0] = s
    if K.is_terminal(s):
        return _value0(s), 0, 0
    nodes = 1
    d = 0
    alpha[0] = -inf
    beta[0] = inf
    mover[0] = K.current_player(s)
    open_ply(states, moves, plies, 0, scores)
    best[0] = -inf if mover[0] == 0 else inf
    pv_len[0] = 0
    while True:
        if index[d] < count[d] and alpha[d] < beta[d]:
            code = moves[d, index[d]]
            index[d] += 1
            c = d + 1
            if c >= len(states) or nodes >= budget:
                return 0, 0, -1
            states[c] = states[d]
            K.apply_move(states[c], code)
            nodes += 1
            pv_len[c] = 0
            if not K.is_terminal(states[c]):
                d = c
                alpha[d] = alpha[d - 1]
                beta[d] = beta[d - 1]
                mover[d] = K.current_player(states[d])
                open_ply(states, moves, plies, d, scores)
                best[d] = -inf if mover[d] == 0 else inf
                continue
            v = _value0(states[c])
        else:
            if d == 0:
                break
            v = best[d]
            d -= 1
            code = moves[d, index[d] - 1]
        # Back up the value v of the child at ply d + 1 into ply d.
        if (mover[d] == 0 and v > best[d]) or (mover[d] == 1 and v < best[d]):
            best[d] = v
            take_line(pv, pv_len, d, code)
        if mover[d] == 0:
            alpha[d] = max(alpha[d], v)
        else:
            beta[d] = min(beta[d], v)
    n = pv_len[0]
    line[:n] = pv[0, :n]
    return best[0], n, nodes


def near_end(state: State, spaces: int = ENDGAME_SPACES) -> bool:
    return bool(spaces_left(state.vector) <= spaces)


def solve_state(state: State, budget: int, spaces: int = ENDGAME_SPACES) -> Solution | None:
    """The exact best line from ``state`` if it is near the end and within ``budget`` nodes."""
    if state.is_terminal() or not near_end(state, spaces):
        return None
    line = np.zeros(MAX_PLIES, dtype=np.int64)
    value, n, nodes = solve(state.vector, budget, line)
    if nodes < 0 or n == 0:
        return None
    moves = [move_from_code(int(c)) for c in line[:n]]
    end = state
    for m in moves:
        end = end.apply(m)
    scores = end.scores()
    winner = end.winner()
    return Solution(
        line=moves,
        value0=int(value),
        winner=-1 if winner is None else winner,
        margin0=scores[0] - scores[1],
        nodes=int(nodes),
    )
