"""``patchwork analyse POSITION|RECORD``: the searcher's candidate moves and lines in one
position, for the player to move."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.table import Table

from .. import i18n
from ..ai import Limit
from ..ai.analysis import analyse, as_dict
from ..ai.search import SearchResult
from ..engine import PatchworkError, Record, State
from ..i18n import _, error_text, fmt, number
from ..i18n.commandline import HelpFormatter, parse
from ..options import positive_int, positive_seconds, whole_int
from .terminal import percent, signed

DEFAULT_SECONDS = 2.0
SHOWN = 8  # candidates listed by default
LINE_SHOWN = 6  # moves of each line


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        formatter_class=HelpFormatter,
        prog="patchwork analyse",
        description=_(
            "Search one position and show, for the player to move, the win probability and "
            "expected margin of each candidate move, with the line the searcher expects."
        ),
    )
    p.add_argument(
        "position", metavar="POSITION|RECORD",
        help=_("a position text, or a game record file (.json or .txt; - reads stdin)"),
    )  # fmt: skip
    p.add_argument(
        "--ply", type=whole_int, metavar="N",
        help=_("with a record: the position after its first N moves (default: its last)"),
    )  # fmt: skip
    limit = p.add_mutually_exclusive_group()
    limit.add_argument(
        "--time", type=positive_seconds, metavar="S",
        help=fmt(_("seconds of search (default {s})"), s=DEFAULT_SECONDS),
    )  # fmt: skip
    limit.add_argument(
        "--iterations", type=positive_int, metavar="N",
        help=_("search iterations instead of seconds (the same on any machine)"),
    )  # fmt: skip
    p.add_argument(
        "--workers", type=positive_int, default=1, metavar="W",
        help=_("processes searching at once (default 1)"),
    )  # fmt: skip
    p.add_argument("--seed", type=int, default=0, help=_("search seed (default 0)"))
    p.add_argument(
        "--top", type=positive_int, default=SHOWN, metavar="K",
        help=fmt(_("candidates shown (default {n})"), n=SHOWN),
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help=_("print the analysis as JSON instead"))
    p.add_argument("--lang", choices=i18n.LANGUAGES, help=_("language of the output"))
    return p


def position_of(given: str, ply: int | None) -> tuple[State, str]:
    """The position to analyse and where it comes from, in words. ``given`` is a record file,
    ``-`` (a record or a position text on stdin) or a position text; a bad one raises
    PatchworkError saying what was wrong."""
    path = Path(given)
    typed = given != "-" and not path.is_file()  # the text itself, not a file's
    text = sys.stdin.read() if given == "-" else given if typed else path.read_text("utf-8")
    try:
        state = State.from_text(text.strip())
    except PatchworkError as position_error:
        if typed and " " not in given and (path.suffix in (".json", ".txt") or "/" in given):
            raise PatchworkError(fmt(_("no such file: {path}"), path=given)) from None
        if typed and "\n" not in given:
            raise PatchworkError(
                fmt(
                    _("{given!r} is no file and no position text: {error}"),
                    given=given,
                    error=error_text(position_error),
                )
            ) from None
        return _from_record(Record.parse(text), ply)
    if ply is not None:
        raise PatchworkError(_("--ply needs a game record, not a position"))
    return state, _("the position given")


def _from_record(record: Record, ply: int | None) -> tuple[State, str]:
    game = record.replay()
    moves = len(game.moves)
    n = moves if ply is None else ply
    if n > moves:
        raise PatchworkError(fmt(_("the game has {moves} moves, not {ply}"), moves=moves, ply=n))
    where = (
        _("the starting position")
        if n == 0
        else fmt(_("the position after move {n} of {moves}"), n=n, moves=moves)
    )
    return game.states[n], where


@contextmanager
def _searching(console: Console | None) -> Iterator[Callable[[int, float], None] | None]:
    """A line on stderr while it searches: iterations so far and the seconds."""
    if console is None:
        yield None
        return
    with console.status(_("searching")) as status:
        yield lambda n, s: status.update(
            fmt(_("searching: {n} iterations, {s} s"), n=number(n, ","), s=round(s, 1))
        )


def _line(moves: list[str]) -> str:
    return " ".join(moves[:LINE_SHOWN]) + (" …" if len(moves) > LINE_SHOWN else "")


def show(result: SearchResult, where: str, top: int, console: Console) -> None:
    who = fmt(_("Player {n}"), n=result.player + 1)
    console.print(fmt(_("{who} to move in {where}"), who=who, where=where))
    verdict = fmt(
        _("Best: {move}: win {win}, margin {margin}"),
        move=str(result.best_move),
        win=percent(result.win_probability),
        margin=signed(result.margin),
    )
    if result.exact:
        verdict += " " + _("(proved by the exact endgame search)")
    console.print(verdict, highlight=False)
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column(_("move"), no_wrap=True)
    table.add_column(_("visits"), justify="right")
    table.add_column(_("win"), justify="right")
    table.add_column(_("margin"), justify="right")
    table.add_column(_("line"), no_wrap=True, overflow="ellipsis")
    for k, c in enumerate(result.candidates[:top], start=1):
        table.add_row(
            number(k),
            str(c.move),
            number(c.visits, ","),
            percent(c.win_probability),
            signed(c.margin),
            _line([str(m) for m in c.line]),
        )
    console.print(table, highlight=False)
    console.print(
        fmt(
            _("{n} iterations in {s} s"),
            n=number(result.iterations, ","),
            s=round(result.seconds, 1),
        ),
        style="dim",
    )


def main(argv: list[str] | None = None) -> int:
    """``patchwork analyse``: 0 done, 2 bad arguments or a position or record that cannot be
    read, a ply the record does not have, or a game already over there."""
    args = parse(build_parser, argv)
    if isinstance(args, int):
        return args
    try:
        state, where = position_of(args.position, args.ply)
        if state.is_terminal():
            raise PatchworkError(_("the game is over at that point: nothing to analyse"))
    except (PatchworkError, OSError) as e:
        print(fmt(_("patchwork analyse: {error}"), error=error_text(e)), file=sys.stderr)
        return 2
    limit = (
        Limit(iterations=args.iterations)
        if args.iterations
        else Limit(time=args.time or DEFAULT_SECONDS)
    )
    status = Console(stderr=True) if sys.stderr.isatty() else None
    try:
        with _searching(status) as on_info:
            result = analyse(state, limit, args.workers, args.seed, on_info)
    except KeyboardInterrupt:
        print(_("interrupted"), file=sys.stderr)
        return 130
    if args.json:
        data = {"position": state.to_text(public=True), **as_dict(result)}
        print(json.dumps(data, ensure_ascii=False, indent=1))
    else:
        show(result, where, args.top, Console())
    return 0
