"""What a notification says (one closed set of kinds, each with the data it needs; the client
writes it in the reader's language), the list and the read request of the HTTP routes, and
the messages delivered on an account's socket (``/ws/me``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from ..common.limits import MAX_COUNT

GameId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,24}$")]
PlayerName = Annotated[str, Field(min_length=1, max_length=40)]
NotificationId = Annotated[int, Field(ge=1, le=2**53)]


class _About(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class ChallengeAbout(_About):
    """``by`` challenged you (the challenges domain adds it; its UI shows the challenge)."""

    kind: Literal["challenge"] = "challenge"
    challenge_id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,32}$")
    by: PlayerName


class YourTurnAbout(_About):
    """It became your turn in a correspondence game against ``opponent``."""

    kind: Literal["your_turn"] = "your_turn"
    game_id: GameId
    opponent: PlayerName


class GameOverAbout(_About):
    """Your game against ``opponent`` ended: you ``result``, by ``termination`` (finished,
    resigned, abandoned, time), ``scores`` yours first (None: not counted)."""

    kind: Literal["game_over"] = "game_over"
    game_id: GameId
    opponent: PlayerName
    result: Literal["won", "lost", "draw"]
    termination: str = Field(max_length=16)
    scores: list[int] | None = Field(default=None, min_length=2, max_length=2)


class FollowStartedAbout(_About):
    """``player``, whom you follow, started a game against ``opponent``."""

    kind: Literal["follow_started"] = "follow_started"
    game_id: GameId
    player: PlayerName
    opponent: PlayerName


class TournamentAbout(_About):
    """Round ``round`` of the tournament named ``tournament`` began (in an arena: you were
    paired again, ``round`` counting the arena's pairings): your game against ``opponent``
    is ready (``game_id``), or, both null, you have a bye this round."""

    kind: Literal["tournament"] = "tournament"
    tournament_id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,24}$")
    tournament: str = Field(min_length=1, max_length=60)
    round: int = Field(ge=1, le=1_000_000)
    arena: bool = False
    game_id: GameId | None = None
    opponent: PlayerName | None = None


About = Annotated[
    ChallengeAbout | YourTurnAbout | GameOverAbout | FollowStartedAbout | TournamentAbout,
    Field(discriminator="kind"),
]
about_adapter: TypeAdapter[Any] = TypeAdapter(About)


class Notification(BaseModel):
    """One entry of an account's list."""

    id: int = Field(description="increasing: a later notification has a larger id")
    at: float = Field(description="when it was made (seconds since the epoch)")
    read: bool
    about: About


class NotificationPage(BaseModel):
    """The account's notifications, newest first; ``more``: older ones exist (ask again with
    ``before`` = the last id here); ``unread``: how many of all are unread."""

    notifications: list[Notification]
    unread: int
    more: bool


class ReadRequest(BaseModel):
    """Mark these of your notifications read (``ids``), or all of them (``all``: true)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    ids: list[NotificationId] | None = Field(default=None, min_length=1, max_length=200)
    all: bool = False

    @model_validator(mode="after")
    def _one(self) -> ReadRequest:
        if (self.ids is None) == (not self.all):
            raise ValueError('give either "ids" (a list of notification ids) or "all": true')
        return self


class ReadResult(BaseModel):
    unread: int = Field(ge=0, le=MAX_COUNT, description="how many of yours are still unread")


# -- messages on the account's socket (/ws/me) ----------------------------------------------


class NotificationMessage(BaseModel):
    """A new notification (also in the list: a client that hears it twice shows it once)."""

    type: Literal["notification"] = "notification"
    notification: Notification


class NotificationsReadMessage(BaseModel):
    """Notifications were marked read (on any of the account's pages): ``ids``, or all of
    them (None); ``unread``: how many are left."""

    type: Literal["notifications_read"] = "notifications_read"
    ids: list[int] | None
    unread: int
