"""The database schema (SQLAlchemy Core tables) and the plain records read from it.

Games: ``games`` (one row per game: setup, seats, clock, result, version), ``moves`` (the
moves of the game's current line; an undo deletes rows), ``events`` (every change, numbered
by the game's version, kept while the game is: what a reconnecting client missed) and
``reviews`` (a finished game's review, computed once: the search settings and the JSON).
Accounts (docs/accounts.md): ``users``, their ``sessions``, ``rating_history`` (one row per
rated game and player) and the lobby's ``seeks``. Puzzles: ``puzzle_ratings`` and
``puzzle_attempts``. People: ``follows``, ``blocks``, ``seen``, ``challenges``. Chat:
``chat_messages``, ``chat_reports``, ``chat_mutes``. Notifications: ``notifications``,
``mail_addresses``, ``mails``.
Changes to these tables need a migration in ``migrations/versions``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Self

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Double,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    false,
    text,
)

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_name)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

ID = String(24)
TOKEN = String(64)  # sha256 hex of a secret; the secrets themselves are never stored

games = Table(
    "games",
    metadata,
    Column("id", ID, primary_key=True),
    Column("parent_id", ID, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("mode", String(8), nullable=False),
    Column("status", String(10), nullable=False),
    Column("version", Integer, nullable=False),
    Column("edition", String(16), nullable=False),
    Column("rotation", Boolean, nullable=False),
    Column("flip", Boolean, nullable=False),
    Column("circle", JSON, nullable=False),
    Column("first_player", Integer, nullable=False),
    Column("seat0_kind", String(8), nullable=False),
    Column("seat1_kind", String(8), nullable=False),
    Column("seat0_name", String(64), nullable=False),
    Column("seat1_name", String(64), nullable=False),
    Column("seat0_token", TOKEN, nullable=True),
    Column("seat1_token", TOKEN, nullable=True),
    Column("invite_hash", TOKEN, nullable=True),
    Column("ai_level", Integer, nullable=True),
    Column("ai_seed", BigInteger, nullable=False),
    Column("clock", JSON, nullable=True),
    # A solo game: Automa's level, deck, takes_specials and the deck's seed (secret, D6).
    Column("solo", JSON, nullable=True),
    Column("remaining0", BigInteger, nullable=True),
    Column("remaining1", BigInteger, nullable=True),
    Column("turn_started", Double, nullable=True),
    Column("termination", String(16), nullable=True),
    Column("winner", Integer, nullable=True),
    Column("scores", JSON, nullable=True),
    Column("rematch_offer", Integer, nullable=True),
    Column("rematch_id", ID, nullable=True),
    # Accounts: the account each seat is bound to (null: a guest, an AI, Automa), whether the
    # game counts for the rating, and once it was rated, each seat's change (the mark that it
    # was rated: docs/accounts.md).
    Column("seat0_user", ID, ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    Column("seat1_user", ID, ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    Column("rated", Boolean, nullable=False, default=False),
    # (SQL NULL while unrated, not JSON null: ratings/rating.py finds the unrated ones by it.)
    Column("ratings", JSON(none_as_null=True), nullable=True),
    # Both players agreed, when the game was made, that a rated game's moves may be taken back
    # (games/takebacks.py); a casual game between people allows takebacks anyway.
    Column("takebacks", Boolean, nullable=False, default=False, server_default=false()),
    Column("takeback_offer", Integer, nullable=True),  # the seat asking to take back, if any
    # The seat whose takeback was declined: it may not ask again until the next move.
    Column("takeback_declined", Integer, nullable=True),
    # A bot account sat in the seat (server/bots): its BOT label stays with the game.
    Column("seat0_bot", Boolean, nullable=False, server_default=false()),
    Column("seat1_bot", Boolean, nullable=False, server_default=false()),
    Index("ix_games_status", "status"),
    Index("ix_games_seat0_user", "seat0_user"),
    Index("ix_games_seat1_user", "seat1_user"),
)

users = Table(
    "users",
    metadata,
    Column("id", ID, primary_key=True),
    Column("name", String(20), nullable=False),
    # The look-alike key (accounts/names.py): unique, so "Ann", "ANN" and "Am" with "rn" are
    # one name.
    Column("name_key", String(20), nullable=False, unique=True),
    Column("password_hash", String(200), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("rating", Double, nullable=False),
    Column("rd", Double, nullable=False),
    Column("volatility", Double, nullable=False),
    Column("people_games", Integer, nullable=False),
    # A bot (server/bots): a program plays with this account's API tokens, for good.
    Column("bot", Boolean, nullable=False, server_default=false()),
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", TOKEN, primary_key=True),
    Column("user_id", ID, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("kind", String(8), nullable=False),  # "cookie" or "api"
    Column("csrf_hash", TOKEN, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Index("ix_sessions_user_id", "user_id"),
)

# The addresses an account has signed in from (hashed): a sign-in from one of them is not
# held back by the failures of strangers (accounts/limits.py).
sign_in_addresses = Table(
    "sign_in_addresses",
    metadata,
    Column("user_id", ID, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("address_hash", TOKEN, primary_key=True),
    Column("last_at", DateTime(timezone=True), nullable=False),
)

rating_history = Table(
    "rating_history",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    Column("user_id", ID, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("game_id", ID, ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("rating_before", Double, nullable=False),
    Column("rd_before", Double, nullable=False),
    Column("rating", Double, nullable=False),
    Column("rd", Double, nullable=False),
    Column("volatility", Double, nullable=False),
    Column("opponent_name", String(64), nullable=False),
    Column("opponent_user", ID, ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    Column("opponent_rating", Double, nullable=False),
    Column("score", Double, nullable=False),
    UniqueConstraint("user_id", "game_id", name="uq_rating_history_user_game"),
    Index("ix_rating_history_user_id", "user_id"),
)

seeks = Table(
    "seeks",
    metadata,
    Column("id", ID, primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    # Who made it: an account, or a guest's lobby connection (the hash of its secret).
    Column("user_id", ID, ForeignKey("users.id", ondelete="CASCADE"), nullable=True),
    Column("guest_hash", TOKEN, nullable=True),
    Column("name", String(64), nullable=False),
    Column("rating", Double, nullable=True),
    Column("rd", Double, nullable=True),  # its deviation (a provisional rating shows "?")
    Column("quick", Boolean, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("edition", String(16), nullable=False),
    Column("rotation", Boolean, nullable=False),
    Column("flip", Boolean, nullable=False),
    Column("clock", JSON, nullable=True),
    Column("rating_min", Integer, nullable=True),
    Column("rating_max", Integer, nullable=True),
    Column("node", String(32), nullable=True),  # the process holding its creator's connection
    # Once accepted: the game it started (kept a little while, so that a creator whose
    # process missed the announcement still finds its game).
    Column("game_id", ID, nullable=True),
)

moves = Table(
    "moves",
    metadata,
    Column("game_id", ID, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("move", String(16), nullable=False),
    Column("played_at", DateTime(timezone=True), nullable=False),
    Column("remaining", BigInteger, nullable=True),
)

events = Table(
    "events",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    Column("game_id", ID, ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("version", Integer, nullable=False),
    Column("kind", String(24), nullable=False),
    Column("data", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("game_id", "version", name="uq_events_game_version"),
)

reviews = Table(
    "reviews",
    metadata,
    Column("game_id", ID, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("version", Integer, nullable=False),
    Column("iterations", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("data", JSON, nullable=False),
)

# Puzzles (docs/puzzles.md, "Puzzle rating"): an account's puzzle rating, and its attempts, one
# per puzzle (the first: only it counts). Written by puzzles/store.py.
puzzle_ratings = Table(
    "puzzle_ratings",
    metadata,
    Column("user_id", ID, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("rating", Double, nullable=False),
    Column("rd", Double, nullable=False),
    Column("volatility", Double, nullable=False),
    Column("attempts", Integer, nullable=False),  # the rated attempts
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

puzzle_attempts = Table(
    "puzzle_attempts",
    metadata,
    Column("user_id", ID, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("puzzle_id", String(8), primary_key=True),
    Column("won", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


# People (server/people): who follows whom, who blocked whom (no challenges, no chat from
# them), when an account was last seen anywhere, and the challenges to a named player.
follows = Table(
    "follows",
    metadata,
    Column("user_id", ID, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("target_id", ID, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_follows_target_id", "target_id"),
)

blocks = Table(
    "blocks",
    metadata,
    Column("user_id", ID, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("target_id", ID, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_blocks_target_id", "target_id"),
)

seen = Table(
    "seen",
    metadata,
    Column("user_id", ID, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("at", DateTime(timezone=True), nullable=False),
)

challenges = Table(
    "challenges",
    metadata,
    Column("id", ID, primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("challenger_id", ID, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("challenged_id", ID, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    # open, accepted, declined, cancelled, expired
    Column("status", String(10), nullable=False),
    Column("reason", String(16), nullable=True),  # why it was declined
    Column("rated", Boolean, nullable=False),
    Column("takebacks", Boolean, nullable=False),
    Column("edition", String(16), nullable=False),
    Column("rotation", Boolean, nullable=False),
    Column("flip", Boolean, nullable=False),
    Column("clock", JSON, nullable=True),
    Column("seat", String(8), nullable=False),  # the challenger's: "0", "1" or "random"
    Column("rematch_of", ID, nullable=True),  # the game this challenge is a rematch of
    Column("game_id", ID, nullable=True),  # once accepted: the game it started
    Column("answered_at", DateTime(timezone=True), nullable=True),
    Index("ix_challenges_challenged_id", "challenged_id"),
    Index("ix_challenges_challenger_id", "challenger_id"),
    Index("ix_challenges_status", "status", "expires_at"),  # the open ones that lapsed
    # One open challenge from one player to another (challenges/store.py).
    Index(
        "uq_challenges_open_pair",
        "challenger_id",
        "challenged_id",
        unique=True,
        sqlite_where=text("status = 'open'"),
        postgresql_where=text("status = 'open'"),
    ),
)

# Chat (server/chat): the messages of each room ("lobby", "game:<id>" for its players,
# "watch:<id>" for its spectators), the reports on them, and accounts muted site-wide.
chat_messages = Table(
    "chat_messages",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    Column("room", String(40), nullable=False),
    Column("user_id", ID, ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    Column("name", String(64), nullable=False),
    Column("text", String(400), nullable=False),
    Column("preset", String(8), nullable=True),  # a preset phrase's key: each reader's language
    Column("seat", Integer, nullable=True),  # the author's seat, in a game's players' room
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_chat_messages_room", "room", "id"),
)

chat_reports = Table(
    "chat_reports",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    Column(
        "message_id", BigInteger, ForeignKey("chat_messages.id", ondelete="CASCADE"), nullable=False
    ),
    Column("reporter_id", ID, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("reason", String(16), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("resolved_at", DateTime(timezone=True), nullable=True),
    UniqueConstraint("message_id", "reporter_id", name="uq_chat_reports_message_reporter"),
)

chat_mutes = Table(
    "chat_mutes",
    metadata,
    Column("user_id", ID, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("note", String(200), nullable=False),
)

# Notifications (server/notifications): the list each account reads on the site, its optional
# mail address (confirmed by a link before any mail goes to it) and the mails waiting to go.
notifications = Table(
    "notifications",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    Column("user_id", ID, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("data", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("read_at", DateTime(timezone=True), nullable=True),
    Index("ix_notifications_user_id", "user_id", "id"),
)

mail_addresses = Table(
    "mail_addresses",
    metadata,
    Column("user_id", ID, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("address", String(254), nullable=False),
    # When the address was set, or its confirmation last sent (the link lasts a week from it).
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("confirm_hash", TOKEN, nullable=True, unique=True),  # until the address is confirmed
    Column("confirmed_at", DateTime(timezone=True), nullable=True),
    Column("stopped_at", DateTime(timezone=True), nullable=True),  # a mail's stop link was used
    Column("lang", String(16), nullable=False),  # the language its mails are written in
)

mails = Table(
    "mails",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    Column("user_id", ID, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    # What the mail is about, once: "turn:<game>:<version>", so no mail is queued twice.
    Column("key", String(64), nullable=False, unique=True),
    Column("kind", String(16), nullable=False),
    Column("data", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # A process claims a mail until claimed_until; it is marked sent once SMTP took it.
    Column("claimed_until", DateTime(timezone=True), nullable=True),
    Column("sent_at", DateTime(timezone=True), nullable=True),
    Column("attempts", Integer, nullable=False, default=0),
    # The hash of the address it went (goes) to, and of the secret of its one-click stop link
    # (set when it is claimed for sending: the secret itself is only in the mail).
    Column("sent_to", TOKEN, nullable=True),
    Column("stop_hash", TOKEN, nullable=True),
    Index("ix_mails_sent_at", "sent_at"),
    Index("ix_mails_sent_to", "sent_to"),
)


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def as_utc(value: dt.datetime) -> dt.datetime:
    """SQLite hands back naive datetimes: they were written as UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)


