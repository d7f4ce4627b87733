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
