"""A second, deliberately plain implementation of the rules in RULES.md, for differential tests.

It shares nothing with the engine but the component numbers (``patchwork.PATCHES``): shapes are
turned with string rows, quilt boards are one 81-bit Python int (bit ``9*row + col``), and the
special patches still on the time board are an explicit list rather than derived from the time
tokens. It is slow and simple on purpose; the tests compare it with the engine move by move.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import cache

import patchwork as pw

SIZE = 9
FINAL = 53
INCOME_MARKS = (5, 11, 17, 23, 29, 35, 41, 47, 53)
SPECIALS = {"revised": (26, 32, 38, 44, 50), "original": (20, 26, 32, 44, 50)}
FULL = (1 << SIZE * SIZE) - 1
BONUS_WINDOWS = tuple(
    sum(1 << (SIZE * (r0 + r) + c0 + c) for r in range(7) for c in range(7))
    for r0 in range(3)
    for c0 in range(3)
)

Key = tuple[object, ...]  # ("A",), ("S", row, col) or ("B", patch, mask)


def mask_of(squares: object) -> int:
    return sum(1 << (SIZE * r + c) for r, c in squares)  # type: ignore[attr-defined]


def squares_of_mask(mask: int) -> frozenset[tuple[int, int]]:
    return frozenset(divmod(i, SIZE) for i in range(SIZE * SIZE) if mask >> i & 1)


def turn_clockwise(rows: tuple[str, ...]) -> tuple[str, ...]:
    return tuple("".join(col) for col in zip(*reversed(rows), strict=True))


def mirror(rows: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(row[::-1] for row in rows)


def oriented_rows(patch_id: int, orientation: str) -> tuple[str, ...]:
    """The printed shape of a patch in an orientation name like ``r90`` or ``f270``."""
    rows = pw.PATCHES[patch_id].shape
    if orientation[0] == "f":
        rows = mirror(rows)
    for _ in range(int(orientation[1:]) // 90):
        rows = turn_clockwise(rows)
    return rows


def allowed_names(rotation: bool, flip: bool) -> tuple[str, ...]:
    turns = ("0", "90", "180", "270") if rotation else ("0",)
    kinds = ("r", "f") if flip else ("r",)
    return tuple(k + t for k in kinds for t in turns)


@cache
def footprints(patch_id: int, rotation: bool, flip: bool) -> tuple[int, ...]:
    """Every distinct set of squares the patch can cover on an empty quilt board."""
    found: set[int] = set()
    for name in allowed_names(rotation, flip):
        rows = oriented_rows(patch_id, name)
        h, w = len(rows), len(rows[0])
        cells = [(r, c) for r in range(h) for c in range(w) if rows[r][c] == "#"]
        for r0 in range(SIZE - h + 1):
            for c0 in range(SIZE - w + 1):
                found.add(mask_of((r0 + r, c0 + c) for r, c in cells))
    return tuple(sorted(found))


@dataclass
class Model:
    edition: str
    rotation: bool
    flip: bool
    circle: list[int]
    position: list[int] = field(default_factory=lambda: [0, 0])
    buttons: list[int] = field(default_factory=lambda: [5, 5])
    income: list[int] = field(default_factory=lambda: [0, 0])
    quilt: list[int] = field(default_factory=lambda: [0, 0])
    top: int = 0
    bonus: int | None = None
    first: int | None = None
    pending: int = 0
    pending_player: int = 0
    specials_left: list[int] = field(default_factory=list)

    @classmethod
    def new(
        cls,
        circle: list[int],
        edition: str = "revised",
        rotation: bool = True,
        flip: bool = True,
        first_player: int = 0,
    ) -> Model:
        return cls(
            edition=edition,
            rotation=rotation,
            flip=flip,
            circle=list(circle),
            top=first_player,
            specials_left=list(SPECIALS[edition]),
        )

    def copy(self) -> Model:
        return copy.deepcopy(self)

    # -- reading ---------------------------------------------------------------------------

    def to_move(self) -> int | None:
        if self.pending:
            return self.pending_player
        a, b = self.position
        if a == b == FINAL:
            return None
        if a != b:
            return 0 if a < b else 1
        return self.top

    def terminal(self) -> bool:
        return self.to_move() is None

    def empty(self, p: int) -> int:
        return SIZE * SIZE - self.quilt[p].bit_count()

    def score(self, p: int) -> int:
        return self.buttons[p] + (7 if self.bonus == p else 0) - 2 * self.empty(p)

    def winner(self) -> int | None:
        if not self.terminal():
            return None
        a, b = self.score(0), self.score(1)
        if a != b:
            return 0 if a > b else 1
        return self.first

    def offered(self) -> list[int]:
        return self.circle[:3]

    def legal(self) -> list[Key]:
        p = self.to_move()
        if p is None:
            return []
        q = self.quilt[p]
        if self.pending:
            return [("S", *divmod(i, SIZE)) for i in range(SIZE * SIZE) if not q >> i & 1]
        moves: list[Key] = [("A",)]
        for patch in self.offered():
            if pw.PATCHES[patch].buttons > self.buttons[p]:
                continue
            for fp in footprints(patch, self.rotation, self.flip):
                if fp & q == 0:
                    moves.append(("B", patch, fp))
        return moves

    # -- playing ---------------------------------------------------------------------------

    def _travel(self, p: int, target: int) -> None:
        old = self.position[p]
        for mark in INCOME_MARKS:
            if old < mark <= target:
                self.buttons[p] += self.income[p]
        for space in list(self.specials_left):
            if old < space <= target:
                self.specials_left.remove(space)
                if self.quilt[p] != FULL:
                    self.pending += 1
                    self.pending_player = p
        self.position[p] = target
        if target == self.position[1 - p]:
            self.top = p
        if target == FINAL and self.first is None:
            self.first = p

    def _bonus(self, p: int) -> None:
        if self.bonus is None and any(self.quilt[p] & w == w for w in BONUS_WINDOWS):
            self.bonus = p

    def play(self, move: Key) -> None:
        """Play a move given as a key from :meth:`legal` (no checks: use keys it lists)."""
        p = self.to_move()
        assert p is not None
        if move[0] == "S":
            _, r, c = move
            self.quilt[p] |= 1 << (SIZE * r + c)  # type: ignore[operator]
            self.pending -= 1
            self._bonus(p)
            if self.quilt[p] == FULL:
                self.pending = 0
        elif move[0] == "A":
            target = min(self.position[1 - p] + 1, FINAL)
            self.buttons[p] += target - self.position[p]
            self._travel(p, target)
        else:
            _, patch_id, fp = move
            patch = pw.PATCHES[patch_id]  # type: ignore[index]
            slot = self.circle.index(patch.id)
            self.circle = self.circle[slot + 1 :] + self.circle[:slot]
            self.buttons[p] -= patch.buttons
            self.quilt[p] |= fp  # type: ignore[operator]
            self.income[p] += patch.income
            self._bonus(p)
            self._travel(p, min(self.position[p] + patch.time, FINAL))
            if self.pending and self.quilt[p] == FULL:
                self.pending = 0


def key_of(move: pw.Move) -> Key:
    """The model's key for an engine move."""
    if isinstance(move, pw.Advance):
        return ("A",)
    if isinstance(move, pw.PlaceSpecial):
        return ("S", move.row, move.col)
    assert isinstance(move, pw.Buy)
    return ("B", move.patch_id, mask_of(move.squares))
