"""``patchwork play``: the full-screen terminal game (Textual).

Against the AI (the levels of ``ai.levels``), two people at one keyboard, watching two
agents, or solo against the official Automa (``--solo LEVEL``, the engine plays its turns);
the guided first game (``patchwork learn``, :mod:`.learn`) on the same table. The app is a
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

from .. import i18n
from ..ai.levels import DEFAULT_LEVEL, LEVELS, former, recorded_kind
from ..engine import Game, PatchworkError, new_game
from ..engine.automa import Automa
from ..i18n import _, error_text, fmt
from ..i18n.commandline import HelpFormatter, parse
from ..options import rules_from_args
from .game_screen import GameScreen
from .options import AppOptions
from .preferences import Preferences, default_path
from .screens import LEARN
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
from .tutorial import TutorialSession, open_course
from .tutorial import default_path as lessons_path
from .tutorial_screen import TutorialScreen


class PatchworkApp(App[None]):
    """The terminal game: one :class:`GameScreen`, dialogs on top of it (the guided first
    game's :class:`TutorialScreen` for a :class:`TutorialSession`)."""

    CSS_PATH = "app.tcss"
    TITLE = "Patchwork"
    ENABLE_COMMAND_PALETTE = False
    # The first table's mode. The lessons and the other games each have a table, in a mode
    # of its own ("second" for the other), so that the app can go from one to the other.
    DEFAULT_MODE = "first"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit", show=False, priority=True)]

    def __init__(self, session: Session, options: AppOptions | None = None) -> None:
        super().__init__()
        self.session = session
        self.options = options or AppOptions(rules=session.state.rules)
        self.preferences = Preferences.load(self.options.preferences_path)
        first = self.game_screen = self.table(session)
        self.add_mode("first", lambda: first)
        self._tables: dict[type[GameScreen], tuple[str, GameScreen]] = {
            type(first): ("first", first)
        }
        self._games = 0
        self.save_on_exit = True  # main writes --save on leaving unless told not to

    def on_load(self) -> None:
        # Worker processes (the review's, the top level's) are spawned by multiprocessing, which
        # starts its resource tracker on first use and hands it ``sys.stderr.fileno()``.
        # While the app runs, Textual's stand-in for stderr answers -1 there, and every
        # spawn fails ("bad value(s) in fds_to_keep"): start the tracker now, before
        # Textual replaces stdin, stdout and stderr (POSIX: Windows has no such tracker).
        if os.name == "posix":
            resource_tracker.ensure_running()

    def table(self, session: Session) -> GameScreen:
        """The screen that plays ``session``."""
        if isinstance(session, TutorialSession):
            return TutorialScreen(session, host=self)
        return GameScreen(session, host=self)

    def sit(self, session: Session) -> None:
        """Go on with ``session`` on the table that plays it (switching modes when the
        guided first game starts or ends)."""
        old = self.session
        self.session = session
        kind = TutorialScreen if isinstance(session, TutorialSession) else GameScreen
        if type(self.game_screen) is kind:
            self.game_screen.use(session)
        elif kind in self._tables:  # its table is there, from earlier
            self.game_screen.stop_thinking()
            mode, self.game_screen = self._tables[kind]
            self.switch_mode(mode)
            self.game_screen.use(session)
        else:  # a new table, which starts the session as it is shown
            self.game_screen.stop_thinking()
            table = self.game_screen = self.table(session)
            self._tables[kind] = ("second", table)
            self.add_mode("second", lambda: table)
            self.switch_mode("second")
        for seat in old.seats:
            close_agent(seat.agent)

    def new_game(self, kinds: tuple[str, str], automa: Automa | None = None) -> None:
        """Start a fresh game (new setup, same rules) with the seats ``kinds``: a solo game
        against ``automa`` when they are you and Automa; the guided first game for LEARN."""
        if kinds == LEARN:
            self.learn()
            return
        self._games += 1
        seed = None if self.options.seed is None else self.options.seed + 1000 * self._games
        rules = dataclasses.replace(self.options.rules, solo=automa if AUTOMA in kinds else None)
        self.sit(Session(Game(new_game(seed=seed, rules=rules)), make_seats(kinds, seed)))

    def learn(self) -> None:
        """The guided first game where the learner left it (from the start once it is over)."""
        session = open_course(self.options.lessons_path)
        if session.progress.finished:
            session = open_course(self.options.lessons_path, restart=True)
        self.sit(session)

    def resume(self, game: Game, kinds: tuple[str, str], names: tuple[str, str]) -> None:
        """Go on with a loaded game, with the players it was saved with (agents as new)."""
        self.sit(Session(game, make_seats(kinds, self.options.seed, names)))

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
        description=fmt(
            _(
                "Play Patchwork full-screen in the terminal, with the keyboard or the mouse: "
                "against the AI (level1 .. level{last}), two people at one keyboard, watch "
                "two AIs, or solo against Automa (--solo). "
                "Press ? in the game for the keys, L to change the language."
            ),
            last=max(LEVELS),
        ),
    )
    add_game_options(
        parser, opponent=f"level{DEFAULT_LEVEL}", watch=f"level{DEFAULT_LEVEL} level{former(4)}"
    )
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
        names = record.players
        if record.seats is not None:
            a, b = (recorded_kind(kind, record.version) for kind in record.seats)
            saved = (a, b)
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
    options = dataclasses.replace(
        options, preferences_path=default_path(), lessons_path=lessons_path()
    )
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
