"""The ``patchwork`` command: wires the subcommands together; no logic of its own."""

from __future__ import annotations

import sys
from collections.abc import Callable

from . import __version__

USAGE = """usage: patchwork COMMAND [options]

commands:
  play        play full-screen in the terminal (against the AI, two people, or watch);
              'play --plain' for the line-by-line text game
  tournament  play agents against each other and measure their strength
  bench       measure the speed of the compiled rules engine and the searcher

Run 'patchwork COMMAND --help' for a command's options.
"""


def _play(argv: list[str]) -> int:
    if "--plain" in argv:
        from .tui.text import main as plain

        return plain([a for a in argv if a != "--plain"])
    from .tui.app import main

    return main(argv)


def _bench(argv: list[str]) -> int:
    from .bench import main

    return main(argv)


def _tournament(argv: list[str]) -> int:
    from .ai.tournament import main

    return main(argv)


COMMANDS: dict[str, Callable[[list[str]], int]] = {
    "play": _play,
    "tournament": _tournament,
    "bench": _bench,
}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help", "help"):
        print(USAGE, end="")
        return 0
    if args[0] in ("-V", "--version", "version"):
        print(f"patchwork-game {__version__}")
        return 0
    command = COMMANDS.get(args[0])
    if command is None:
        print(f"patchwork: unknown command {args[0]!r}\n\n{USAGE}", end="", file=sys.stderr)
        return 2
    try:
        return command(args[1:])
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
