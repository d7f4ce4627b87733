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
from ..engine.data import FINAL_SPACE
from ..engine.moves import Move, move_from_code
from ..engine.state import State

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
def _search(
    states: np.ndarray,
    moves: np.ndarray,
    pv: np.ndarray,
    pv_len: np.ndarray,
    counter: np.ndarray,
    depth: int,
    alpha: int,
    beta: int,
) -> int:
    s = states[depth]
    pv_len[depth] = 0
    if K.is_terminal(s):
        return _value0(s)
    counter[0] += 1
    if counter[0] > counter[1] or depth + 1 >= MAX_PLIES:
        counter[2] = 1  # out of budget: the caller discards the result
        return 0
    p = K.current_player(s)
    n = K.legal_moves(s, moves[depth])
    best = -(1 << 40) if p == 0 else 1 << 40
    for i in range(n):
        code = moves[depth, i]
        child = states[depth + 1]
        child[:] = s
        K.apply_move(child, code)
        v = _search(states, moves, pv, pv_len, counter, depth + 1, alpha, beta)
        if counter[2]:
            return 0
        if (p == 0 and v > best) or (p == 1 and v < best):
            best = v
            pv[depth, 0] = code
            m = pv_len[depth + 1]
            pv[depth, 1 : m + 1] = pv[depth + 1, :m]
            pv_len[depth] = m + 1
        if p == 0:
            alpha = max(alpha, v)
        else:
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


@njit(cache=True)
def solve(s: np.ndarray, budget: int, line: np.ndarray) -> tuple[int, int, int]:
    """(value for player 0, moves in the line, nodes visited); nodes < 0 when out of budget."""
    states = np.empty((MAX_PLIES, len(s)), dtype=np.int64)
    moves = np.empty((MAX_PLIES, K.MAX_MOVES), dtype=np.int64)
    pv = np.zeros((MAX_PLIES, MAX_PLIES), dtype=np.int64)
    pv_len = np.zeros(MAX_PLIES, dtype=np.int64)
    counter = np.zeros(3, dtype=np.int64)
    counter[1] = budget
    states[0] = s
    value = _search(states, moves, pv, pv_len, counter, 0, -(1 << 40), 1 << 40)
    if counter[2]:
        return 0, 0, -1
    n = pv_len[0]
    line[:n] = pv[0, :n]
    return value, n, counter[0]


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
