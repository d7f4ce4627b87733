"""``patchwork play``: the full-screen terminal game (Textual).

Against the AI (levels 1-5), two people at one keyboard, watching two agents, or solo
against the official Automa (``--solo LEVEL``, the engine plays its turns). The app is a
view: what it shows and allows comes from the engine, through :class:`Session`.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from multiprocessing import resource_tracker
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen

from .. import i18n
from ..engine import Game, PatchworkError, new_game
from ..engine.automa import Automa
from ..i18n import _, error_text, fmt
from ..i18n.commandline import HelpFormatter, parse
from ..options import rules_from_args
from .game_screen import GameScreen
from .options import AppOptions
from .preferences import Preferences, default_path
from .seats import (
    AUTOMA,
    HUMAN,
    Seat,
    add_game_options,
    close_agent,
    kinds_for,
    make_seats,
    seat_kinds,
)
from .session import Session
from .text import add_solo_options, refuse_seat_options, solo_setup


class PatchworkApp(App[None]):
    """The terminal game: one :class:`GameScreen`, dialogs on top of it."""

    CSS_PATH = "app.tcss"
    TITLE = "Patchwork"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit", show=False, priority=True)]

    def __init__(self, session: Session, options: AppOptions | None = None) -> None:
        super().__init__()
        self.session = session
        self.options = options or AppOptions(rules=session.state.rules)
        self.preferences = Preferences.load(self.options.preferences_path)
        self.game_screen = GameScreen(session, host=self)
        self._games = 0
        self.save_on_exit = True  # main writes --save on leaving unless told not to

    def get_default_screen(self) -> Screen[None]:
        return self.game_screen

    def on_load(self) -> None:
        # Worker processes (the review's, level 5's) are spawned by multiprocessing, which
        # starts its resource tracker on first use and hands it ``sys.stderr.fileno()``.
        # While the app runs, Textual's stand-in for stderr answers -1 there, and every
        # spawn fails ("bad value(s) in fds_to_keep"): start the tracker now, before
        # Textual replaces stdin, stdout and stderr (POSIX: Windows has no such tracker).
        if os.name == "posix":
            resource_tracker.ensure_running()

    def new_game(self, kinds: tuple[str, str], automa: Automa | None = None) -> None:
        """Start a fresh game (new setup, same rules) with the seats ``kinds``: a solo game
        against ``automa`` when they are you and Automa."""
        self._games += 1
        seed = None if self.options.seed is None else self.options.seed + 1000 * self._games
        rules = dataclasses.replace(self.options.rules, solo=automa if AUTOMA in kinds else None)
        old = self.session
        self.session = Session(Game(new_game(seed=seed, rules=rules)), make_seats(kinds, seed))
        self.game_screen.use(self.session)
        for seat in old.seats:
            close_agent(seat.agent)

    def resume(self, game: Game, kinds: tuple[str, str], names: tuple[str, str]) -> None:
        """Go on with a loaded game, with the players it was saved with (agents as new)."""
        seats = make_seats(kinds, self.options.seed, names)
        old = self.session
        self.session = Session(game, seats)
        self.game_screen.use(self.session)
        for seat in old.seats:
            close_agent(seat.agent)

    def quit_game(self, save: bool = True) -> None:
        """Leave; ``save`` False: the person chose not to save (``--save`` is not written)."""
        self.save_on_exit = save
        self.game_screen.shutdown()
        self.exit()

    async def action_quit(self) -> None:
        self.quit_game()

    def on_unmount(self) -> None:
        self.game_screen.shutdown()
        for seat in self.session.seats:
            close_agent(seat.agent)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        formatter_class=HelpFormatter,
        prog="patchwork play",
        description=_(
            "Play Patchwork full-screen in the terminal, with the keyboard or the mouse: "
            "against the AI (level1 .. level5), two people at one keyboard, watch two AIs, "
            "or solo against Automa (--solo). "
            "Press ? in the game for the keys, L to change the language."
        ),
    )
    add_game_options(parser, opponent="level2", watch="level2 level4")
    parser.add_argument(
        "--save", metavar="FILE", help=_("write the game record to FILE on leaving")
    )
    parser.add_argument(
        "--delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help=_("when watching two AIs, at least this long per move (default 0.6)"),
    )
    parser.add_argument(
        "--hint-time",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help=_("how long the hint key searches (default 1)"),
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help=_(
            "the plain line-by-line game instead (works over pipes; same seat, rules, "
            "solo, --lang, --save and --load options)"
        ),
    )
    add_solo_options(parser)
    return parser


def setup(args: argparse.Namespace) -> tuple[Session, AppOptions]:
    """The session and options the command line asks for (PatchworkError when it cannot).

    ``--load`` resumes a game with the seats, names and language it was saved with, unless
    ``--opponent``, ``--agents``, ``--seat`` or ``--lang`` say otherwise."""
    if not args.hint_time > 0 or args.delay < 0:
        raise PatchworkError(_("--hint-time must be positive and --delay not negative"))
    rules = rules_from_args(args)
    saved: tuple[str, str] | None = None
    names: tuple[str, str] | None = None
    if args.load and args.solo is not None:
        raise PatchworkError(_("--load goes on with the saved game: leave out --solo"))
    if args.load:
        record = Session.load_record(args.load)
        game = Game.from_record(record)
        rules = game.start.rules
        saved, names = record.seats, record.players
        if record.language and not args.lang:
            i18n.set_language(record.language)
    elif args.solo is not None:
        game, _seats = solo_setup(args)
        rules = game.start.rules
    else:
        game = Game(new_game(seed=args.seed, rules=rules))
    if rules.solo is not None:
        refuse_seat_options(args)
        kinds = list(kinds_for(rules, saved, (HUMAN, AUTOMA)))
    else:
        kinds = seat_kinds(args, saved)
    seats: tuple[Seat, Seat] = make_seats(kinds, args.seed, names)
    options = AppOptions(
        rules=rules,
        human_seat=kinds.index(HUMAN) if kinds.count(HUMAN) == 1 else 0,
        seed=args.seed,
        delay=args.delay,
        hint_time=args.hint_time,
        save_path=args.save,
    )
    return Session(game, seats), options


def main(argv: list[str] | None = None) -> int:
    """``patchwork play``: 0 when the game ends or is left, 1 on an error, 2 on bad options.

    ``--plain`` hands over to the line-by-line text game (which also works over pipes).
    """
    args_in = sys.argv[1:] if argv is None else argv
    if "--plain" in args_in:
        from .text import main as plain

        return plain([a for a in args_in if a != "--plain"])
    args = parse(build_parser, args_in)
    if isinstance(args, int):
        return args
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(
            _("patchwork play: the full-screen game needs a terminal; use --plain over pipes."),
            file=sys.stderr,
        )
        return 2
    try:
        session, options = setup(args)
    except PatchworkError as e:
        print(fmt(_("patchwork play: {error}"), error=error_text(e)), file=sys.stderr)
        return 1
    # What the app remembers between runs (the command's own: tests leave it out).
    options = dataclasses.replace(options, preferences_path=default_path())
    app = PatchworkApp(session, options)
    app.run()
    if args.save and app.save_on_exit:
        try:
            app.session.record(termination="abandoned").save(args.save)
        except (OSError, PatchworkError) as e:
            print(
                fmt(
                    _("patchwork play: cannot save {path}: {error}"),
                    path=args.save,
                    error=error_text(e),
                ),
                file=sys.stderr,
            )
            return 1
        print(fmt(_("Saved the game record to {path}."), path=args.save))
    return 0
