"""The ``patchwork`` command: wires the subcommands together; no logic of its own."""

from __future__ import annotations

import gc
import importlib
import sys

from . import __version__, i18n
from .i18n import N_, _, fmt

# command -> (the module whose ``main(argv) -> int`` runs it, what it does)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": (
        "patchwork.tui.app",
        N_(
            "play full-screen in the terminal (against the AI, two people, or watch);\n"
            "'play --plain' for the line-by-line text game"
        ),
    ),
    "learn": (
        "patchwork.tui.learn",
        N_("learn to play: a first game step by step, lesson by lesson, in the terminal"),
    ),
    "serve": (
        "patchwork.server",
        N_("run the game server (HTTP and websockets, games in a database)"),
    ),
    "tournament": (
        "patchwork.tournament.cli",
        N_("play agents against each other and measure them"),
    ),
    "review": (
        "patchwork.report.cli",
        N_("judge every move of a recorded game: table, chart, JSON, PNG or HTML report"),
    ),
    "analyse": (
        "patchwork.report.analyse",
        N_("search one position: the candidate moves, their chances and lines"),
    ),
    "puzzle": (
        "patchwork.tui.puzzle",
        N_("solve a puzzle: today's, or one by number, theme or difficulty"),
    ),
    "puzzles": (
        "patchwork.server.puzzles.finished",  # the generator, with the server's games to read
        N_("'puzzles generate': find puzzles in self-play or a server's games, each proved"),
    ),
    "admin": (
        "patchwork.server.admin",
        N_("'admin reports', 'admin tournament': look after a server's chat and tournaments"),
    ),
    "engine": ("patchwork.protocol.engine_server", N_("speak the engine protocol on stdin/stdout")),
    "cg-host": ("patchwork.protocol.cg_host", N_("referee a CodinGame Patchwork bot's game")),
    "cg-bot": ("patchwork.protocol.cg_bot", N_("play as a CodinGame Patchwork bot")),
    "bot": (
        "patchwork.bot.cli",
        N_("play an engine on a patchwork-game server as a bot account"),
    ),
    "train": (
        "patchwork.ai.train",
        N_("fit the search's playout policy to the searcher's own choices in self-play"),
    ),
    "bench": ("patchwork.bench", N_("measure the speed of the compiled engine and the searcher")),
}
# The commands whose own options include --lang (the others speak English options only).
TAKES_LANG = frozenset({"play", "learn", "serve", "review", "analyse", "puzzle", "bot"})
INDENT = " " * 15


def usage() -> str:
    """The command's help, in the current language."""
    lines = [_("usage: patchwork COMMAND [options]"), "", _("commands:")]
    for name, (_module, text) in COMMANDS.items():
        first, *rest = _(text).split("\n")
        lines.append(f"  {name:<11}  {first}")
        lines += [INDENT + line for line in rest]
    lines += [
        "",
        _("Run 'patchwork COMMAND --help' for a command's options."),
        fmt(
            _("Languages: --lang {codes} (default: the system locale)."),
            codes=", ".join(i18n.LANGUAGES),
        ),
    ]
    return "\n".join(lines) + "\n"


USAGE = usage()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    i18n.set_language(i18n.lang_option(args))
    # ``patchwork --lang fa COMMAND``: the language is set above; a command that takes --lang
    # is handed it too (it sets the language again from its own options).
    given: list[str] = []
    if args and args[0] == "--lang" and len(args) >= 2:
        given, args = args[:2], args[2:]
    elif args and args[0].startswith("--lang="):
        given, args = args[:1], args[1:]
    if args and args[0] in TAKES_LANG:
        args = [args[0], *given, *args[1:]]
    if not args or args[0] in ("-h", "--help", "help"):
        print(usage(), end="")
        return 0
    if args[0] in ("-V", "--version", "version"):
        print(f"patchwork-game {__version__}")
        return 0
    if args[0] not in COMMANDS:
        message = fmt(_("patchwork: unknown command {command!r}"), command=args[0])
        print(f"{message}\n\n{usage()}", end="", file=sys.stderr)
        return 2
    collecting = gc.isenabled()
    gc.disable()  # importing makes objects that live for good: no collections meanwhile
    try:
        module = importlib.import_module(COMMANDS[args[0]][0])
    finally:
        if collecting:
            gc.enable()
    try:
        code: int = module.main(args[1:])
        return code
    except KeyboardInterrupt:
        print("\n" + _("interrupted"), file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
