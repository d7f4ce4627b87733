"""The ``patchwork`` command: wires the subcommands together; no logic of its own."""

from __future__ import annotations

import importlib
import sys

from . import __version__

# command -> (the module whose ``main(argv) -> int`` runs it, what it does)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": (
        "patchwork.tui.app",
        "play full-screen in the terminal (against the AI, two people, or watch);\n"
        "              'play --plain' for the line-by-line text game",
    ),
    "serve": ("patchwork.server", "run the game server (HTTP and websockets, games in a database)"),
    "tournament": ("patchwork.ai.tournament", "play agents against each other and measure them"),
    "engine": ("patchwork.protocol.engine_server", "speak the engine protocol on stdin/stdout"),
    "cg-host": ("patchwork.protocol.cg_host", "referee a CodinGame Patchwork bot's game"),
    "cg-bot": ("patchwork.protocol.cg_bot", "play as a CodinGame Patchwork bot"),
    "bench": ("patchwork.bench", "measure the speed of the compiled engine and the searcher"),
}

USAGE = (
    "usage: patchwork COMMAND [options]\n\ncommands:\n"
    + "".join(f"  {name:<11} {text}\n" for name, (_, text) in COMMANDS.items())
    + "\nRun 'patchwork COMMAND --help' for a command's options.\n"
)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help", "help"):
        print(USAGE, end="")
        return 0
    if args[0] in ("-V", "--version", "version"):
        print(f"patchwork-game {__version__}")
        return 0
    if args[0] not in COMMANDS:
        print(f"patchwork: unknown command {args[0]!r}\n\n{USAGE}", end="", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[args[0]][0])
    try:
        code: int = module.main(args[1:])
        return code
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
