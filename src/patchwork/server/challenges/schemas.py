"""What clients send and see of challenges (docs/server.md, "Challenges"): the bodies of the
HTTP requests (strict), a challenge as either player sees it, and the closed set of messages
delivered to both players' own sockets (``/ws/me``) on every change, told apart by ``type``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, model_validator

from ...i18n import N_
from ..common.limits import STRICT
from ..games.requests import ClockIn, Name, PairRules, SeatChoice

Status = Literal["open", "accepted", "declined", "cancelled", "expired"]
GameId = Annotated[str, Field(min_length=1, max_length=24)]

# Why a challenge was declined: a closed set, each with its words (as lichess's).
REASONS: dict[str, str] = {
    "generic": N_("I am not accepting challenges at the moment."),
    "later": N_("This is not the right time for me, please ask again later."),
    "too_fast": N_(
        "This time control is too fast for me, please challenge again with a slower game."
    ),
    "too_slow": N_(
        "This time control is too slow for me, please challenge again with a faster game."
    ),
    "time_control": N_("I am not accepting challenges with this time control."),
    "rated": N_("Please send me a rated challenge instead."),
    "casual": N_("Please send me a casual challenge instead."),
    "rules": N_("I am not accepting challenges with these rules."),
}
Reason = Literal[
    "generic", "later", "too_fast", "too_slow", "time_control", "rated", "casual", "rules"
]

# -- requests ---------------------------------------------------------------------------------


class ChallengeIn(BaseModel):
    """Challenge the player ``to`` with these rules and clock; or, at the end of an online game
    between two accounts, offer its rematch (``rematch_of``: the game's id, alone: the same
    rules, clock and ratedness, the seats swapped)."""

    model_config = STRICT
    to: Name | None = Field(default=None, description="the player's name (not with rematch_of)")
    rules: PairRules = Field(default_factory=PairRules)
    clock: ClockIn | None = Field(default=None, description="null: no clock")
    rated: bool = False
    takebacks: bool = Field(
        default=False,
        description="a rated game allows takebacks (both agree by this challenge and its "
        "acceptance); a casual game between people allows them anyway",
    )
    seat: SeatChoice = Field(default="random", description="your seat; seat 0 moves first")
    rematch_of: GameId | None = Field(default=None, description="the finished game to replay")

    @model_validator(mode="after")
    def _one_kind(self) -> ChallengeIn:
        if self.rematch_of is not None:
            if self.model_fields_set - {"rematch_of"}:
                raise ValueError("a rematch takes its game's terms: send rematch_of alone")
        elif self.to is None:
            raise ValueError("say whom to challenge (to) or which game to replay (rematch_of)")
        return self


class DeclineIn(BaseModel):
    model_config = STRICT
    reason: Reason = Field(default="generic", description="why, from a closed set")


# -- what clients see -------------------------------------------------------------------------


class ChallengeView(BaseModel):
    """A challenge as either of its players sees it."""

    id: str
    challenger: str = Field(description="who challenges: an account's name")
    challenger_rating: int
    challenger_provisional: bool
    challenger_bot: bool = Field(description="the challenger is a bot account")
    challenged: str = Field(description="who is challenged: an account's name")
    challenged_rating: int
    challenged_provisional: bool
    challenged_bot: bool = Field(description="the challenged player is a bot account")
    rules: PairRules
    clock: ClockIn | None
    rated: bool
    takebacks: bool = Field(description="a rated game allowing takebacks")
    seat: SeatChoice = Field(description="the challenger's seat (0 moves first)")
    rematch_of: str | None = Field(description="the game this is a rematch of")
    status: Status
    reason: Reason | None = Field(description="declined: why")
    reason_text: str | None = Field(description="declined: why, in the language of the request")
    game_id: str | None = Field(description="accepted: the game it started")
    created_at: float = Field(description="epoch seconds")
    expires_at: float = Field(description="epoch seconds: it lapses then unless answered")


class ChallengeList(BaseModel):
    incoming: list[ChallengeView] = Field(description="open challenges to you, oldest first")
    outgoing: list[ChallengeView] = Field(description="your open challenges, oldest first")


class Accepted(BaseModel):
    challenge: ChallengeView
    game_id: str
    watch_url: str
    ws_url: str


# -- delivered to both players' /ws/me ---------------------------------------------------------


class _Change(BaseModel):
    challenge: ChallengeView


class ChallengeNew(_Change):
    """A challenge was made (to the challenged player, and to the challenger's other pages)."""

    type: Literal["challenge_new"] = "challenge_new"


class ChallengeAccepted(_Change):
    """Accepted: the game started; both players go to it."""

    type: Literal["challenge_accepted"] = "challenge_accepted"
    game_id: str


class ChallengeDeclined(_Change):
    """Declined, with the reason (``challenge.reason``)."""

    type: Literal["challenge_declined"] = "challenge_declined"


class ChallengeCancelled(_Change):
    type: Literal["challenge_cancelled"] = "challenge_cancelled"


class ChallengeExpired(_Change):
    """Not answered in time (docs/server.md: 10 minutes, a correspondence one 3 days)."""

    type: Literal["challenge_expired"] = "challenge_expired"


ChallengeMessage = Annotated[
    ChallengeNew | ChallengeAccepted | ChallengeDeclined | ChallengeCancelled | ChallengeExpired,
    Field(discriminator="type"),
]
