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
CELL = 2  # characters per square

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

    def render_line(self, y: int) -> Strip:
        # The line API: the board is drawn once per change, straight into segments.
        if self._lines is None:
            console = self.app.console
            base = self.rich_style
            self._lines = [
                Strip(line.render(console)).apply_style(base)
                for line in self.picture_text().split("\n")
            ]
        if y < len(self._lines):
            return self._lines[y].crop_extend(0, self.size.width, self.rich_style)
        return Strip.blank(self.size.width, self.rich_style)

    def picture_text(self) -> Text:
        """The board as text, one line per row of the screen."""
        pic = self.picture
        colour = PLAYER_COLOURS[pic.player]
        text = Text(no_wrap=True, overflow="crop")
        title_style = (
            Style(color=colours.BLACK, bgcolor=colour, bold=True) if pic.to_move else colour
        )
        marker = "▶ " if pic.to_move else "  "
        text.append(f"{marker}{pic.title}"[: LABEL_WIDTH + CELL * BOARD_SIZE], title_style)
        if pic.bonus:
            text.append(" 7x7", Style(color=colours.YELLOW, bold=True))
        text.append("\n" + " " * LABEL_WIDTH + "".join(c.ljust(CELL) for c in COLUMNS), "dim")
        patch_colours = colour_patches(pic.patches)
        for r in range(BOARD_SIZE):
            text.append(f"\n{r + 1} ", "dim")
            for c in range(BOARD_SIZE):
                text.append(*self._cell(pic, patch_colours, (r, c)))
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
        row = offset.y - HEADER_ROWS
        col = (offset.x - LABEL_WIDTH) // CELL
        if offset.x < LABEL_WIDTH or not (0 <= row < BOARD_SIZE and 0 <= col < BOARD_SIZE):
            return
        event.stop()
        self.post_message(
            self.SquareClicked(self.picture.player, row, col, event.button, event.chain)
        )
