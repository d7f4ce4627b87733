"""The ghost: a patch (or special patch) held over the quilt board before it is sewn on.

Only geometry lives here: the shape in an orientation, turning and mirroring it, keeping
its bounding box on the board, and the move it stands for. Whether that move is allowed is
always asked of the engine (``State.check_legal``), never decided here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..engine import PATCHES, Buy, Move, PlaceSpecial, Rules
from ..engine.data import BOARD_SIZE
from ..engine.tables import orient

Square = tuple[int, int]
SPECIAL_CELLS: tuple[Square, ...] = ((0, 0),)


def shape_cells(patch_id: int | None, orientation: int) -> tuple[Square, ...]:
    """The cells of a patch turned into ``orientation`` (top-left at 0, 0); a special patch
    (``patch_id`` None) is one square."""
    if patch_id is None:
        return SPECIAL_CELLS
    return orient(PATCHES[patch_id].cells, orientation)


def shape_size(cells: tuple[Square, ...]) -> tuple[int, int]:
    """(height, width) of the cells' bounding box."""
    return 1 + max(r for r, _ in cells), 1 + max(c for _, c in cells)


def rotated(orientation: int) -> int:
    """The orientation a quarter turn clockwise from ``orientation``."""
    flip, turns = divmod(orientation, 4)
    return 4 * flip + (turns + 1) % 4


def mirrored(orientation: int) -> int:
    """The orientation that shows the current shape mirrored left-right.

    Orientations mirror first and then turn (R^t M^f); mirroring that picture gives
    M R^t M^f = R^-t M^(f+1).
    """
    flip, turns = divmod(orientation, 4)
    return 4 * (1 - flip) + (-turns) % 4


@dataclass(frozen=True, slots=True)
class Ghost:
    """A patch held at an anchor: the top-left square of its turned shape's bounding box.

    ``patch_id`` None is a special patch. The anchor always keeps the shape on the board.
    """

    patch_id: int | None
    orientation: int = 0
    row: int = 0
    col: int = 0

    @property
    def is_special(self) -> bool:
        return self.patch_id is None

    @property
    def cells(self) -> tuple[Square, ...]:
        """The turned shape's cells, relative to the anchor."""
        return shape_cells(self.patch_id, self.orientation)

    @property
    def squares(self) -> frozenset[Square]:
        """The quilt squares the ghost covers."""
        return frozenset((self.row + r, self.col + c) for r, c in self.cells)

    @property
    def move(self) -> Move:
        """The move that sews the ghost on where it is."""
        if self.patch_id is None:
            return PlaceSpecial(self.row, self.col)
        return Buy(self.patch_id, self.orientation, self.row, self.col)

    def at(self, row: int, col: int) -> Ghost:
        """The ghost with its anchor at (row, col), pulled back onto the board if needed."""
        height, width = shape_size(self.cells)
        row = min(max(row, 0), BOARD_SIZE - height)
        col = min(max(col, 0), BOARD_SIZE - width)
        return replace(self, row=row, col=col)

    def moved(self, d_row: int, d_col: int) -> Ghost:
        return self.at(self.row + d_row, self.col + d_col)

    def turned(self, orientation: int) -> Ghost:
        """The ghost in another orientation, same anchor (kept on the board)."""
        return replace(self, orientation=orientation).at(self.row, self.col)

    @classmethod
    def of(cls, move: Move) -> Ghost | None:
        """The ghost showing a buy or a special placement (None for an advance)."""
        if isinstance(move, Buy):
            return cls(move.patch_id, move.orientation, move.row, move.col)
        if isinstance(move, PlaceSpecial):
            return cls(None, 0, move.row, move.col)
        return None


def can_turn(rules: Rules) -> bool:
    return rules.rotation


def can_mirror(rules: Rules) -> bool:
    return rules.flip


def fitting_anchors(ghost: Ghost, legal: frozenset[Move]) -> frozenset[Square]:
    """Anchors where the ghost, in its current orientation, makes one of the ``legal`` moves
    (the engine's list): where it fits."""
    height, width = shape_size(ghost.cells)
    return frozenset(
        (row, col)
        for row in range(BOARD_SIZE - height + 1)
        for col in range(BOARD_SIZE - width + 1)
        if ghost.at(row, col).move in legal
    )
