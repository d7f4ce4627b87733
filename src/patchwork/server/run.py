"""``patchwork serve``: start the game server on uvicorn."""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import signal
import sys
from collections.abc import Callable
from typing import TypeVar

from .. import i18n
from ..i18n import N_, _
from ..i18n.commandline import HelpFormatter, add_lang_option
from .common.config import Settings
from .http.slowclients import with_header_timeout

DEFAULTS = Settings()
Number = TypeVar("Number", int, float)


def _between(
    kind: Callable[[str], Number], low: float, high: float, refusal: str
) -> Callable[[str], Number]:
    """An argparse type: a number read by ``kind`` from ``low`` to ``high``, or ``refusal``."""

    def between(text: str) -> Number:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(_(refusal)) from None
        if not low <= value <= high:  # (never true of "nan")
            raise argparse.ArgumentTypeError(_(refusal))
        return value

    return between


_offer_seconds = _between(float, 1, 600, N_("give 1 to 600 seconds"))  # --bot-offer-after
_mail_after = _between(float, 0, 30 * 86400, N_("give 0 to 2592000 seconds"))
_mail_scan = _between(float, 0.1, 3600, N_("give 0.1 to 3600 seconds"))
_no_show_seconds = _between(float, 1, 3600, N_("give 1 to 3600 seconds"))
_password_mib = _between(int, 1, 1024, N_("give 1 to 1024 MiB"))


def _smtp_url(text: str) -> str:
    """``--smtp``: an SMTP server's URL (mail/smtp.py says which)."""
    from .mail.smtp import SmtpTarget, SmtpUrlError

    try:
        SmtpTarget.parse(text)
    except SmtpUrlError as e:
        raise argparse.ArgumentTypeError(i18n.fill(e.template, e.params)) from None
    return text


def _public_url(text: str) -> str:
    """``--public-url``: http(s)://host[:port][/path], without a query."""
    from urllib.parse import urlsplit

    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise argparse.ArgumentTypeError(_("give an address like https://patchwork.example.org"))
    return text.rstrip("/")


