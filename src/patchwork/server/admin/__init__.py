"""``patchwork admin``: what whoever runs a server looks after, one subcommand each: ``reports``
(the chat's reports and muted accounts: chat/admin.py) and ``tournament`` (the events: list,
cancel, remove a player, read the log: tournaments/admin.py). Each reads and writes the
server's database directly (``--db``, as ``patchwork serve`` takes it); nothing else needs to
run. A request that cannot be carried out is one line on stderr and exit status 1."""

from __future__ import annotations

import argparse
import sys

from ...i18n import _
from ...i18n.commandline import HelpFormatter
from ..accounts.admin import AdminError
from ..chat import admin as chat_admin
from ..tournaments import admin as tournament_admin


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="patchwork admin",
        formatter_class=HelpFormatter,
        description=_(
            "Look after a game server: its chat's reports and muted accounts, its tournaments."
        ),
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    chat_admin.add_parser(sub)
    tournament_admin.add_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    try:
        said: str | None = args.run(args)
    except AdminError as e:
        print(f"patchwork admin: {e}", file=sys.stderr)
        return 1
    if said is not None:
        print(said)
    return 0


if __name__ == "__main__":
    sys.exit(main())
