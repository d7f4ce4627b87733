"""What clients send and see of tournaments (docs/server.md, "Tournaments"): the body that
creates a Swiss event or an arena (strict), an event as the list shows it, and one event's
whole view: its entrants, each round's pairings with their games and results (an arena's
pairings are rounds too, one each time players were paired), and the standings."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

from ..common.limits import STRICT
from ..games.requests import ClockIn, PairRules

Status = Literal["open", "running", "finished", "cancelled"]
Kind = Literal["swiss", "arena"]
Entry = Literal["everyone", "rated"]
MIN_ROUNDS, MAX_ROUNDS = 1, 15
MIN_MINUTES, MAX_MINUTES = 1, 720
NAME_LENGTH = 60


class TournamentIn(BaseModel):
    """A Swiss event of ``rounds`` rounds, or an arena of ``minutes`` minutes, its games with
    these rules and clock, starting at ``starts_at`` (epoch seconds)."""

    model_config = STRICT
    name: str = Field(min_length=1, max_length=NAME_LENGTH)
    kind: Kind = "swiss"
    starts_at: float = Field(description="epoch seconds: from 10 s to 7 days ahead")
    rounds: int | None = Field(default=None, ge=MIN_ROUNDS, le=MAX_ROUNDS, description="Swiss")
    minutes: int | None = Field(
        default=None, ge=MIN_MINUTES, le=MAX_MINUTES, description="an arena's length"
    )
    rules: PairRules = Field(default_factory=PairRules)
    clock: ClockIn = Field(
        description="Fischer or correspondence: a tournament has a clock, so that no game "
        "keeps its round (or an arena's end) waiting for ever"
    )
    rated: bool = False
    entry: Entry = Field(
        default="everyone",
        description="who may join: any account, or accounts whose rating is established "
        "(no longer provisional)",
    )
    bots_allowed: bool = Field(default=False, description="bot accounts may join")

    @model_validator(mode="after")
    def _length(self) -> TournamentIn:
        if self.kind == "swiss" and (self.rounds is None or self.minutes is not None):
            raise ValueError('a Swiss event has "rounds" (1 to 15) and no "minutes"')
        if self.kind == "arena" and (self.minutes is None or self.rounds is not None):
            raise ValueError('an arena has "minutes" (1 to 720) and no "rounds"')
        return self


class TournamentView(BaseModel):
    """An event as the list shows it."""

    id: str
    name: str
    kind: Kind
    created_by: str | None = Field(description="its creator's name (null: the account is gone)")
    created_at: float = Field(description="epoch seconds")
    starts_at: float = Field(description="epoch seconds")
    rounds: int = Field(description="a Swiss event's rounds (0 in an arena)")
    minutes: int | None = Field(description="an arena's length (null in a Swiss event)")
    ends_at: float | None = Field(description="an arena's end, epoch seconds (null: Swiss)")
    rules: PairRules
    clock: ClockIn | None
    rated: bool
    entry: Entry
    bots_allowed: bool
    status: Status
    round: int = Field(
        description="the round under way or last played (0 before the first); in an arena, "
        "how many times players were paired"
    )
    finished_at: float | None
    ended_early: bool = Field(
        description="finished before its last round: no round could be paired without a "
        "rematch (or fewer than 2 players were left)"
    )
    entrants: int = Field(description="players in it (not counting those who withdrew)")


class EntrantView(BaseModel):
    name: str
    rating: int
    provisional: bool
    bot: bool
    withdrawn: bool
    paused: bool = Field(description="an arena's player taking a break: not paired meanwhile")


class PairingView(BaseModel):
    """One game of a round (``first`` in seat 0, moving first), or a bye (``second`` and
    ``game_id`` null, ``result`` 1)."""

    first: str
    second: str | None
    game_id: str | None
    result: float | None = Field(description="the first player's: 1, 0.5, 0; null: playing")


class RoundView(BaseModel):
    round: int
    pairings: list[PairingView]


class StandingView(BaseModel):
    """A row of a Swiss event's table."""

    place: int
    name: str
    score: float
    buchholz: float
    sonneborn_berger: float
    rating: int


class ArenaStandingView(BaseModel):
    """A row of an arena's table (tournaments/arena.py: a win 2, a draw 1, doubled while on
    fire, after two wins in a row)."""

    place: int
    name: str
    points: int
    games: int
    rating: int
    on_fire: bool = Field(description="their next game counts double")
    results: list[float] = Field(description="their finished games' results, in order")


class TournamentDetail(TournamentView):
    players: list[EntrantView] = Field(description="everyone who joined, in that order")
    rounds_played: list[RoundView] = Field(description="each round's pairings, first to last")
    standings: list[StandingView] = Field(
        description="a Swiss event's table after the finished games (empty in an arena)"
    )
    arena_standings: list[ArenaStandingView] = Field(
        description="an arena's table after the finished games (empty in a Swiss event)"
    )


class TournamentList(BaseModel):
    tournaments: list[TournamentView] = Field(description="newest first (by their start)")
    page: int
    more: bool = Field(description="another page follows")


class TournamentGameView(BaseModel):
    """The event a game belongs to (its page offers the way back to it)."""

    tournament_id: str
    name: str
    kind: Kind
    status: Status
    round: int = Field(description="the game's round (in an arena: its pairing)")