def public_url_of(args: argparse.Namespace) -> str:
    """``--public-url``, or the address this server listens on."""
    if args.public_url:
        return str(args.public_url)
    host = "localhost" if args.host in ("", "0.0.0.0", "::") else args.host
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{args.port}"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        formatter_class=HelpFormatter,
        prog="patchwork serve",
        description=_(
            "Serve Patchwork games over HTTP and websockets (API docs at /docs). Each request "
            "is answered in the language it asks for (?lang=, Accept-Language, the websocket "
            "hello's lang), English by default."
        ),
    )
    p.add_argument("--host", default="127.0.0.1", help=_("address to listen on (127.0.0.1)"))
    p.add_argument("--port", type=int, default=8000, help=_("port to listen on (8000)"))
    p.add_argument(
        "--db",
        default=DEFAULTS.db_url,
        help=_(
            "SQLAlchemy database URL (sqlite:///patchwork.db; PostgreSQL: "
            "postgresql+psycopg://user@host/db); the schema is created and migrated at start"
        ),
    )
    p.add_argument(
        "--ai-workers", type=int, default=DEFAULTS.ai_workers, help=_("AI processes (2)")
    )
    p.add_argument(
        "--password-memory",
        type=_password_mib,
        default=DEFAULTS.password_memory,
        metavar="MIB",
        help=_("memory of each password hash (64; less is quicker to sign in and to guess)"),
    )
    p.add_argument(
        "--ai-delay",
        type=float,
        default=DEFAULTS.ai_move_delay,
        help=_("least seconds between the start of an AI turn and its move (0)"),
    )
    p.add_argument(
        "--no-ponder",
        action="store_true",
        help=_("the AI level that thinks in seconds does not think on the player's time"),
    )
    p.add_argument(
        "--ai-on-demand",
        action="store_true",
        help=_("start the AI processes when first needed, not with the server"),
    )
    p.add_argument(
        "--grace",
        type=float,
        default=DEFAULTS.grace_seconds,
        help=_(
            "seconds a dropped online player has to come back before the game can be claimed (60)"
        ),
    )
    p.add_argument("--hint-seconds", type=float, default=DEFAULTS.hint_seconds)
    p.add_argument("--analysis-seconds", type=float, default=DEFAULTS.analysis_seconds)
    p.add_argument(
        "--board-seconds",
        type=float,
        default=DEFAULTS.board_seconds,
        help=_("seconds of the analysis board's longest search step (4)"),
    )
    p.add_argument(
        "--review-iterations",
        type=int,
        default=DEFAULTS.review_iterations,
        help=_("search iterations for each position of a game review (30000)"),
    )
    p.add_argument(
        "--review-burst",
        type=int,
        default=DEFAULTS.review_burst,
        help=_("game reviews a client may start at once, then one every 30 s (5; 0: no limit)"),
    )
    p.add_argument(
        "--seeks-per-minute",
        type=float,
        default=DEFAULTS.seeks_per_minute,
        help=_("lobby seeks a client may make a minute, after 10 at once (20; 0: no limit)"),
    )
    p.add_argument(
        "--bot-offer-after",
        type=_offer_seconds,
        default=DEFAULTS.bot_offer_after,
        metavar="S",
        help=_("seconds Play someone now waits for a person before it offers a bot (20)"),
    )
    p.add_argument(
        "--ws-rate",
        type=float,
        default=DEFAULTS.ws_rate,
        help=_("websocket messages a second per connection (10; bursts of --ws-burst)"),
    )
    p.add_argument("--ws-burst", type=int, default=DEFAULTS.ws_burst)
    p.add_argument(
        "--http-rate",
        type=float,
        default=DEFAULTS.http_rate,
        help=_("changing HTTP requests a second per client and path (5; 0: no limit)"),
    )
    p.add_argument("--http-burst", type=int, default=DEFAULTS.http_burst)
    p.add_argument(
        "--http-read-rate",
        type=float,
        default=DEFAULTS.http_read_rate,
        help=_("reads of games, records and replays a second per client (50; 0: no limit)"),
    )
    p.add_argument("--http-read-burst", type=int, default=DEFAULTS.http_read_burst)
    p.add_argument(
        "--header-timeout",
        type=float,
        default=DEFAULTS.header_timeout,
        help=_("seconds a request's headers may take to arrive (10)"),
    )
    p.add_argument(
        "--body-timeout",
        type=float,
        default=DEFAULTS.body_timeout,
        help=_("seconds a request's body may take to arrive (30)"),
    )
    p.add_argument(
        "--max-ws-per-address",
        type=int,
        default=DEFAULTS.max_ws_per_address,
        help=_("websocket connections one client address may hold (50)"),
    )
    p.add_argument(
        "--forwarded-allow-ips",
        default="",
        metavar="ADDRESSES",
        help=_(
            "proxies whose X-Forwarded-For and X-Forwarded-Proto headers are believed "
            "(comma-separated addresses or networks; default: none)"
        ),
    )
    p.add_argument(
        "--games-cache",
        type=int,
        default=DEFAULTS.games_cache,
        help=_("unfinished games kept in memory while idle (1000); the rest are read back"),
    )
    p.add_argument(
        "--waiting-expiry",
        type=float,
        default=DEFAULTS.waiting_expiry,
        help=_("seconds an online game nobody joined is kept (604800: a week; 0: forever)"),
    )
    p.add_argument(
        "--tournament-lead",
        type=float,
        default=DEFAULTS.tournament_lead,
        help=_("the fewest seconds between creating a tournament and its start (10)"),
    )
    p.add_argument(
        "--tournament-no-show",
        type=_no_show_seconds,
        default=DEFAULTS.tournament_no_show,
        metavar="SECONDS",
        help=_(
            "a tournament game's player who has not moved this long after their first turn "
            "began loses it and leaves the pairings (60)"
        ),
    )
    p.add_argument(
        "--redis",
        metavar="URL",
        help=_(
            "Redis URL (redis://host:6379/0): run as one of several equal servers over one "
            "PostgreSQL database (docs/deploy.md)"
        ),
    )
    p.add_argument(
        "--redis-prefix",
        default=DEFAULTS.redis_prefix,
        metavar="PREFIX",
        help=_("prefix of this service's Redis keys and channels (patchwork:)"),
    )
    p.add_argument(
        "--smtp",
        type=_smtp_url,
        metavar="URL",
        help=_(
            "send mail about correspondence games through this SMTP server: smtp://host:port, "
            "smtp+starttls://user:password@host:587 or smtps://user:password@host:465 "
            "(default: no mail)"
        ),
    )
    p.add_argument(
        "--mail-from",
        metavar="ADDRESS",
        help=_("the From of the mails (default: Patchwork <patchwork@ the public URL's host>)"),
    )
    p.add_argument(
        "--mail-after",
        type=_mail_after,
        default=DEFAULTS.mail_after,
        metavar="S",
        help=_(
            "seconds a player must have been away from the site before their turn in a "
            "correspondence game is mailed to them (3600)"
        ),
    )
    p.add_argument(
        "--mail-scan",
        type=_mail_scan,
        default=DEFAULTS.mail_scan,
        metavar="S",
        help=_("seconds between the rounds that find what mail is due and send it (30)"),
    )
    p.add_argument(
        "--public-url",
        type=_public_url,
        metavar="URL",
        help=_(
            "the address people reach this server at, for the links in mails "
            "(default: http://HOST:PORT of --host and --port)"
        ),
    )
    p.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
    )
    add_lang_option(p, N_("language of this command's help ({codes}; default: the system locale)"))
    p.add_argument("--no-access-log", action="store_true", help=_("do not log every request"))
    p.add_argument(
        "--no-ws-compression",
        action="store_true",
        help=_("do not compress websocket messages (permessage-deflate): less CPU, more bytes"),
    )
    return p


