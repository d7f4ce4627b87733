"""Agents: anything with a ``name`` and ``choose(state, limit) -> Move`` can play a seat.

The agents here look one ply ahead at most; they ask the engine for the legal moves and the
state each one leads to, and only judge the result (no rule is decided here).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ..engine import Move, PatchworkError, State
from ..engine.data import BOARD_SIZE, FINAL_SPACE
from ..engine.kernels import BUY_BASE
from ..engine.moves import Buy, move_from_code
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


@dataclass(frozen=True)
class Sight:
    """How much of each part of :func:`evaluate` a player sees: 1 is all of it.

    The blind spots of people learning the game (what the ladder's lowest levels play): a
    low ``income`` buys the patches that pay late or never, ``time`` forgets that time spent
    is buttons lost, ``packing`` sews a patch where it walls off its own corner.
    """

    income: float = 1.0
    time: float = 1.0
    packing: float = 1.0

    @classmethod
    def parse(cls, text: str) -> Sight:
        """``"0.3:0.5:0"``: income, time and packing, as tournament settings write it."""
        parts = text.split(":")
        if len(parts) != 3:
            raise ValueError(f"{text!r} is not income:time:packing, like 0.5:1:0.2")
        return cls(*(float(p) for p in parts))


FULL_SIGHT = Sight()


def evaluate(state: State, player: int, sight: Sight = FULL_SIGHT) -> float:
    """A static guess at ``player``'s final score from ``state`` (higher is better).

    The engine's score now (buttons, bonus tile, empty-square penalty), plus income for each
    income mark still ahead, plus one button per time-board space still to travel (what
    advancing would pay), plus the board-quality term; each weighted by ``sight``.
    """
    me = state.players[player]
    value = (
        state.scores()[player]
        + sight.income * me.income * int(PAYDAYS_AHEAD[me.position])
        + sight.time * (FINAL_SPACE - me.position)
    )
    return value + sight.packing * board_quality(me.quilt.bits)


class GreedyAgent:
    """Plays the move whose resulting state evaluates best for the mover; ties at random.

    With a ``sight`` short of full and some ``noise`` (the standard deviation, in points, of
    a misjudgement added to each move's value) it plays as a person learning the game does:
    sensible-looking moves with that person's blind spots, never a random one.
    """

    def __init__(
        self,
        seed: int | None = None,
        sight: Sight = FULL_SIGHT,
        noise: float = 0.0,
        name: str = "greedy",
    ) -> None:
        self.name = name
        self.sight = sight
        self.noise = noise
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
        # One misjudgement per option (advance, or a patch), shared by its placements: a
        # person misjudges what a patch is worth, then places it as well as they can see.
        misjudged: dict[int, float] = {}
        best = -math.inf
        best_codes: list[int] = []
        for code in codes:
            value = evaluate(state.apply_code(code), player, self.sight)
            if self.noise:
                move = move_from_code(code)
                option = move.patch_id if isinstance(move, Buy) else -1
                if option not in misjudged:
                    misjudged[option] = self._rng.gauss(0.0, self.noise)
                value += misjudged[option]
            if value > best + 1e-9:
                best, best_codes = value, [code]
            elif value >= best - 1e-9:
                best_codes.append(code)
        return move_from_code(best_codes[self._rng.randrange(len(best_codes))])
