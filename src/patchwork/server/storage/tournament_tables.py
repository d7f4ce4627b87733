"""The tables of tournaments (server/tournaments, issue 41), on the schema's one ``metadata``
(models.py is full): ``tournaments`` (one row per event: its terms, status and current
round), ``tournament_entrants`` (who joined, and when they withdrew) and ``tournament_games``
(each round's pairs: a game, or a bye with no game and no second player). Every module that
takes ``models.metadata`` as the whole schema imports this one too (alembic's env.py, the
test comparing the migrations with the models); changes need a migration, as models.py's."""

from __future__ import annotations

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
    String,
    Table,
    false,
)

from .models import ID, metadata

WHEN = DateTime(timezone=True)

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", ID, primary_key=True),
    Column("name", String(60), nullable=False),
    Column("kind", String(8), nullable=False),  # "swiss" or "arena"
    Column("created_by", ID, ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    Column("created_at", WHEN, nullable=False),
    Column("starts_at", WHEN, nullable=False),
    Column("rounds", Integer, nullable=False),  # a Swiss event's (0 in an arena)
    Column("minutes", Integer, nullable=True),  # an arena's length (null in a Swiss event)
    # Who may join: "everyone" (any account) or "rated" (accounts past their provisional rating).
    Column("entry", String(12), nullable=False, server_default="everyone"),
    Column("edition", String(16), nullable=False),
    Column("rotation", Boolean, nullable=False),
    Column("flip", Boolean, nullable=False),
    Column("clock", JSON, nullable=True),  # a ClockIn, as a challenge's; null: no clock
    Column("rated", Boolean, nullable=False),
    Column("bots_allowed", Boolean, nullable=False),
    Column("status", String(10), nullable=False),  # open, running, finished, cancelled
    # The round under way (0 before the first); in an arena, its pairings so far, each a round.
    Column("round", Integer, nullable=False),
    Column("finished_at", WHEN, nullable=True),
    # Finished before its last round: no pairing without a rematch (or too few players) left.
    Column("ended_early", Boolean, nullable=False, server_default=false()),
    Index("ix_tournaments_status", "status", "starts_at"),
    Index("ix_tournaments_created_by", "created_by"),
)

tournament_entrants = Table(
    "tournament_entrants",
    metadata,
    Column(
        "tournament_id",
        ID,
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("user_id", ID, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("joined_at", WHEN, nullable=False),
    Column("withdrawn_at", WHEN, nullable=True),  # withdrawn during the event: not paired again
    Column("paused_at", WHEN, nullable=True),  # an arena's player who takes a break
    Index("ix_tournament_entrants_user_id", "user_id"),
)

# One row per player paired in a round, named by its first player (seat 0; a bye's player):
# the primary key makes a round's pairs written once, whichever process writes them.
tournament_games = Table(
    "tournament_games",
    metadata,
    Column(
        "tournament_id",
        ID,
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("round", Integer, primary_key=True),
    Column("first_user", ID, primary_key=True),
    Column("second_user", ID, nullable=True),  # null: a bye
    Column("game_id", ID, nullable=True),  # made before the game is; null: a bye
    Column("result", Double, nullable=True),  # the first player's: 1, 0.5, 0; null: playing
    Index("ix_tournament_games_game_id", "game_id"),
)

# What happened to an event, one line each (what: created, started, round, no_show, ...; data:
# its names and numbers), for whoever runs the server (patchwork admin tournament --log).
tournament_log = Table(
    "tournament_log",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    Column("tournament_id", ID, ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
    Column("at", WHEN, nullable=False),
    Column("what", String(16), nullable=False),
    Column("data", JSON, nullable=False),
    Index("ix_tournament_log_tournament_id", "tournament_id", "id"),
)
