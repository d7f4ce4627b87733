"""Frozen copy (see __init__): do not tune.

Exact search for the last moves of a game: alpha-beta over every legal move.

The value of a finished game for player 0 is ``+-WIN + margin``: winning comes first (ties
broken as the rules say), then the score margin. Player 0 maximises, player 1 minimises,
and since turns do not alternate each node asks the engine who is to move. The search gives
up (returns None) once it has visited ``budget`` nodes, and the sampling search takes over.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from patchwork.engine import kernels as K
from patchwork.engine.data import FINAL_SPACE
from patchwork.engine.moves import Move, move_from_code
from patchwork.engine.state import State

WIN = 1000
MAX_PLIES = 64
ENDGAME_SPACES = 12  # try exact search once both tokens together are this close to the end


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
def solve(s: np.ndarray, budget: int, line: np.ndarray) -> tuple[int, int, int]:
    """(value for player 0, moves in the line, nodes visited); nodes < 0 when out of budget.

    Depth-first with an explicit stack (one row per ply), so no recursion in compiled code.
    """
    states = np.empty((MAX_PLIES, len(s)), dtype=np.int64)
    moves = np.empty((MAX_PLIES, K.MAX_MOVES), dtype=np.int64)
    count = np.zeros(MAX_PLIES, dtype=np.int64)
    index = np.zeros(MAX_PLIES, dtype=np.int64)
    mover = np.zeros(MAX_PLIES, dtype=np.int64)
    best = np.zeros(MAX_PLIES, dtype=np.int64)
    alpha = np.zeros(MAX_PLIES, dtype=np.int64)
    beta = np.zeros(MAX_PLIES, dtype=np.int64)
    pv = np.zeros((MAX_PLIES, MAX_PLIES), dtype=np.int64)
    pv_len = np.zeros(MAX_PLIES, dtype=np.int64)
    inf = 1 << 40
    states[0] = s
    if K.is_terminal(s):
        return _value0(s), 0, 0
    nodes = 1
    d = 0
    alpha[0] = -inf
    beta[0] = inf
    mover[0] = K.current_player(s)
    count[0] = K.legal_moves(states[0], moves[0])
    index[0] = 0
    best[0] = -inf if mover[0] == 0 else inf
    pv_len[0] = 0
    while True:
        if index[d] < count[d] and alpha[d] < beta[d]:
            code = moves[d, index[d]]
            index[d] += 1
            c = d + 1
            if c >= MAX_PLIES or nodes >= budget:
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
                count[d] = K.legal_moves(states[d], moves[d])
                index[d] = 0
                best[d] = -inf if mover[d] == 0 else inf
                continue
            v = _value0(states[c])
        else:
            if d == 0:
                break
            v = best[d]
            d -= 1
            c = d + 1
            code = moves[d, index[d] - 1]
        # Back up child c's value v into ply d.
        if (mover[d] == 0 and v > best[d]) or (mover[d] == 1 and v < best[d]):
            best[d] = v
            pv[d, 0] = code
            m = pv_len[c]
            pv[d, 1 : m + 1] = pv[c, :m]
            pv_len[d] = m + 1
        if mover[d] == 0:
            alpha[d] = max(alpha[d], v)
        else:
            beta[d] = min(beta[d], v)
    n = pv_len[0]
    line[:n] = pv[0, :n]
    return best[0], n, nodes


def near_end(state: State, spaces: int = ENDGAME_SPACES) -> bool:
    return sum(FINAL_SPACE - p.position for p in state.players) <= spaces


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
