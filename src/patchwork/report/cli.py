"""``patchwork review RECORD``: every move of a recorded game judged by the searcher."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .. import i18n
from ..ai import Limit
from ..ai.review import DEFAULT_LIMIT, DEFAULT_SEED, Review, review
from ..engine import Game, PatchworkError, Record
from ..i18n import _, digits, error_text, fmt
from ..i18n.commandline import HelpFormatter, parse
from ..options import positive_int, positive_seconds
from ..parallel import add_ray_option
from . import charts, html, terminal


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        formatter_class=HelpFormatter,
        prog="patchwork review",
        description=_(
            "Judge every move of a recorded game with the searcher: the win probability and "
            "margin before and after, what each move gave away, the better move, and each "
            "player's accuracy."
        ),
    )
    p.add_argument(
        "record", metavar="RECORD", help=_("a game record (.json or .txt; - reads stdin)")
    )
    p.add_argument("--json", action="store_true", help=_("print the review as JSON instead"))
    p.add_argument("--png", metavar="FILE", help=_("draw the chart of the game into FILE (PNG)"))
    p.add_argument("--html", metavar="FILE", help=_("write a self-contained HTML report to FILE"))
    limit = p.add_mutually_exclusive_group()
    limit.add_argument(
        "--time", type=positive_seconds, metavar="S",
        help=_("seconds of search for each position (not reproducible: depends on the machine)"),
    )  # fmt: skip
    limit.add_argument(
        "--iterations", type=positive_int, metavar="N",
        help=fmt(
            _("search iterations for each position (default {n}: about a minute a game)"),
            n=DEFAULT_LIMIT.iterations,
        ),
    )  # fmt: skip
    p.add_argument(
        "--workers", type=positive_int, metavar="W",
        help=_(
            "positions searched at once, each in its own process (default 1; with --ray: "
            "one per CPU of the cluster)"
        ),
    )  # fmt: skip
    add_ray_option(
        p,
        _(
            "search the positions on a Ray cluster: ADDRESS is auto, HOST:PORT or "
            "ray://HOST:PORT; without one, a Ray of this machine started for the run (needs "
            "patchwork-game[cluster])"
        ),
    )
    p.add_argument(
        "--seed", type=int, default=DEFAULT_SEED,
        help=_("search seed: the same record, limit and seed give the same review (default 0)"),
    )  # fmt: skip
    p.add_argument("--lang", choices=i18n.LANGUAGES, help=_("language of the report"))
    return p


def _read(path: str) -> Record:
    if path == "-":
        return Record.parse(sys.stdin.read())
    return Record.load(path)


AI_LEVEL = re.compile(r"level([1-9])(?: ([12]))?")  # a record's name for an AI level seat


def player_name(name: str, seat: int) -> str:
    """A record's player as the terminal app names it: ``level3`` (what ``patchwork play``
    records for an AI level) is "AI level 3", ``level1 2`` (both seats at one level) "AI
    level 1 (2)"; a missing name is "Player N"."""
    if not name:
        return fmt(_("Player {n}"), n=seat + 1)
    level = AI_LEVEL.fullmatch(name)
    if level is None:
        return name
    shown = fmt(_("AI level {n}"), n=int(level.group(1)))
    return shown if level.group(2) is None else f"{shown} ({digits(int(level.group(2)))})"


def names_of(record: Record) -> tuple[str, str]:
    return player_name(record.players[0], 0), player_name(record.players[1], 1)


@contextmanager
def _progress(enabled: bool) -> Iterator[Callable[[int, int], None]]:
    """A bar on stderr: positions searched out of all, and the time so far."""
    if not enabled:
        yield lambda done, total: None
        return
    bar = Progress(
        TextColumn(_("positions")),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with bar:
        task = bar.add_task("review", total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def _write(path: str, write: Callable[[Path], None]) -> None:
    try:
        write(Path(path))
    except OSError as e:
        raise PatchworkError(fmt(_("cannot write {path}: {error}"), path=path, error=e)) from None


def _text(path: Path, text: str) -> None:
    path.write_text(text, "utf-8")


def show(result: Review, names: tuple[str, str], console: Console) -> None:
    console.print(terminal.chart(result, names))
    console.print(terminal.table(result, names))
    console.print()
    console.print(terminal.summary(result, names))
    if not result.finished:
        console.print(_("The game is unfinished: reviewed up to its last move."))


def main(argv: list[str] | None = None) -> int:
    """``patchwork review``: 0 done, 1 a file could not be written, 2 bad arguments, a record
    that does not replay or a Ray cluster that cannot be reached (nothing is written then)."""
    args = parse(build_parser, argv)
    if isinstance(args, int):
        return args
    try:
        record = _read(args.record)
        game: Game = record.replay()
    except PatchworkError as e:
        print(fmt(_("patchwork review: {error}"), error=error_text(e)), file=sys.stderr)
        return 2
    limit = (
        Limit(time=args.time)
        if args.time
        else Limit(iterations=args.iterations)
        if args.iterations
        else DEFAULT_LIMIT
    )
    names = names_of(record)
    try:
        with _progress(sys.stderr.isatty()) as advance:
            workers = args.workers if args.ray else args.workers or 1
            result = review(game, limit, args.seed, workers, advance, names, args.ray)
    except KeyboardInterrupt:
        print(_("interrupted"), file=sys.stderr)
        return 130
    except PatchworkError as e:  # Ray missing, or a cluster that cannot be reached
        print(fmt(_("patchwork review: {error}"), error=error_text(e)), file=sys.stderr)
        return 2
    try:
        if args.png:
            _write(args.png, lambda p: charts.save_png(result, names, p))
        if args.html:
            page = html.render(result, game, names)
            _write(args.html, lambda p: _text(p, page))
    except PatchworkError as e:
        print(fmt(_("patchwork review: {error}"), error=error_text(e)), file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=1))
    else:
        show(result, names, Console())
    return 0
