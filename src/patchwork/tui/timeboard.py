"""The time board as three lines: player 0's token above the track, player 1's below.

The track has one character per space (0-53): ``●`` a button-income mark, ``■`` a special
patch still lying there, ``·`` any other space. Where the move being prepared would take
the player's token is shown hollow (``▽``/``△``). In a solo game Automa's line also shows
its level's 7x7 marker (``◆``) while it lies on the board (rule 14).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size
from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from ..engine.data import FINAL_SPACE, INCOME_SPACES
from ..i18n import digits
from . import colours
from .quilt import PLAYER_COLOURS

NAME_WIDTH = 11  # the least room for the names, before the track
TRACK_WIDTH = FINAL_SPACE + 1 + 3  # one character a space, then the token's space number
TOKENS = ("▼", "▲")
TARGETS = ("▽", "△")
MARKER = "◆"


@dataclass
class TimePicture:
    names: tuple[str, str] = ("", "")
    positions: tuple[int, int] = (0, 0)
    specials: tuple[int, ...] = ()
    target: tuple[int, int] | None = None  # (player, space) the prepared move reaches
    marker: int | None = None  # a solo game: Automa's 7x7 marker, on player 1's line


class TimeBoard(Widget):
    """Both time tokens on the track, the income marks and the special patches left."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.picture = TimePicture()

    def show(self, picture: TimePicture) -> None:
        if picture == self.picture:
            return
        self.picture = picture
        self.refresh()

    def name_width(self) -> int:
        """The names' column: as wide as the longer name and a space, where the screen
        has room for it beside the track (twins such as "AI level 1 (1)" and "(2)" must
        read apart); at least :data:`NAME_WIDTH`."""
        longest = max(cell_len(name) for name in self.picture.names) + 1
        room = self.size.width - TRACK_WIDTH
        return max(NAME_WIDTH, min(longest, room))

    def _token_line(self, p: int) -> Text:
        pic = self.picture
        colour = PLAYER_COLOURS[p]
        line = Text(no_wrap=True, overflow="crop")
        width = self.name_width()
        label = set_cell_size(set_cell_size(pic.names[p], width - 1), width)
        line.append(label, colour)
        cells = [" "] * (FINAL_SPACE + 1)
        if p == 1 and pic.marker is not None:
            cells[pic.marker] = MARKER
        if pic.target is not None and pic.target[0] == p:
            cells[pic.target[1]] = TARGETS[p]
        cells[pic.positions[p]] = TOKENS[p]
        for cell in cells:
            style = colours.NOTE if cell == MARKER else Style(color=colour, bold=True)
            line.append(cell, style)
        line.append(f" {digits(pic.positions[p]):>2}", colour)
        return line

    def _track(self) -> Text:
        pic = self.picture
        line = Text(" " * self.name_width(), no_wrap=True, overflow="crop")
        for space in range(FINAL_SPACE + 1):
            if space in INCOME_SPACES:
                line.append("●", colours.YELLOW)
            elif space in pic.specials:
                line.append("■", Style(color=colours.WHITE, bold=True))
            elif space % 10 == 0:
                line.append("┆", "dim")
            else:
                line.append("·", "dim")
        line.append(f" {digits(FINAL_SPACE)}", "dim")
        return line

    def render(self) -> Text:
        return Text("\n", no_wrap=True).join(
            [self._token_line(0), self._track(), self._token_line(1)]
        )
