"""The server's settings: one frozen value object, filled from the command line or by tests."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything that can be tuned; the defaults suit a small public server."""

    db_url: str = "sqlite:///patchwork.db"
    # Each password hash's memory in MiB (argon2id; its time grows with it).
    password_memory: int = 64
    # AI: worker processes, and the least time between the start of an AI turn and its move
    # (counted from the stored turn start, so a restart does not make the AI wait again).
    ai_workers: int = 2
    ai_move_delay: float = 0.0
    # The AI level that thinks in seconds ponders on the person's time while the pool is idle.
    ai_ponder: bool = True
    # The AI workers start with the server (the first AI move does not wait for them), or at
    # the first request that needs them (a server that seldom plays the AI saves their start).
    ai_on_demand: bool = False
    hint_seconds: float = 0.5
    analysis_seconds: float = 2.0
    # The analysis board's search: its last, longest step (each step before it half as long).
    board_seconds: float = 4.0
    # A game review searches each position this many iterations (about 0.8 s at 30,000).
    review_iterations: int = 30_000
    # Reviews a client address may start in a burst (then one every 30 s; 0: no limit).
    review_burst: int = 5
    # Lobby seeks (quick pairings too) one client address may make a minute, after a burst
    # of 10 (0: no limit): each one is news to every lobby client.
    seeks_per_minute: float = 20.0
    # "Play someone now" waits this many seconds for a person, then offers the AI level
    # nearest the player's rating (the player chooses).
    bot_offer_after: float = 20.0
    # How long a dropped player of an online game has to come back before the opponent may
    # claim the game.
    grace_seconds: float = 60.0
    # Websocket input: the largest message read (bigger ones get an error, far bigger ones
    # close the connection), and a token bucket per connection.
    max_message_bytes: int = 4096
    ws_rate: float = 10.0
    ws_burst: int = 30
    # HTTP: the largest request body, and a token bucket per client address and path for
    # requests that change something (0 turns the limit off).
    max_body_bytes: int = 65536
    http_rate: float = 5.0
    http_burst: int = 60
    # Reads that cost (a game loaded, replayed, listed): a token bucket per client address.
    http_read_rate: float = 50.0
    http_read_burst: int = 200
    # Slow clients: the seconds a request's headers, and then its body, may take to arrive.
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    # Websocket connections one client address may hold at once.
    max_ws_per_address: int = 50
    hello_timeout: float = 10.0
    # Finished games kept in memory (the rest are read back from the database on demand).
    finished_cache: int = 256
    # Unfinished games kept in memory while nothing needs them (no connection, no AI turn or
    # clock pending): beyond this many the least recently used are evicted and read back
    # from the database when asked for.
    games_cache: int = 1000
    # An online game nobody joined is deleted after this many seconds (0: never).
    waiting_expiry: float = 7 * 86400.0
    # A tournament starts at least this many seconds after it is created (tests shorten it).
    tournament_lead: float = 10.0
    # A tournament game's player absent this long from their first turn loses it.
    tournament_no_show: float = 60.0
    # One of several equal processes over one PostgreSQL database: the Redis they share
    # (announcements, leases, presence, rate limits; docs/deploy.md), and its keys' prefix.
    redis_url: str | None = None
    redis_prefix: str = "patchwork:"
    # Mail about correspondence games (docs/accounts.md, "Mail"): the SMTP server's URL (None:
    # no mail at all), the From address (None: patchwork@ the public URL's host), how long a
    # player must have been away before their turn is mailed, and the seconds between the
    # rounds that queue and send mail.
    smtp_url: str | None = None
    mail_from: str | None = None
    mail_after: float = 3600.0
    mail_scan: float = 30.0
    # The address people reach this server at: the links in mails start with it.
    public_url: str = "http://127.0.0.1:8000"

    @property
    def mail_sender(self) -> str:
        """The From of every mail."""
        if self.mail_from:
            return self.mail_from
        host = urlsplit(self.public_url).hostname or ""
        if not any(c.isalpha() for c in host) or ":" in host:  # an IP address: no mail domain
            host = "localhost"
        return f"Patchwork <patchwork@{host}>"

    @property
    def is_sqlite(self) -> bool:
        return self.db_url.startswith("sqlite")
