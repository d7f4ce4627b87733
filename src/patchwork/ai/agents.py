"""Agents: anything with a ``name`` and ``choose(state, limit) -> Move`` can play a seat.

The agents here look one ply ahead at most; they ask the engine for the legal moves and the
state each one leads to, and only judge the result (no rule is decided here).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from ..engine import Move, PatchworkError, State
from ..engine.data import BOARD_SIZE, FINAL_SPACE
from ..engine.kernels import BUY_BASE
from ..engine.moves import move_from_code
from ..engine.tables import PAYDAYS_AHEAD
from . import policy
from .limit import Limit


@runtime_checkable
class Agent(Protocol):
    """A player: ``choose`` returns a legal move for the player to move in ``state``.

    ``limit`` bounds the thinking (a :class:`Limit`, or seconds); agents that do not search
    ignore it.
    """

    name: str

    def choose(self, state: State, limit: Limit | float | None = None) -> Move: ...


def _legal_codes(state: State) -> list[int]:
    if state.current_player is None:
        raise PatchworkError("the game is over: there is no move to choose")
    return [int(c) for c in state.legal_move_codes()]


class RandomAgent:
    """Uniform over the legal moves (every distinct footprint counts once): a baseline."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: State, limit: Limit | float | None = None) -> Move:
        codes = _legal_codes(state)
        return move_from_code(codes[self._rng.randrange(len(codes))])


# -- one-ply evaluation ---------------------------------------------------------------------

_SQUARES = BOARD_SIZE * BOARD_SIZE
_FULL = (1 << _SQUARES) - 1
# Quilt.bits puts square (row, col) at bit 9*row + col of one integer: neighbours are shifts.


def _mask(keep: Callable[[int, int], bool]) -> int:
    return sum(
        1 << (BOARD_SIZE * r + c)
        for r in range(BOARD_SIZE)
        for c in range(BOARD_SIZE)
        if keep(r, c)
    )


_COL_FIRST = _mask(lambda r, c: c == 0)
_COL_LAST = _mask(lambda r, c: c == BOARD_SIZE - 1)
_ROW_FIRST = _mask(lambda r, c: r == 0)
_ROW_LAST = _mask(lambda r, c: r == BOARD_SIZE - 1)


def board_quality(covered: int) -> float:
    """How well a quilt packs (0 is perfect, lower is worse), from its covered-square bits.

    Penalises empty squares shut in on all four sides (only a special patch can fill them),
    dead ends (three sides shut) and every edge between an empty and a covered square: the
    fewer such edges, the more the patches hug each other and the quilt's border.
    """
    empty = _FULL & ~covered
    # Each mask: squares whose neighbour on that side is covered; walls are added below.
    left = (covered << 1) & ~_COL_FIRST & _FULL
    right = (covered >> 1) & ~_COL_LAST
    up = (covered << BOARD_SIZE) & _FULL
    down = covered >> BOARD_SIZE
    ragged = sum((empty & side).bit_count() for side in (left, right, up, down))
    left |= _COL_FIRST
    right |= _COL_LAST
    up |= _ROW_FIRST
    down |= _ROW_LAST
    holes = (empty & left & right & up & down).bit_count()
    three = (left & right & (up | down)) | (up & down & (left | right))
    dead_ends = (empty & three).bit_count() - holes
    return -4.0 * holes - 1.0 * dead_ends - 0.5 * ragged


def evaluate(state: State, player: int) -> float:
    """A static guess at ``player``'s final score from ``state`` (higher is better).

    The engine's score now (buttons, bonus tile, empty-square penalty), plus income for each
    income mark still ahead, plus one button per time-board space still to travel (what
    advancing would pay), plus the board-quality term.
    """
    me = state.players[player]
    value = float(
        state.scores()[player]
        + me.income * int(PAYDAYS_AHEAD[me.position])
        + (FINAL_SPACE - me.position)
    )
    return value + board_quality(me.quilt.bits)


class GreedyAgent:
    """Plays the move whose resulting state evaluates best for the mover; ties at random."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: State, limit: Limit | float | None = None) -> Move:
        player = state.current_player
        codes = _legal_codes(state)
        assert player is not None
        # A person never sews a patch on floating free: keep placements that touch the
        # quilt's edge or a patch already there (as long as there are any).
        quilt = state.players[player].quilt
        touching = [c for c in codes if c < BUY_BASE or policy.touches(quilt.lo, quilt.hi, c)]
        if any(c >= BUY_BASE for c in touching):
            codes = touching
        best = -math.inf
        best_codes: list[int] = []
        for code in codes:
            value = evaluate(state.apply_code(code), player)
            if value > best + 1e-9:
                best, best_codes = value, [code]
            elif value >= best - 1e-9:
                best_codes.append(code)
        return move_from_code(best_codes[self._rng.randrange(len(best_codes))])
