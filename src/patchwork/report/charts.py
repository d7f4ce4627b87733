"""The review's chart drawn with matplotlib: player 0's win probability and the expected
final margin over the game, the inaccuracies, mistakes and blunders marked where they fell."""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from matplotlib import font_manager, rc_context
from matplotlib.figure import Figure  # no pyplot: no global state, no window, any thread
from matplotlib.ticker import FuncFormatter

from ..ai.review import FLAWS, LABELS, Review
from ..i18n import _, base_language, fmt, language, number

COLOURS = {"inaccuracy": "#d4a017", "mistake": "#e67e22", "blunder": "#c0392b"}
SEAT_MARKERS = ("o", "s")  # player 0's moves round, player 1's square
# matplotlib's DejaVu Sans has no Chinese or Japanese characters: a chart in those languages, or
# with a player named in them, would show empty boxes. matplotlib falls back family by family;
# the language's own forms of the Han characters come first (Debian: fonts-noto-cjk).
LATIN_FONT = "DejaVu Sans"
CJK_FONTS = {
    "ja": ("Noto Sans CJK JP", "Noto Sans CJK SC"),
    "": ("Noto Sans CJK SC", "Noto Sans CJK JP"),
}


@lru_cache(maxsize=1)
def _installed_cjk() -> frozenset[str]:
    wanted = set(CJK_FONTS[""])
    found = {f.name for f in font_manager.fontManager.ttflist} & wanted
    if not found:  # a font cache written before the fonts were installed: look on disk once
        for path in font_manager.findSystemFonts():
            if "CJK" in Path(path).name:
                font_manager.fontManager.addfont(path)
        found = {f.name for f in font_manager.fontManager.ttflist} & wanted
    return frozenset(found)


def font_families(lang: str | None = None) -> list[str]:
    """The font families a chart in ``lang`` (default: the current language) is drawn with,
    the installed ones only (matplotlib warns about a family it cannot find)."""
    order = CJK_FONTS.get(base_language(lang or language()), CJK_FONTS[""])
    return [LATIN_FONT, *(name for name in order if name in _installed_cjk())]


@contextmanager
def _fonts() -> Iterator[None]:
    with rc_context({"font.family": font_families()}):
        yield


def figure(review: Review, names: Sequence[str]) -> Figure:
    curve = review.curve()
    plies = [c[0] for c in curve]
    fig = Figure(figsize=(9, 5.2))
    top, bottom = fig.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    top.plot(plies, [c[1] for c in curve], color="#2c3e50", linewidth=1.8)
    top.axhline(0.5, color="#999999", linewidth=0.8, linestyle="--")
    top.set_ylim(-0.03, 1.03)
    top.set_ylabel(fmt(_("{name} wins"), name=names[0]))
    # The numbers in the language's way: "54 %" in German, Persian digits in Persian.
    top.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: number(v, ".0%")))
    bottom.plot(plies, [c[2] for c in curve], color="#16a085", linewidth=1.5)
    bottom.axhline(0, color="#999999", linewidth=0.8, linestyle="--")
    bottom.set_ylabel(fmt(_("margin for {name}"), name=names[0]))
    bottom.set_xlabel(_("ply"))
    for klass in FLAWS:
        for seat in (0, 1):
            marked = [p for p in review.plies if p.klass == klass and p.seat == seat]
            if not marked:
                continue
            wins = [curve[p.ply][1] for p in marked]
            margins = [curve[p.ply][2] for p in marked]
            label = f"{_(LABELS[klass])} ({names[seat]})"
            style = {"color": COLOURS[klass], "marker": SEAT_MARKERS[seat], "zorder": 3}
            top.scatter([p.ply for p in marked], wins, label=label, s=36, **style)
            bottom.scatter([p.ply for p in marked], margins, s=24, **style)
    if any(p.klass in FLAWS for p in review.plies):
        top.legend(loc="best", fontsize=8, framealpha=0.85)
    whole = FuncFormatter(lambda v, _pos: number(round(v)))
    bottom.yaxis.set_major_formatter(whole)
    bottom.xaxis.set_major_formatter(whole)
    for axes in (top, bottom):
        axes.grid(True, alpha=0.25)
        axes.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig


def save_png(review: Review, names: Sequence[str], path: str | Path) -> None:
    with _fonts():
        figure(review, names).savefig(path, format="png", dpi=120)


def svg(review: Review, names: Sequence[str]) -> str:
    """The chart as SVG text, for a page that must stand alone."""
    out = io.StringIO()
    with _fonts():
        figure(review, names).savefig(out, format="svg")
    text = out.getvalue()
    return text[text.index("<svg") :]
