"""``patchwork learn``: the guided first game, full-screen in the terminal.

The lessons of :mod:`patchwork.tutorial` on the app's own table (:mod:`.tutorial_screen`),
against the gentle AI level 1. The learner's place is kept in a file after every move, so
that the next run comes back to it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..i18n import _, fmt
from ..i18n.commandline import HelpFormatter, add_lang_option, parse
from .app import PatchworkApp
from .options import AppOptions
from .preferences import default_path as preferences_path
from .tutorial import TutorialSession, default_path, open_course


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        formatter_class=HelpFormatter,
        prog="patchwork learn",
        description=_(
            "Learn Patchwork in a first game played step by step against a gentle opponent "
            "(AI level 1): nine short lessons on the real table, each asking for a move. "
            "q leaves; the next run comes back to the same lesson and position."
        ),
    )
    add_lang_option(parser)
    parser.add_argument("--restart", action="store_true", help=_("start the lessons over"))
    parser.add_argument(
        "--progress",
        metavar="FILE",
        type=Path,
        help=fmt(
            _("where your place in the lessons is kept (default {path})"), path=default_path()
        ),
    )
    return parser


def setup(args: argparse.Namespace) -> TutorialSession:
    """The lessons the command line asks for: where they were left, or from the start."""
    return open_course(args.progress or default_path(), restart=args.restart)


def main(argv: list[str] | None = None) -> int:
    """``patchwork learn``: 0 when the lessons are left, 2 on bad options or no terminal."""
    args = parse(build_parser, argv)
    if isinstance(args, int):
        return args
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(_("patchwork learn: the lessons need a terminal."), file=sys.stderr)
        return 2
    session = setup(args)
    options = AppOptions(
        rules=session.state.rules, preferences_path=preferences_path(), lessons_path=session.path
    )
    app = PatchworkApp(session, options)
    app.run()
    kept = app.session
    if isinstance(kept, TutorialSession) and kept.path and not kept.progress.finished:
        print(fmt(_("Your place in the lessons is kept in {path}."), path=kept.path))
    return 0