def settings_from(args: argparse.Namespace) -> Settings:
    return Settings(
        db_url=args.db,
        ai_workers=args.ai_workers,
        password_memory=args.password_memory,
        ai_move_delay=args.ai_delay,
        ai_ponder=not args.no_ponder,
        ai_on_demand=args.ai_on_demand,
        grace_seconds=args.grace,
        hint_seconds=args.hint_seconds,
        analysis_seconds=args.analysis_seconds,
        board_seconds=args.board_seconds,
        review_iterations=args.review_iterations,
        review_burst=args.review_burst,
        seeks_per_minute=args.seeks_per_minute,
        bot_offer_after=args.bot_offer_after,
        ws_rate=args.ws_rate,
        ws_burst=args.ws_burst,
        http_rate=args.http_rate,
        http_burst=args.http_burst,
        http_read_rate=args.http_read_rate,
        http_read_burst=args.http_read_burst,
        header_timeout=args.header_timeout,
        body_timeout=args.body_timeout,
        max_ws_per_address=args.max_ws_per_address,
        games_cache=args.games_cache,
        waiting_expiry=args.waiting_expiry,
        tournament_lead=args.tournament_lead,
        tournament_no_show=args.tournament_no_show,
        redis_url=args.redis,
        redis_prefix=args.redis_prefix,
        smtp_url=args.smtp,
        mail_from=args.mail_from,
        mail_after=args.mail_after,
        mail_scan=args.mail_scan,
        public_url=public_url_of(args),
    )


def cluster_problem(settings: Settings) -> str | None:
    """Why the server cannot start as one of several (None: it can, or it runs alone)."""
    if settings.redis_url is None:
        return None
    if settings.is_sqlite:
        return _(
            "--redis needs a database that every server shares (PostgreSQL: --db "
            "postgresql+psycopg://...); a SQLite file is one process's"
        )
    import redis

    try:
        client = redis.Redis.from_url(
            settings.redis_url, socket_connect_timeout=3, socket_timeout=3
        )
        client.ping()
        client.close()
    except (redis.RedisError, OSError, ValueError) as e:
        return _("cannot reach Redis at {url}: {error}").format(url=settings.redis_url, error=e)
    return None


GC_THRESHOLDS = (20_000, 50, 100)  # gc.set_threshold: allocations, then collections


def main(argv: list[str] | None = None) -> int:
    """Run the server until interrupted; returns the exit status."""
    args_in = sys.argv[1:] if argv is None else argv
    i18n.set_language(i18n.lang_option(args_in))
    args = build_parser().parse_args(args_in)
    import uvicorn

    from .http.app import create_app

    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s: %(message)s")
    if args.log_level != "debug":
        logging.getLogger("alembic").setLevel(logging.WARNING)
    settings = settings_from(args)
    problem = cluster_problem(settings)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        access_log=not args.no_access_log,
        ws_max_size=1 << 20,
        ws_per_message_deflate=not args.no_ws_compression,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        timeout_graceful_shutdown=5,
        # X-Forwarded-For decides the rate limits' client address: believed only from the
        # proxies named (uvicorn would believe any local client by default).
        proxy_headers=bool(args.forwarded_allow_ips),
        forwarded_allow_ips=args.forwarded_allow_ips or None,
    )
    config.load()
    if settings.header_timeout > 0:
        config.http_protocol_class = with_header_timeout(
            config.http_protocol_class, settings.header_timeout
        )
    server = uvicorn.Server(config)
    # A server holds many long-lived objects (games, views, connections) and makes many
    # short-lived ones per move: what is loaded by now is never scanned again, and young
    # objects are collected less often (full collections paused a busy server for a third
    # of a second; see benchmarks/server_load.py).
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    # uvicorn stops gracefully on Ctrl-C or SIGTERM, then raises the signal again for the
    # handler it found: Python's for SIGINT raises KeyboardInterrupt, and SIGTERM's default
    # would end the process before the interpreter's exit handlers (they remove the AI
    # workers' folder in the system's temporary folder). Both stops end here, quietly.
    signal.signal(signal.SIGTERM, _stop)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    # uvicorn reports a failed start (a port in use, a database it cannot reach) by not
    # having started; an ordinary stop (Ctrl-C, SIGTERM) is success.
    return 0 if server.started else 1


def _stop(signum: int, frame: object) -> None:
    """SIGTERM, once uvicorn has shut down: stop as Ctrl-C does."""
    raise KeyboardInterrupt
