"""The circle: the neutral token, the three patches on offer as cards, and the advance option."""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from ..engine import PATCHES
from ..i18n import _, digits, fmt
from . import colours
from .describe import patch_numbers
from .session import OfferStatus

SHAPE_ROWS = 4  # printed shapes are at most 4 squares tall
NEUTRAL = "◉"


def circle_text(circle: tuple[int, ...], offered: int) -> Text:
    """``Circle (27): ◉ 17 5 22 │ 3 8 …``: the neutral token, the offer, what follows."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(fmt(_("Circle ({n}):"), n=len(circle)) + " ", "dim")
    text.append(NEUTRAL, Style(color=colours.WHITE, bold=True))
    for pid in circle[:offered]:
        text.append(f" {digits(pid)}", Style(bold=True))
    if len(circle) > offered:
        text.append(" │", "dim")
        text.append("".join(f" {digits(pid)}" for pid in circle[offered:]), "dim")
    return text


STRIP_COLUMN = 7  # a patch of the circle strip: "10/6/3" and a space
STRIP_ROWS = 5  # the strip's title, a patch's id, its shape (two lines), its numbers
HALF_BLOCKS = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}


def half_block_shape(patch_id: int) -> list[str]:
    """A patch's printed shape at one character a square, two rows of squares a line (a
    square is as wide as half a line is tall): at most 5 wide and 2 lines tall."""
    rows = list(PATCHES[patch_id].shape)
    if len(rows) % 2:
        rows.append("")
    width = max(len(row) for row in rows)
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        lines.append(
            "".join(
                HALF_BLOCKS[(top[c : c + 1] == "#", bottom[c : c + 1] == "#")] for c in range(width)
            )
        )
    return lines


def circle_strip(rest: tuple[int, ...], width: int) -> Text:
    """The patches after the offer, clockwise, drawn side by side as far as ``width``
    allows: each one's id, shape, and cost/time/income (income in yellow)."""
    text = Text(no_wrap=True, overflow="crop")
    if not rest:
        return text
    shown = rest[: max(0, width // STRIP_COLUMN)]
    text.append(_("Then, clockwise (cost/time/income):"), "dim")
    ids = "".join(f"#{digits(pid)}".ljust(STRIP_COLUMN) for pid in shown)
    text.append("\n" + ids.rstrip(), Style(bold=True))
    shapes = [half_block_shape(pid) for pid in shown]
    for line in range(2):
        text.append("\n")
        for shape in shapes:
            part = shape[line] if line < len(shape) else ""
            text.append(part.ljust(STRIP_COLUMN), Style(color=colours.WHITE))
    text.append("\n")
    for pid in shown:
        patch = PATCHES[pid]
        numbers = f"{digits(patch.buttons)}/{digits(patch.time)}/"
        text.append(numbers)
        income = digits(patch.income)
        text.append(income, colours.YELLOW if patch.income else "")
        text.append(" " * (STRIP_COLUMN - len(numbers) - len(income)))
    return text


class CircleStrip(Widget):
    """On a tall screen, under the table: the patches that follow the offer, drawn."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rest: tuple[int, ...] = ()

    def show(self, rest: tuple[int, ...]) -> None:
        if rest != self.rest:
            self.rest = rest
            self.refresh()

    def render(self) -> Text:
        return circle_strip(self.rest, self.size.width)


@dataclass
class CardPicture:
    patch_id: int | None = None  # None: no patch in this slot
    status: OfferStatus = "wait"
    selected: bool = False


class PatchCard(Widget):
    """One offered patch: its key, id, printed shape, cost, time and income."""

    class Picked(Message):
        def __init__(self, slot: int) -> None:
            super().__init__()
            self.slot = slot

    def __init__(self, slot: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.slot = slot
        self.picture = CardPicture()

    def show(self, picture: CardPicture) -> None:
        if picture == self.picture:
            return
        self.picture = picture
        self.set_class(picture.selected, "-selected")
        self.set_class(picture.patch_id is not None and picture.status in ("cost", "room"), "-no")
        self.refresh()

    def render(self) -> Text:
        pic = self.picture
        text = Text(no_wrap=True, overflow="crop")
        if pic.patch_id is None:
            return text
        patch = PATCHES[pic.patch_id]
        header = Style(bold=True, reverse=pic.selected)
        text.append(f"{self.slot + 1}", Style(bold=True, color=colours.WHITE, reverse=True))
        text.append(f" #{digits(pic.patch_id)}", header)
        shape = list(patch.shape) + [""] * (SHAPE_ROWS - len(patch.shape))
        block = Style(color=colours.WHITE if pic.status == "ok" else colours.GREY)
        for row in shape:
            text.append("\n")
            for ch in row:
                text.append("██" if ch == "#" else "  ", block)
        text.append("\n")
        if pic.status == "cost":
            text.append(_("can't pay"), Style(color=colours.BAD, bold=True))
        elif pic.status == "room":
            text.append(_("no room"), Style(color=colours.BAD, bold=True))
        elif pic.selected:
            text.append(_("holding"), Style(color=colours.GOOD, bold=True))
        cost, time, income = patch_numbers(pic.patch_id)
        text.append("\n" + cost, Style(color=colours.BAD) if pic.status == "cost" else "")
        text.append("\n" + time)
        text.append("\n" + income, colours.YELLOW if patch.income else "")
        return text

    def on_click(self, event: events.Click) -> None:
        event.stop()
        if self.picture.patch_id is not None:
            self.post_message(self.Picked(self.slot))
