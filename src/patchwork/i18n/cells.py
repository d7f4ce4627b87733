"""Text fitted to a terminal's cells. A Chinese or Japanese character takes two cells, and
those languages break a line between any two characters (never before a closing mark such as
。or ，, which stays with the character before it); the other languages break at spaces.
Textual and rich break lines at spaces only, and cut a run of Chinese at the edge wherever it
falls: text that may be Chinese or Japanese is broken here first (:func:`fold`)."""

from __future__ import annotations

import re

from rich.cells import cell_len, set_cell_size
from rich.text import Text

# Marks a line may not start with, and marks it may not end with (Chinese and Japanese
# line-breaking rules, and ours).
NO_LINE_START = frozenset("，。、：；！？）」』】〉》〕・ー…‥,.:;!?)]}%")
NO_LINE_END = frozenset("（「『【〈《〔([{")
# Where a line may break: at spaces, never at a no-break space (French "54 %", "Tour :").
SPACES = " \t\u3000"
_RUNS = re.compile(f"[{SPACES}]+|[^{SPACES}]+")


def pad(text: str, width: int) -> str:
    """``text`` filled out with spaces to ``width`` cells (never cut)."""
    return text + " " * max(0, width - cell_len(text))


def _units(word: str, start: int) -> list[tuple[int, str]]:
    """A word without spaces cut where a line may break, with the offset of each part: before
    each wide character and between a wide character and a narrow one, but never before a
    mark that may not start a line nor after one that may not end it."""
    units: list[tuple[int, str]] = []
    for i, ch in enumerate(word, start):
        joined = ch in NO_LINE_START or (units and units[-1][1][-1] in NO_LINE_END)
        if units and (joined or not (cell_len(ch) == 2 or _wide_end(units[-1][1]))):
            units[-1] = (units[-1][0], units[-1][1] + ch)
        else:
            units.append((i, ch))
    return units


def _wide_end(unit: str) -> bool:
    return cell_len(unit[-1]) == 2


def breaks(line: str, width: int, first: int = 0, later: int = 0) -> list[int]:
    """The offsets at which ``line`` (one line of text) is broken so that each piece fits
    ``width`` cells, the first after an indent of ``first`` cells, the others after ``later``.
    A piece ends with the spaces before a break (to be stripped); a unit longer than a whole
    line is cut."""
    cuts: list[int] = []
    room, used, gap = width - first, 0, 0
    for run in _RUNS.finditer(line):
        if run.group()[0] in SPACES:
            gap = cell_len(run.group()) if used or not run.start() else 0
            continue
        for start, unit in _units(run.group(), run.start()):
            size = cell_len(unit)
            if used and used + gap + size > room:
                cuts.append(start)
                room, used, gap = width - later, 0, 0
            while used == 0 and size > room > 0:  # longer than a line: cut it
                head = len(set_cell_size(unit, room).rstrip())
                start, unit = start + head, unit[head:]
                cuts.append(start)
                room, size = width - later, cell_len(unit)
            used, gap = used + gap + size, 0
    return cuts


def wrap(text: str, width: int, indent: str = "", subsequent_indent: str = "") -> list[str]:
    """``text`` in lines of at most ``width`` cells, each begun with ``indent`` (the first)
    or ``subsequent_indent`` (the others)."""
    cuts = breaks(text, width, cell_len(indent), cell_len(subsequent_indent))
    pieces = [text[a:b].rstrip() for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    return [(subsequent_indent if i else indent) + piece for i, piece in enumerate(pieces)]


def fold(text: Text, width: int) -> Text:
    """``text`` (its styles kept) with its lines broken to fit ``width`` cells, so that the
    widget showing it has nothing left to wrap. ``width`` 0 (not yet laid out): unchanged."""
    if width <= 0:
        return text
    lines: list[Text] = []
    for line in text.split("\n", allow_blank=True):
        for piece in line.divide(breaks(line.plain, width)):
            piece.rstrip()
            lines.append(piece)
    return Text("\n", style=text.style).join(lines)
