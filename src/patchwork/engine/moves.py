"""Moves and their notation (see docs/notation.md).

    A            advance (action A)
    17r90@c4     buy patch 17, turned 90 degrees clockwise, its bounding box's top-left on c4
    5f180@a1     buy patch 5, mirrored left-right and then turned 180 degrees, at a1
    S@e5         place a special patch on e5

Squares read like chess squares: columns a-i left to right, rows 1-9 top to bottom (a1 is
the top-left corner of the quilt board).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from functools import cache
from typing import NoReturn, Protocol

from . import data
from . import kernels as K
from .errors import N_, IllegalMoveError, InvalidMoveError
from .tables import (
    CANONICAL,
    ORIENTATION_NAMES,
    PL_COL,
    PL_HI,
    PL_LO,
    PL_ORIENT,
    PL_PATCH,
    PL_ROW,
    PLACEMENT_INDEX,
    squares_of,
)

COLUMNS = "abcdefghi"
Square = tuple[int, int]


def square_name(row: int, col: int) -> str:
    return f"{COLUMNS[col]}{row + 1}"


def parse_square(text: str) -> Square:
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in COLUMNS or t[1] not in "123456789":
        raise InvalidMoveError(
            N_("bad square {text}: use a column a-i and a row 1-9, like e5"), text=repr(text)
        )
    return int(t[1]) - 1, COLUMNS.index(t[0])


def _off_the_board(row: int, col: int) -> NoReturn:
    raise InvalidMoveError(N_("square ({row}, {col}) is off the quilt board"), row=row, col=col)


def _check_ints(**fields: object) -> None:
    for name, value in fields.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidMoveError(
                N_("{field} must be a whole number, not {value}"), field=name, value=repr(value)
            )


class Judge(Protocol):
    """What judges a move in a position (a ``State``; this module sits below it)."""

    def check_legal(self, move: Move) -> int: ...


class Move(ABC):
    """A move: :class:`Advance`, :class:`Buy` or :class:`PlaceSpecial`."""

    __slots__ = ()

    @property
    @abstractmethod
    def squares(self) -> frozenset[Square]:
        """The quilt squares this move covers (empty for an advance)."""

    @abstractmethod
    def code(self, mode: int) -> int:
        """The kernel's move code under the rules mode (allowed orientations)."""

    @staticmethod
    def parse(text: str, state: Judge) -> Move:
        """Read a move in the notation and check that it is legal in ``state``."""
        move = parse_move(text)
        state.check_legal(move)
        return move


@dataclass(frozen=True, slots=True)
class Advance(Move):
    """Action A: move just past the opponent's time token, one button per space."""

    @property
    def squares(self) -> frozenset[Square]:
        return frozenset()

    def code(self, mode: int) -> int:
        return K.ADVANCE

    def __str__(self) -> str:
        return "A"


@dataclass(frozen=True, slots=True)
class PlaceSpecial(Move):
    """Place a special (1x1 leather) patch on one empty square."""

    row: int
    col: int

    def __post_init__(self) -> None:
        _check_ints(row=self.row, col=self.col)
        if not (0 <= self.row < data.BOARD_SIZE and 0 <= self.col < data.BOARD_SIZE):
            _off_the_board(self.row, self.col)

    @property
    def squares(self) -> frozenset[Square]:
        return frozenset({(self.row, self.col)})

    def code(self, mode: int) -> int:
        return K.SPECIAL_BASE + data.BOARD_SIZE * self.row + self.col

    def __str__(self) -> str:
        return f"S@{square_name(self.row, self.col)}"


