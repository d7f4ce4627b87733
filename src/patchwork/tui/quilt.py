"""A quilt board on screen: the patches sewn on, and the ghost of the patch being placed.

Each square is two characters wide so the board looks square. Patches are drawn as solid
blocks, each in a colour none of its neighbours has (so shapes stay apart with the 16 basic
terminal colours); special patches and the ghost use their own characters, so the picture
stays readable without colour too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from ..engine.data import BOARD_SIZE
from . import colours
from .placement import Square
from .session import SPECIAL, UNKNOWN

COLUMNS = "abcdefghi"
LABEL_WIDTH = 2  # "1 " before each row
HEADER_ROWS = 2  # title, column letters
CELL = 2  # characters per square (at scale 1; twice as many, on two lines, at scale 2)
BIG = 2  # the scale of a board on a large screen, when its widget has the room

PALETTE = colours.PATCHES
PLAYER_COLOURS = colours.PLAYERS

EMPTY = "· "
FITS = "+ "
BLOCK = "██"
LEATHER = "▒▒"
OLD = "░░"
GHOST = "[]"
CLASH = "XX"


def colour_patches(patch_map: dict[Square, int]) -> dict[int, str]:
    """A colour for each patch (in the order they were sewn on) that differs from the colours
    of the patches it touches, so a patch never changes colour once drawn."""
    squares_of: dict[int, list[Square]] = {}
    for square, tag in patch_map.items():
        if tag >= 0:
            squares_of.setdefault(tag, []).append(square)
    chosen: dict[int, str] = {}
    for tag, squares in squares_of.items():
        near = {
            chosen.get(patch_map.get((r + dr, c + dc), UNKNOWN), "")
            for r, c in squares
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
        }
        start = tag % len(PALETTE)
        order = PALETTE[start:] + PALETTE[:start]
        chosen[tag] = next((c for c in order if c not in near), order[0])
    return chosen


@dataclass
class QuiltPicture:
    """Everything one board shows; built by the screen from the session."""

    title: str
    player: int
    to_move: bool = False
    bonus: bool = False
    patches: dict[Square, int] = field(default_factory=dict)
    ghost: frozenset[Square] = frozenset()
    ghost_fits: bool = False
    fits: frozenset[Square] = frozenset()


class QuiltView(Widget):
    """One player's quilt board; clicking a square reports it."""

    class SquareClicked(Message):
        def __init__(self, player: int, row: int, col: int, button: int, chain: int) -> None:
            super().__init__()
            self.player = player
            self.row = row
            self.col = col
            self.button = button
            self.chain = chain

    def __init__(self, player: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.picture = QuiltPicture("", player)
        self._lines: list[Strip] | None = None

    def show(self, picture: QuiltPicture) -> None:
        if picture == self.picture:
            return
        self.picture = picture
        self._lines = None
        self.refresh()

    @property
    def scale(self) -> int:
        """2 when the widget has room for squares twice as large (a large screen), else 1."""
        width, height = self.size
        big = width >= LABEL_WIDTH + BIG * CELL * BOARD_SIZE and (
            height >= HEADER_ROWS + BIG * BOARD_SIZE
        )
        return BIG if big else 1

    def on_resize(self) -> None:
        self._lines = None

    def render_line(self, y: int) -> Strip:
        # The line API: the board is drawn once per change, straight into segments.
        if self._lines is None:
            console = self.app.console
            base = self.rich_style
            self._lines = [
                Strip(line.render(console)).apply_style(base)
                for line in self.picture_text(self.scale).split("\n")
            ]
        if y < len(self._lines):
            return self._lines[y].crop_extend(0, self.size.width, self.rich_style)
        return Strip.blank(self.size.width, self.rich_style)

    def picture_text(self, scale: int = 1) -> Text:
        """The board as text, one line per row of the screen; at ``scale`` 2 each square
        is twice as wide and two lines tall (a sign in its top line, as at scale 1)."""
        pic = self.picture
        colour = PLAYER_COLOURS[pic.player]
        cell = CELL * scale
        text = Text(no_wrap=True, overflow="crop")
        title_style = (
            Style(color=colours.BLACK, bgcolor=colour, bold=True) if pic.to_move else colour
        )
        marker = "▶ " if pic.to_move else "  "
        text.append(f"{marker}{pic.title}"[: LABEL_WIDTH + cell * BOARD_SIZE], title_style)
        if pic.bonus:
            text.append(" 7x7", Style(color=colours.YELLOW, bold=True))
        indent = " " * (scale - 1)  # a sign sits one character in on a large square
        letters = "".join((indent + c).ljust(cell) for c in COLUMNS)
        text.append("\n" + " " * LABEL_WIDTH + letters, "dim")
        patch_colours = colour_patches(pic.patches)
        for r in range(BOARD_SIZE):
            for line in range(scale):
                label = f"{r + 1} " if line == 0 else " " * LABEL_WIDTH
                text.append("\n" + label, "dim")
                for c in range(BOARD_SIZE):
                    sign, style = self._cell(pic, patch_colours, (r, c))
                    text.append(_scaled(sign, scale, line), style)
        return text

    @staticmethod
    def _cell(pic: QuiltPicture, paint: dict[int, str], square: Square) -> tuple[str, Style]:
        tag = pic.patches.get(square)
        if square in pic.ghost:
            if tag is not None:
                return CLASH, Style(color=colours.WHITE, bgcolor=colours.RED, bold=True)
            return GHOST, Style(color=colours.GOOD if pic.ghost_fits else colours.BAD, bold=True)
        if tag is None:
            if square in pic.fits:
                return FITS, Style(color=colours.GREEN, bold=True)
            return EMPTY, Style(dim=True)
        if tag == SPECIAL:
            return LEATHER, Style(color=colours.WHITE)
        if tag == UNKNOWN:
            return OLD, Style(color=colours.GREY)
        return BLOCK, Style(color=paint[tag])

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        scale = self.scale
        row = (offset.y - HEADER_ROWS) // scale
        col = (offset.x - LABEL_WIDTH) // (CELL * scale)
        if offset.x < LABEL_WIDTH or not (0 <= row < BOARD_SIZE and 0 <= col < BOARD_SIZE):
            return
        event.stop()
        self.post_message(
            self.SquareClicked(self.picture.player, row, col, event.button, event.chain)
        )


def _scaled(sign: str, scale: int, line: int) -> str:
    """A square's two characters drawn ``scale`` times as large, its ``line``-th line: a
    filled square fills it all; a sign on an open square (a dot, a +) stays one sign, in
    the top line."""
    if scale == 1:
        return sign
    if sign[1] != " ":  # a filled square: ██, ▒▒, ░░, [], XX
        if sign == GHOST:
            return "[" + " " * (CELL * scale - 2) + "]"
        return sign[0] * (CELL * scale)
    top = " " * (scale - 1) + sign[0]
    return (top if line == 0 else "").ljust(CELL * scale)
