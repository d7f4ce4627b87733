"""What clients send and see of tournaments (docs/server.md, "Tournaments"): the body that
creates a Swiss event (strict), an event as the list shows it, and one event's whole view:
its entrants, each round's pairings with their games and results, and the standings."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ..common.limits import STRICT
from ..games.requests import ClockIn, PairRules

Status = Literal["open", "running", "finished", "cancelled"]
MIN_ROUNDS, MAX_ROUNDS = 1, 15
NAME_LENGTH = 60


class TournamentIn(BaseModel):
    """A Swiss event: ``rounds`` rounds, its games with these rules and clock, starting at
    ``starts_at`` (epoch seconds)."""

    model_config = STRICT
    name: str = Field(min_length=1, max_length=NAME_LENGTH)
    kind: Literal["swiss"] = "swiss"
    starts_at: float = Field(description="epoch seconds: from 10 s to 7 days ahead")
    rounds: int = Field(ge=MIN_ROUNDS, le=MAX_ROUNDS)
    rules: PairRules = Field(default_factory=PairRules)
    clock: ClockIn | None = Field(default=None, description="null: no clock")
    rated: bool = False
    bots_allowed: bool = Field(default=False, description="bot accounts may join")


class TournamentView(BaseModel):
    """An event as the list shows it."""

    id: str
    name: str
    kind: Literal["swiss"]
    created_by: str | None = Field(description="its creator's name (null: the account is gone)")
    created_at: float = Field(description="epoch seconds")
    starts_at: float = Field(description="epoch seconds")
    rounds: int
    rules: PairRules
    clock: ClockIn | None
    rated: bool
    bots_allowed: bool
    status: Status
    round: int = Field(description="the round under way or last played (0 before the first)")
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
    place: int
    name: str
    score: float
    buchholz: float
    sonneborn_berger: float
    rating: int


class TournamentDetail(TournamentView):
    players: list[EntrantView] = Field(description="everyone who joined, in that order")
    rounds_played: list[RoundView] = Field(description="each round's pairings, first to last")
    standings: list[StandingView] = Field(description="the table after the finished games")


class TournamentList(BaseModel):
    tournaments: list[TournamentView] = Field(description="newest first (by their start)")
    page: int
    more: bool = Field(description="another page follows")