@dataclass(frozen=True, slots=True, eq=False)
class Buy(Move):
    """Action B: buy ``patch_id`` and sew it on with ``orientation`` at anchor (row, col).

    ``orientation`` is 0-7: ``4 * flipped + quarter turns clockwise`` (mirror first, then
    turn); the anchor is the top-left square of the turned shape's bounding box. Two buys
    of one patch covering the same squares are equal, whatever orientation names them.
    """

    patch_id: int
    orientation: int
    row: int
    col: int
    placement: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        _check_ints(
            patch_id=self.patch_id, orientation=self.orientation, row=self.row, col=self.col
        )
        if not 0 <= self.patch_id < data.NUM_PATCHES:
            raise InvalidMoveError(
                N_("no patch {patch}: patches are numbered 0-{last}"),
                patch=self.patch_id,
                last=data.NUM_PATCHES - 1,
            )
        if not 0 <= self.orientation < len(ORIENTATION_NAMES):
            raise InvalidMoveError(
                N_("orientation {orientation} is not one of 0-{last}"),
                orientation=self.orientation,
                last=len(ORIENTATION_NAMES) - 1,
            )
        if not (0 <= self.row < data.BOARD_SIZE and 0 <= self.col < data.BOARD_SIZE):
            _off_the_board(self.row, self.col)
        k = int(PLACEMENT_INDEX[self.patch_id, self.orientation, self.row, self.col])
        if k < 0:
            raise InvalidMoveError(
                # TRANSLATORS: {orientation} is notation (r0, r90, f180...), {square} a square.
                N_("patch {patch} in {orientation} at {square} sticks out of the quilt board"),
                patch=self.patch_id,
                orientation=ORIENTATION_NAMES[self.orientation],
                square=square_name(self.row, self.col),
            )
        object.__setattr__(self, "placement", k)

    @property
    def footprint(self) -> tuple[int, int]:
        return int(PL_LO[self.placement]), int(PL_HI[self.placement])

    @property
    def squares(self) -> frozenset[Square]:
        return squares_of(*self.footprint)

    def code(self, mode: int) -> int:
        k = int(CANONICAL[mode, self.placement])
        if k < 0:
            if self.orientation >= 4 and not mode & 1:
                template = N_(
                    "{move}: orientation {orientation} needs flipping patches, "
                    "which these rules do not allow"
                )
                plain = N_("Flipping patches is off in this game (house rule).")
            else:
                template = N_(
                    "{move}: orientation {orientation} needs turning patches, "
                    "which these rules do not allow"
                )
                plain = N_("Turning patches is off in this game (house rule).")
            raise IllegalMoveError(
                template,
                move=str(self),
                plain=plain,
                orientation=ORIENTATION_NAMES[self.orientation],
            )
        return K.BUY_BASE + k

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Buy)
            and self.patch_id == other.patch_id
            and self.footprint == other.footprint
        )

    def __hash__(self) -> int:
        return hash((Buy, self.patch_id, self.footprint))

    def __str__(self) -> str:
        name = ORIENTATION_NAMES[self.orientation]
        return f"{self.patch_id}{name}@{square_name(self.row, self.col)}"


ADVANCE: Advance = Advance()

# Spaces may stand between the parts (patch, orientation, "@", square), not inside one; the
# "@" is required, an orientation is a letter and its degrees, and digits are ASCII (the
# terminal game turns the digits a person types into ASCII before reading).
_BUY = re.compile(r"([0-9]{1,2}) *(?:([rf])(0|90|180|270))? *@ *([a-z][0-9])")
_SPECIAL = re.compile(r"s *@ *([a-z][0-9])")


def parse_move(text: str) -> Move:
    """Read a move in the notation (no position needed, so no legality check)."""
    if not isinstance(text, str):
        raise InvalidMoveError(N_("a move is text, not {type}"), type=type(text).__name__)
    t = text.strip().lower()
    if t in ("a", "advance"):
        return ADVANCE
    m = _SPECIAL.fullmatch(t)
    if m:
        return PlaceSpecial(*parse_square(m.group(1)))
    m = _BUY.fullmatch(t)
    if m:
        patch, kind, degrees, square = m.groups()
        turns = int(degrees or 0) // 90
        orientation = (4 if kind == "f" else 0) + turns
        return Buy(int(patch), orientation, *parse_square(square))
    raise InvalidMoveError(
        # TRANSLATORS: A, S@e5, 17r90@c4 and r0 ... f270 are notation: keep them as they are.
        N_(
            "cannot read move {text}: write A to advance, S@e5 to place a special patch, "
            "or patch, orientation and square to buy, like 17r90@c4 (orientations r0 r90 r180 "
            "r270 f0 f90 f180 f270)"
        ),
        text=repr(text),
    )


@cache
def move_from_code(code: int) -> Move:
    """The Move object for a kernel move code (cached: moves are immutable)."""
    if code == K.ADVANCE:
        return ADVANCE
    if code < K.BUY_BASE:
        row, col = divmod(code - K.SPECIAL_BASE, data.BOARD_SIZE)
        return PlaceSpecial(row, col)
    k = code - K.BUY_BASE
    return Buy(int(PL_PATCH[k]), int(PL_ORIENT[k]), int(PL_ROW[k]), int(PL_COL[k]))
