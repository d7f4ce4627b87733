"""``patchwork bot``: play an engine program (or any agent) on a patchwork-game server as a bot
account, until Ctrl-C. Exit status 0 when stopped, 1 when the server refused the account
while it ran, 2 for what stops it from starting (bad options, config file, token or agent; a
server that cannot be reached): one line saying why, never a traceback."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from types import FrameType

from ..ai import agent_names
from ..engine import PatchworkError
from ..i18n import _, error_text, fmt
from ..i18n.commandline import HelpFormatter, add_lang_option, install, parse
from ..options import positive_int
from ..tournament.play import EXTERNAL_PREFIX
from .bridge import Bridge, check_agent
from .client import ApiError, BotClient, Unreachable
from .policy import PolicyError, load_policy

TOKEN_VARIABLE = "PATCHWORK_BOT_TOKEN"
LOG_LEVELS = ("debug", "info", "warning", "error")
log = logging.getLogger("patchwork.bot")


def build_parser() -> argparse.ArgumentParser:
    install()
    p = argparse.ArgumentParser(
        prog="patchwork bot",
        description=_(
            "Play an engine program (or one of the built-in agents) on a patchwork-game "
            "server as a bot account: accept or decline its challenges, play its games, "
            "until Ctrl-C."
        ),
        epilog=fmt(
            _(
                "The token may come from the environment variable {var} instead of --token "
                "(so that it does not show in the list of processes). Agents: {names}, "
                "py:MODULE:FACTORY."
            ),
            var=TOKEN_VARIABLE,
            names=", ".join(agent_names()),
        ),
        formatter_class=HelpFormatter,
    )
    p.add_argument(
        "--server", required=True, metavar="URL", help=_("the server, e.g. https://example.org")
    )
    p.add_argument(
        "--token",
        metavar="TOKEN",
        help=fmt(_("the bot account's API token, pwa_... (default: ${var})"), var=TOKEN_VARIABLE),
    )
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument(
        "--engine",
        metavar="CMD",
        help=_("a program speaking the engine protocol (one argument; each game starts its own)"),
    )
    who.add_argument(
        "--agent", metavar="NAME", help=_("a built-in agent instead (level1 .. level13, random...)")
    )
    p.add_argument("--config", metavar="FILE", help=_("the bot's settings (TOML)"))
    p.add_argument(
        "--max-games",
        type=positive_int,
        metavar="N",
        help=_("games at once, at most (default: the config's, else 4)"),
    )
    p.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        default="info",
        help=_("how much the log says (default info: one line per decision)"),
    )
    add_lang_option(p)
    return p


def _fail(text: str) -> int:
    print(fmt(_("patchwork bot: {error}"), error=text), file=sys.stderr)
    return 2


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # SIGTERM stops the bot as Ctrl-C does


def main(argv: list[str] | None = None) -> int:
    args = parse(build_parser, argv)
    if isinstance(args, int):
        return args
    token = args.token or os.environ.get(TOKEN_VARIABLE, "")
    if not token.strip():
        return _fail(fmt(_("no token: give --token or set {var}"), var=TOKEN_VARIABLE))
    if not args.server.startswith(("http://", "https://")):
        return _fail(fmt(_("{url} is not an http:// or https:// address"), url=args.server))
    logging.basicConfig(
        level=args.log_level.upper(),
        format="%(asctime)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    # httpx logs every request at info: only the bridge's own decisions, unless debugging.
    for name in ("httpx", "httpcore"):
        logging.getLogger(name).setLevel(logging.DEBUG if args.log_level == "debug" else "WARNING")
    try:
        policy = load_policy(args.config, args.max_games)
    except PolicyError as e:
        return _fail(fmt(_("bad config file: {error}"), error=error_text(e)))
    agent = f"{EXTERNAL_PREFIX}{args.engine}" if args.engine else args.agent
    if args.engine is not None and not args.engine.strip():
        return _fail(_("--engine needs a command"))
    try:
        check_agent(agent)
    except PatchworkError as e:
        what = fmt(_("the engine {cmd!r}"), cmd=args.engine) if args.engine else agent
        return _fail(fmt(_("cannot start {what}: {error}"), what=what, error=error_text(e)))
    client = BotClient(args.server, token.strip())
    try:
        try:
            account = client.me()
        except Unreachable as e:
            return _fail(error_text(e))
        except ApiError as e:
            if e.code == "not_signed_in":
                return _fail(fmt(_("the server refused the token: {error}"), error=e.message))
            return _fail(fmt(_("the server answered: {error}"), error=str(e)))
        if not account.get("bot"):  # a program never plays under a person's name
            return _fail(
                fmt(
                    _(
                        "{name} is not a bot account: make it one with POST /api/account/bot "
                        "(docs/bots.md)"
                    ),
                    name=account.get("name"),
                )
            )
        bridge = Bridge(client, agent, policy, account)
        previous = signal.signal(signal.SIGTERM, _terminate)
        try:
            return bridge.run()
        except KeyboardInterrupt:
            bridge.stop()
            return 0
        finally:
            signal.signal(signal.SIGTERM, previous)
    finally:
        client.close()


if __name__ == "__main__":
    sys.exit(main())
