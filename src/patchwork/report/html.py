"""The review as one self-contained HTML page: the chart (inline SVG), each player's
accuracy, the table of moves, and at the worst moments the quilt with the move played beside
the better one. Nothing is fetched: the page can be mailed or archived as it is."""

from __future__ import annotations

import html
from collections.abc import Sequence

from ..ai.review import FLAWS, LABELS, PlyReview, Review
from ..engine import Game, Move, State
from ..engine.data import BOARD_SIZE
from ..i18n import RIGHT_TO_LEFT, _, fmt, language, number
from . import charts
from .terminal import MARKS, limit_text, percent, signed, win_after_for_first, win_heading

CELL = 16
CSS = """
body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:62rem;color:#222;padding:0 1rem}
h1{font-size:1.5rem} h2{font-size:1.15rem;margin-top:2rem}
table{border-collapse:collapse;font-size:.9rem} td,th{padding:.2rem .6rem;text-align:start}
th{border-bottom:1px solid #bbb} tr:nth-child(even) td{background:#f6f6f6}
td.n{text-align:end;font-variant-numeric:tabular-nums}
.best{color:#1e8449}.inaccuracy{color:#b7950b}.mistake{color:#d35400}.blunder{color:#c0392b;font-weight:bold}
.moment{display:flex;gap:2rem;flex-wrap:wrap;margin:.5rem 0 1.5rem}
.moment figure{margin:0} figcaption{font-size:.85rem;margin-top:.3rem}
.chart svg{max-width:100%;height:auto}
"""
QUILT_COLOURS = {"covered": "#b9a27a", "empty": "#f4efe4", "played": "#c0392b", "better": "#1e8449"}


def quilt_svg(state: State, seat: int, move: Move | None, colour: str) -> str:
    """The quilt of ``seat`` in ``state``, with the squares ``move`` would cover in ``colour``."""
    covered = state.players[seat].quilt.squares
    new = move.squares if move is not None else frozenset()
    size = BOARD_SIZE * CELL
    cells = []
    for r in range(BOARD_SIZE):
        for c in range(BOARD_SIZE):
            fill = (
                colour
                if (r, c) in new
                else QUILT_COLOURS["covered" if (r, c) in covered else "empty"]
            )
            cells.append(
                f'<rect x="{c * CELL}" y="{r * CELL}" width="{CELL - 1}" height="{CELL - 1}" '
                f'fill="{fill}"/>'
            )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}" role="img">{"".join(cells)}</svg>'
    )


def _moment(game: Game, ply: PlyReview, names: Sequence[str]) -> str:
    before = game.states[ply.ply - 1]
    played = game.moves[ply.ply - 1]
    better = Move.parse(ply.best_move, before)
    e = html.escape
    title = fmt(
        _("Move {ply}, {name}: {move} ({klass}, {loss} win probability, {points} points)"),
        ply=ply.ply,
        name=names[ply.seat],
        move=ply.move,
        klass=_(LABELS[ply.klass]),
        loss=percent(-ply.loss),
        points=signed(-ply.margin_loss),
    )
    figures = [
        (quilt_svg(before, ply.seat, played, QUILT_COLOURS["played"]), _("played"), ply.move),
        (quilt_svg(before, ply.seat, better, QUILT_COLOURS["better"]), _("better"), ply.best_move),
    ]
    body = "".join(
        f"<figure>{svg}<figcaption>{e(caption)}: <code>{e(move)}</code></figcaption></figure>"
        for svg, caption, move in figures
    )
    return f'<h3 class="{ply.klass}">{e(title)}</h3><div class="moment">{body}</div>'


def render(review: Review, game: Game, names: Sequence[str], title: str = "") -> str:
    """The whole page, in the current language."""
    e = html.escape
    lang = language()
    direction = "rtl" if lang in RIGHT_TO_LEFT else "ltr"
    heading = title or fmt(_("Game review: {a} against {b}"), a=names[0], b=names[1])
    players = "".join(
        "<tr>"
        f"<td>{e(names[p.seat])}</td>"
        f'<td class="n">{"–" if p.accuracy is None else number(p.accuracy, ".1f")}</td>'
        + "".join(f'<td class="n {k}">{number(p.counts[k])}</td>' for k in FLAWS)
        + "</tr>"
        for p in review.players
    )
    no_accuracy = "".join(
        "<p>"
        + e(fmt(_("{name}: no accuracy (no move had a choice)."), name=names[p.seat]))
        + "</p>"
        for p in review.players
        if p.accuracy is None
    )
    flaw_heads = "".join(f"<th>{e(_(LABELS[k]))}</th>" for k in FLAWS)
    rows = "".join(
        "<tr>"
        f'<td class="n">{number(p.ply)}</td><td>{e(names[p.seat])}</td>'
        f'<td class="{p.klass}"><code>{e(p.move + MARKS[p.klass])}</code></td>'
        f'<td class="{p.klass}">{e(_(LABELS[p.klass]))}</td>'
        f'<td class="n">{percent(-p.loss) if p.loss >= 0.005 else ""}</td>'
        f'<td class="n">{signed(-p.margin_loss) if p.margin_loss >= 0.05 else ""}</td>'
        f"<td><code>{'' if p.klass == 'best' else e(p.best_move)}</code></td>"
        f'<td class="n">{percent(win_after_for_first(p))}{" =" if p.exact else ""}</td>'
        "</tr>"
        for p in review.plies
    )
    worst = sorted({n for p in review.players for n in p.worst})
    moments = "".join(_moment(game, review.ply(n), names) for n in worst)
    heads = [_("ply"), _("player"), _("move"), _("class"), _("loss"), _("points")]
    heads += [_("best move"), win_heading(names)]
    note = fmt(
        _("Each position searched for {limit} (seed {seed}); '=' marks an exact value."),
        limit=limit_text(review.limit),
        seed=review.seed,
    )
    accuracy_title, moments_title, moves_title = (
        _("Accuracy"),
        _("The worst moments"),
        _("Every move"),
    )
    nothing = _("No inaccuracies: nothing to show.")
    player_head, accuracy_head = _("player"), _("accuracy")
    return f"""<!doctype html>
<html lang="{lang}" dir="{direction}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(heading)}</title><style>{CSS}</style></head><body>
<h1>{e(heading)}</h1>
<div class="chart">{charts.svg(review, names)}</div>
<h2>{e(accuracy_title)}</h2>
<table><tr><th>{e(player_head)}</th><th>{e(accuracy_head)}</th>{flaw_heads}</tr>{players}</table>
{no_accuracy}
<h2>{e(moments_title)}</h2>
{moments or "<p>" + e(nothing) + "</p>"}
<h2>{e(moves_title)}</h2>
<table><tr>{"".join(f"<th>{e(h)}</th>" for h in heads)}</tr>{rows}</table>
<p><small>{e(note)}</small></p>
</body></html>
"""