class Row:
    """A record of one row read (a dataclass whose field names are the columns read)."""

    TIMES: ClassVar[tuple[str, ...]] = ("created_at",)  # read back as UTC (None stays None)

    @classmethod
    def from_row(cls, row: Any) -> Self:
        d = dict(row)
        d.update({name: as_utc(d[name]) for name in cls.TIMES if d[name] is not None})
        return cls(**d)

    def to_row(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]


@dataclass
class GameData(Row):
    """One row of ``games``."""

    TIMES = ("created_at", "updated_at")

    id: str
    created_at: dt.datetime
    updated_at: dt.datetime
    mode: str
    status: str
    version: int
    edition: str
    rotation: bool
    flip: bool
    circle: list[int]
    first_player: int
    seat0_kind: str
    seat1_kind: str
    seat0_name: str
    seat1_name: str
    ai_seed: int
    parent_id: str | None = None
    seat0_token: str | None = None
    seat1_token: str | None = None
    invite_hash: str | None = None
    ai_level: int | None = None
    clock: dict[str, Any] | None = None
    solo: dict[str, Any] | None = None
    remaining0: int | None = None
    remaining1: int | None = None
    turn_started: float | None = None
    termination: str | None = None
    winner: int | None = None
    scores: list[int] | None = None
    rematch_offer: int | None = None
    rematch_id: str | None = None
    seat0_user: str | None = None
    seat1_user: str | None = None
    rated: bool = False
    ratings: list[dict[str, Any] | None] | None = None
    takebacks: bool = False
    takeback_offer: int | None = None
    takeback_declined: int | None = None
    seat0_bot: bool = False
    seat1_bot: bool = False

    def update(self, changes: dict[str, Any]) -> None:
        for key, value in changes.items():
            if not hasattr(self, key):
                raise AttributeError(key)
            setattr(self, key, value)

    # seat helpers
    def kind(self, seat: int) -> str:
        return self.seat0_kind if seat == 0 else self.seat1_kind

    def name(self, seat: int) -> str:
        return self.seat0_name if seat == 0 else self.seat1_name

    def bot(self, seat: int) -> bool:
        return self.seat0_bot if seat == 0 else self.seat1_bot

    def token_hash(self, seat: int) -> str | None:
        return self.seat0_token if seat == 0 else self.seat1_token

    def user(self, seat: int) -> str | None:
        """The account seat ``seat`` is bound to (None: none)."""
        return self.seat0_user if seat == 0 else self.seat1_user

    def remaining(self) -> list[int] | None:
        if self.remaining0 is None or self.remaining1 is None:
            return None
        return [self.remaining0, self.remaining1]


@dataclass(frozen=True)
class UserData(Row):
    """One row of ``users``."""

    id: str
    name: str
    name_key: str
    password_hash: str
    created_at: dt.datetime
    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06
    people_games: int = 0
    bot: bool = False


@dataclass(frozen=True)
class MoveData:
    game_id: str
    ply: int
    seat: int
    move: str
    played_at: dt.datetime = field(default_factory=utcnow)
    remaining: int | None = None


@dataclass(frozen=True)
class EventData:
    game_id: str
    version: int
    kind: str
    data: dict[str, Any]
    created_at: dt.datetime = field(default_factory=utcnow)

    def message(self) -> dict[str, Any]:
        return {"version": self.version, "kind": self.kind, **self.data}


@dataclass(frozen=True)
class ReviewData(Row):
    """One row of ``reviews``: the review of a finished game at ``version``, searched with
    ``iterations`` a position from ``seed``; ``data`` is the review view's JSON."""

    game_id: str
    version: int
    iterations: int
    seed: int
    data: dict[str, Any]
    created_at: dt.datetime = field(default_factory=utcnow)
