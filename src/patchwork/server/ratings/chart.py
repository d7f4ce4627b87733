"""A player's rating history as an SVG chart (matplotlib, no display): the rating after each
rated game, with the band of its deviation around it. The same history gives the same bytes
(no date in the metadata, fixed ids).

The chart holds numbers only, in the language's digits: matplotlib neither joins nor orders
right-to-left letters, so the words about it (its title, what the axes count) are the page's."""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...i18n import Translator, number
from .rating import HistoryRow

if TYPE_CHECKING:
    from matplotlib.figure import Figure

LINE = "#7a3b2e"  # the site's brick red
BAND = "#7a3b2e"
SIZE = (6.0, 2.6)  # inches at 100 dpi: 600 x 260
_drawing = threading.Lock()


def figure(now: tuple[float, float], history: Sequence[HistoryRow], t: Translator) -> Figure:
    """The chart, its numbers in ``t``'s language's digits. Game 0 is the rating before the
    first rated game (``now``, rating and deviation, for a player without one); the band is
    the rating plus or minus twice its deviation (where the player's strength lies, 95% sure)."""
    # matplotlib comes with the first chart, not with the server: it is most of a second of
    # every start. (No pyplot: no global state, no window, any thread.)
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    first = (history[0].rating_before, history[0].rd_before) if history else now
    games = list(range(len(history) + 1))
    ratings = [first[0], *(h.rating for h in history)]
    rds = [first[1], *(h.rd for h in history)]
    fig = Figure(figsize=SIZE, dpi=100)
    axes = fig.subplots()
    low = [r - 2 * d for r, d in zip(ratings, rds, strict=True)]
    high = [r + 2 * d for r, d in zip(ratings, rds, strict=True)]
    axes.fill_between(games, low, high, color=BAND, alpha=0.15, linewidth=0)
    axes.plot(
        games,
        ratings,
        color=LINE,
        linewidth=1.8,
        marker="o" if len(games) <= 50 else None,
        markersize=3.5,
    )
    axes.set_xlim(0, max(1, len(history)))
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    in_digits = FuncFormatter(lambda value, _pos: number(round(value), lang=t.language))
    axes.xaxis.set_major_formatter(in_digits)
    axes.yaxis.set_major_formatter(in_digits)
    axes.tick_params(labelsize=8)
    axes.grid(True, alpha=0.25)
    axes.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig


def svg(now: tuple[float, float], history: Sequence[HistoryRow], t: Translator) -> str:
    """The chart as SVG text, the same for the same history."""
    import matplotlib

    out = io.StringIO()
    # rc_context sets matplotlib's global settings: one chart at a time.
    with _drawing, matplotlib.rc_context({"svg.hashsalt": "patchwork"}):
        figure(now, history, t).savefig(out, format="svg", metadata={"Date": None})
    text = out.getvalue()
    return text[text.index("<svg") :]
