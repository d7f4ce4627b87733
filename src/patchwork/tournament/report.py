"""The report of a tournament: its tables and lines for a rich console."""

from __future__ import annotations

import math

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..ai import Limit
from ..engine import Rules
from .results import TournamentResult
from .summary import BOOTSTRAP_SAMPLES


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def _interval_pct(ci: tuple[float, float]) -> str:
    lo, hi = ci
    return "" if math.isnan(lo) else f"{100 * lo:.0f}-{100 * hi:.0f}%"


def _elo(x: float) -> str:
    if math.isnan(x):
        return "-"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.0f}"


def _margin(mean: float, half: float) -> str:
    return "-" if math.isnan(mean) else f"{mean:+.1f}±{half:.1f}"


def _limit_text(limit: Limit | None) -> str:
    return "default limits" if limit is None else f"{limit} per move"


def report(result: TournamentResult) -> list[Table | str]:
    """The tables and lines that summarise a tournament, for a rich console."""
    s = result.summary()
    done = len(result.games)
    title = (
        f"{' vs '.join(result.labels)}: {done} games"
        + (f" of {result.planned} (interrupted)" if result.interrupted else "")
        + f", {_limit_text(result.limit)}, seed {result.seed}"
    )
    rules = result.rules
    if rules != Rules():
        title += f", {rules.edition} rules" + ("" if rules.rotation else ", no rotation")
        title += "" if rules.flip else ", no flip"
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1, 0, 0))
    forfeits = any(p.forfeits for p in s.players)
    columns = ["player", "games", "wins", "win %", "95% CI", "Elo", "95% CI", "margin", "s/move"]
    for name in columns + ["forfeits"] * forfeits:
        table.add_column(name, justify="left" if name == "player" else "right")
    for p in s.players:
        lo, hi = p.elo_interval
        anchor = p.label == s.elo_anchor
        table.add_row(
            p.label,
            str(p.games),
            str(p.wins),
            _pct(p.win_rate),
            _interval_pct(p.win_interval),
            "0" if anchor else _elo(p.elo),
            "" if anchor or math.isnan(lo) else f"{_elo(lo)}..{_elo(hi)}",
            _margin(p.mean_margin, p.margin_halfwidth),
            "-" if math.isnan(p.seconds_per_move) else f"{p.seconds_per_move:.3f}",
            *[str(p.forfeits)] * forfeits,
        )
    out: list[Table | str] = [table]
    if len(result.agents) > 2:
        pairs = Table(
            title="head to head (for the first of each pair)",
            title_justify="left",
            box=box.SIMPLE_HEAD,
            padding=(0, 1, 0, 0),
        )
        pairs.add_column("pair")
        pairs.add_column("games", justify="right")
        pairs.add_column("score", justify="right")
        pairs.add_column("win %", justify="right")
        pairs.add_column("95% CI", justify="right")
        pairs.add_column("margin", justify="right")
        for q in s.pairs:
            pairs.add_row(
                f"{q.players[0]} vs {q.players[1]}",
                str(q.games),
                f"{q.wins[0]}-{q.wins[1]}",
                _pct(q.win_rate),
                _interval_pct(q.win_interval),
                _margin(q.mean_margin, q.margin_halfwidth),
            )
        out.append(pairs)
    how = (
        f"Bradley-Terry fit, CI by {BOOTSTRAP_SAMPLES} bootstrap samples"
        if len(result.agents) > 2
        else "from the score, Wilson CI"
    )
    if s.elo_method.endswith("+prior"):
        how += "; someone won or lost every game, so half a virtual win each way per pair"
    out.append(f"Elo relative to {s.elo_anchor} ({how}); margin: mean score difference ± 95% CI")
    out.append(
        f"first to move won {_pct(s.first_mover_rate)} "
        f"(95% CI {_interval_pct(s.first_mover_interval)}) of {s.first_mover_games} games"
    )
    out.extend(_forfeits(result))
    return out


def _forfeits(result: TournamentResult) -> list[str]:
    """A line per player who forfeited: how many games, and why the first one was lost."""
    labels = result.labels
    lines = []
    for player, label in enumerate(labels):
        lost = [g for g in result.games if g.forfeit is not None and g.loser_player == player]
        if lost:
            first = lost[0]
            lines.append(
                f"{label} forfeited {len(lost)} game(s); the first, game {first.spec.index + 1}"
                f" at move {first.plies + 1}: {escape(first.forfeit or '')}"
            )
    return lines


def print_report(result: TournamentResult, console: Console | None = None) -> None:
    console = Console() if console is None else console
    for item in report(result):
        console.print(item)
