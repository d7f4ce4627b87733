"""What an account's event stream sends (docs/bots.md): what its /ws/me sockets hear, and a
game of the account started or ended (events.py delivers those to every seated account, on
every process). One closed set, told apart by ``type``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from ..challenges.schemas import (
    ChallengeAccepted,
    ChallengeCancelled,
    ChallengeDeclined,
    ChallengeExpired,
    ChallengeNew,
)
from ..games.requests import SeatKind
from ..notifications.schemas import NotificationMessage, NotificationsReadMessage
from ..people.messages import MeWelcome
from ..storage.models import GameData


class GameBrief(BaseModel):
    """A game as one of its players' programs needs to know it to open its stream."""

    game_id: str
    seat: int = Field(description="the account's seat (0 moves first)")
    opponent: str = Field(description="the other seat's name")
    opponent_kind: SeatKind
    opponent_bot: bool = Field(description="a bot account sits in the other seat")
    rated: bool
    clock: Literal["fischer", "correspondence"] | None = Field(
        description="the kind of clock (null: none); the game's stream has its times"
    )
    stream_url: str = Field(description="the game's own stream: GET it with the same token")

    @classmethod
    def of(cls, data: GameData, seat: int) -> GameBrief:
        other = 1 - seat
        return cls(
            game_id=data.id,
            seat=seat,
            opponent=data.name(other),
            opponent_kind=data.kind(other),  # type: ignore[arg-type]
            opponent_bot=data.bot(other),
            rated=data.rated,
            clock=None if data.clock is None else data.clock["kind"],
            stream_url=f"/api/games/{data.id}/stream",
        )


class GameStart(BaseModel):
    """A game of the account began (or was under way when the stream opened)."""

    type: Literal["game_start"] = "game_start"
    game: GameBrief


class GameFinish(BaseModel):
    """A game of the account ended: ``winner`` is a seat, or null for a draw."""

    type: Literal["game_finish"] = "game_finish"
    game: GameBrief
    winner: int | None
    termination: str | None


EventMessage = Annotated[
    MeWelcome
    | ChallengeNew
    | ChallengeAccepted
    | ChallengeDeclined
    | ChallengeCancelled
    | ChallengeExpired
    | NotificationMessage
    | NotificationsReadMessage
    | GameStart
    | GameFinish,
    Field(discriminator="type"),
]
event_messages: TypeAdapter[Any] = TypeAdapter(EventMessage)
