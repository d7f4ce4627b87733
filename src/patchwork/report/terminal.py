"""The review in a terminal (rich): the win-probability chart and the table of moves."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..ai import Limit
from ..ai.review import FLAWS, LABELS, Class, PlyReview, Review
from ..i18n import _, fmt, ngettext, number

# The colour of each class, in the chart and the table (best and good stay quiet).
STYLES: dict[Class, str] = {
    "best": "green",
    "good": "default",
    "inaccuracy": "yellow",
    "mistake": "dark_orange",
    "blunder": "bold red",
}
MARKS: dict[Class, str] = {
    "best": "",
    "good": "",
    "inaccuracy": "?!",
    "mistake": "?",
    "blunder": "??",
}
BLOCKS = " ▁▂▃▄▅▆▇█"
CHART_ROWS = 8
CHART_WIDTH = 72  # at most this many columns: a longer game is sampled


def limit_text(limit: Limit) -> str:
    """A search limit in words: "30000 iterations", "1.5 s" (or both)."""
    parts = []
    if limit.iterations is not None:
        n = limit.iterations
        parts.append(fmt(ngettext("{n} iteration", "{n} iterations", n), n=n))
    if limit.time is not None:
        parts.append(fmt(_("{seconds} s"), seconds=limit.time))
    if len(parts) == 2:
        return fmt(_("{first} or {second}"), first=parts[0], second=parts[1])
    return parts[0] if parts else ""


def percent(p: float) -> str:
    return number(p, ".0%")


def signed(x: float) -> str:
    return number(x, "+.1f")


def chart(review: Review, names: Sequence[str]) -> Text:
    """Player 0's win probability after each ply as columns of blocks, one column a ply
    (coloured by the class of the move that led there), with a 50 % line."""
    curve = review.curve()
    text = Text()
    if not curve:
        return text
    step = max(1, -(-len(curve) // CHART_WIDTH))
    points = curve[::step]
    classes = {p.ply: p.klass for p in review.plies}
    levels = CHART_ROWS * (len(BLOCKS) - 1)
    text.append(fmt(_("Win probability of {name}"), name=names[0]) + "\n", style="bold")
    for row in range(CHART_ROWS, 0, -1):
        label = {CHART_ROWS: "100%", (CHART_ROWS + 1) // 2: " 50%", 1: "  0%"}.get(row, "")
        text.append(f"{label:>4} │")
        for ply, win0, _margin in points:
            filled = round(win0 * levels) - (row - 1) * (len(BLOCKS) - 1)
            block = BLOCKS[max(0, min(len(BLOCKS) - 1, filled))]
            if block == " " and row == (CHART_ROWS + 1) // 2:
                block = "·"
            text.append(block, style=STYLES[classes.get(ply, "good")])
        text.append("\n")
    text.append("     └" + "─" * len(points) + "\n")
    axis = ""
    for i, (ply, _w, _m) in enumerate(points):
        if ply % 10 == 0 and len(axis) <= i:
            axis += " " * (i - len(axis)) + str(ply)
    text.append("      " + axis + "\n", style="dim")
    return text


def move_cell(ply: PlyReview) -> Text:
    return Text(ply.move + MARKS[ply.klass], style=STYLES[ply.klass])


def win_after_for_first(ply: PlyReview) -> float:
    """The first player's win probability after ``ply`` (the review keeps the mover's)."""
    after = ply.win_probability_after
    return after if ply.seat == 0 else 1 - after


def win_heading(names: Sequence[str]) -> str:
    """The heading of the column of win probabilities: always the first player's, as in
    the chart (the mover's, row by row, would jump back and forth)."""
    return fmt(_("{name} wins"), name=names[0])


def table(review: Review, names: Sequence[str]) -> Table:
    """One row a ply: who moved, the move and its class, what it gave away, the better move,
    and then the first player's win probability (the chart's line)."""
    t = Table(box=None, pad_edge=False, header_style="bold")
    t.add_column(_("ply"), justify="right")
    t.add_column(_("player"), no_wrap=True)  # a name, a move: each on one line
    t.add_column(_("move"), no_wrap=True)
    t.add_column(_("class"))
    t.add_column(_("loss"), justify="right")
    t.add_column(_("points"), justify="right")
    t.add_column(_("best move"), no_wrap=True)
    t.add_column(win_heading(names), justify="right", min_width=6)
    for p in review.plies:
        t.add_row(
            number(p.ply),
            names[p.seat],
            move_cell(p),
            Text(_(LABELS[p.klass]), style=STYLES[p.klass]),
            percent(-p.loss) if p.loss >= 0.005 else "",
            signed(-p.margin_loss) if p.margin_loss >= 0.05 else "",
            "" if p.klass == "best" else p.best_move,
            percent(win_after_for_first(p)) + (" =" if p.exact else ""),
        )
    return t


def summary(review: Review, names: Sequence[str]) -> Group:
    """One row a player: accuracy, the count of each class, the worst moves; under it, a
    sentence for a player who had no accuracy (no move of theirs had a choice)."""
    notes = [
        Text(fmt(_("{name}: no accuracy (no move had a choice)."), name=names[player.seat]))
        for player in review.players
        if player.accuracy is None
    ]
    return Group(summary_table(review, names), *notes)


def summary_table(review: Review, names: Sequence[str]) -> Table:
    """One row a player: accuracy, the count of each class, the worst moves."""
    t = Table(box=None, pad_edge=False, header_style="bold")
    t.add_column(_("player"))
    t.add_column(_("accuracy"), justify="right")
    for klass in FLAWS:
        t.add_column(_(LABELS[klass]), justify="right", style=STYLES[klass])
    t.add_column(_("worst moves (better)"))
    for player in review.players:
        worst = "\n".join(
            f"{number(n)}. {review.ply(n).move} ({review.ply(n).best_move})" for n in player.worst
        )
        t.add_row(
            names[player.seat],
            "–" if player.accuracy is None else number(player.accuracy, ".1f"),
            *(number(player.counts[k]) for k in FLAWS),
            worst,
        )
    return t
