"""The lobby websocket's messages (``/ws/lobby``, docs/server.md "Lobby"): what a client may
send (:data:`LobbyClientMessage`, strict) and the closed set the server sends
(:data:`LobbyServerMessage`), both told apart by ``type``. Kept apart from games/schemas.py and
games/messages.py (the game's own sets)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from ...ai.levels import LEVELS
from ..games.messages import ChatAck, ChatMessage, ErrorMessage, Pong
from ..games.requests import ChatReportMsg, ChatSendMsg, ClockIn, PairRules, Seat

Ref = str | int | None
RATING_LIMIT = 4000  # no rating goes near it; bounds what a range may hold
SeekId = Annotated[str, Field(min_length=1, max_length=24)]

# -- from the client ------------------------------------------------------------------------


class _Msg(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)
    id: Ref = Field(default=None, description="echoed back as ref in the reply")


SeekRules = PairRules  # a seek's rules: those of any game between two people (no solo mode)


class LobbyHelloMsg(_Msg):
    type: Literal["hello"]
    lang: str | None = Field(default=None, max_length=16)


class SeekMsg(_Msg):
    """Offer a game to whoever accepts: its rules and clock (null: none), rated or casual,
    and optionally the ratings of the opponents it is open to."""

    type: Literal["seek"]
    rules: SeekRules = Field(default_factory=SeekRules)
    clock: ClockIn | None = None
    rated: bool = False
    rating_min: int | None = Field(default=None, ge=0, le=RATING_LIMIT)
    rating_max: int | None = Field(default=None, ge=0, le=RATING_LIMIT)

    @model_validator(mode="after")
    def _range(self) -> SeekMsg:
        low, high = self.rating_min, self.rating_max
        if low is not None and high is not None and low > high:
            raise ValueError("rating_min is above rating_max")
        return self


class SeekRefMsg(_Msg):
    """``cancel`` a seek of yours (or your quick pairing), ``accept`` someone's."""

    type: Literal["cancel", "accept"]
    seek_id: SeekId


class QuickMsg(_Msg):
    """Play someone now: paired with the next player waiting whose rating is close."""

    type: Literal["quick"]
    rated: bool = False


class PlayBotMsg(_Msg):
    """Play an AI level now (your open seeks and quick pairing are withdrawn): rated if you
    ask and the rules for rating games against the AI allow it, else casual."""

    type: Literal["play_bot"]
    level: int = Field(ge=min(LEVELS), le=max(LEVELS), description=f"the AI level, 1-{max(LEVELS)}")
    rated: bool = True


class LobbyPingMsg(_Msg):
    type: Literal["ping"]


LobbyClientMessage = Annotated[
    LobbyHelloMsg
    | SeekMsg
    | SeekRefMsg
    | QuickMsg
    | PlayBotMsg
    | LobbyPingMsg
    | ChatSendMsg  # the lobby's chat room (chat/)
    | ChatReportMsg,
    Field(discriminator="type"),
]
lobby_client_messages: TypeAdapter[Any] = TypeAdapter(LobbyClientMessage)

# -- from the server ------------------------------------------------------------------------


class SeekView(BaseModel):
    """An open seek, as every lobby shows it."""

    id: str
    name: str = Field(description="who made it: an account's name or a guest's")
    bot: bool = Field(default=False, description="a bot account: a program plays it (BOT)")
    rating: int | None = Field(description="the maker's rating (null: a guest)")
    provisional: bool = Field(description="the maker's rating is not sure yet (shown with ?)")
    rated: bool
    rules: SeekRules
    clock: ClockIn | None
    rating_min: int | None
    rating_max: int | None
    created_at: float = Field(description="epoch seconds")
    mine: bool = Field(description="made on this connection")


class BotView(BaseModel):
    """An AI level as every lobby lists it: always there, and ready at once."""

    level: int
    name: str = Field(description='"AI level 3", as its seat is named (English)')
    rating: int = Field(description="its fixed rating")
    description: str = Field(description="how it plays (English: clients translate it)")
    rated: bool = Field(description="a game against it would count for your rating now")


class You(BaseModel):
    name: str = Field(description="the account's name, or the guest name given for now")
    rating: int | None = Field(description="null: a guest")
    provisional: bool = Field(description="the rating is not sure yet (shown with ?)")
    signed_in: bool
    nearest_bot: int = Field(description="the AI level whose rating is nearest yours")


class LobbyWelcome(BaseModel):
    """The answer to ``hello``: who you are here, the open seeks and the bots."""

    type: Literal["welcome"] = "welcome"
    you: You
    seeks: list[SeekView]
    quick: str | None = Field(default=None, description="your quick pairing's id, waiting")
    bots: list[BotView] = Field(description="the AI levels, always listed")
    bot_offer_after: float = Field(
        description="seconds quick pairing waits for a person before offering nearest_bot"
    )
    server_time: float


class SeeksChanged(BaseModel):
    """What changed in the list of open seeks since the last list or change this connection
    was sent (the welcome has the whole list): never the whole list again, so a busy lobby
    costs each client only its news."""

    type: Literal["seeks_changed"] = "seeks_changed"
    seeks: list[SeekView] = Field(description="seeks new to the list, or changed (by id)")
    removed: list[str] = Field(description="the ids of the seeks gone from the list")
    quick: str | None = Field(description="your quick pairing's id while it waits")
    server_time: float


class PairedMessage(BaseModel):
    """A game started for you (a seek of yours was accepted, you accepted one, or quick
    pairing found you an opponent): play it at ``ws_url`` with ``token``."""

    type: Literal["paired"] = "paired"
    game_id: str
    seat: Seat
    token: str = Field(description="your seat's secret (an account also plays its seat)")
    seek_id: str = Field(description="the seek that became the game")
    opponent: str
    rated: bool
    watch_url: str
    ws_url: str


class BotGame(BaseModel):
    """The answer to ``play_bot``: your game against that AI level has started; play it at
    ``ws_url`` with ``token``."""

    type: Literal["bot_game"] = "bot_game"
    game_id: str
    seat: Seat
    token: str = Field(description="your seat's secret (an account also plays its seat)")
    level: int
    rated: bool
    watch_url: str
    ws_url: str
    ref: Ref = None


class LobbyAck(BaseModel):
    type: Literal["ack"] = "ack"
    of: Literal["seek", "cancel", "accept", "quick"]
    seek_id: str
    game_id: str | None = Field(default=None, description="accept: the game it started")
    ref: Ref = None


LobbyMessage = (
    LobbyWelcome
    | SeeksChanged
    | PairedMessage
    | BotGame
    | LobbyAck
    | ErrorMessage
    | Pong
    | ChatMessage  # the lobby's chat room (chat/)
    | ChatAck
)
LobbyServerMessage = Annotated[LobbyMessage, Field(discriminator="type")]
lobby_server_messages: TypeAdapter[Any] = TypeAdapter(LobbyServerMessage)


def encode(message: LobbyMessage) -> str:
    return message.model_dump_json()
