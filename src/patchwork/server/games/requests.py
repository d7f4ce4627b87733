"""What clients send about games: the bodies of the HTTP requests and the messages of a game's
websocket (pydantic; also the OpenAPI description at /docs), and the words both they and the
views use (seats, modes, seat kinds). docs/server.md describes them in prose."""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from ...ai.levels import DEFAULT_LEVEL, LEVELS
from ..common.limits import MAX_COUNT, STRICT, check_name, not_a_bool

Seat = Literal[0, 1]
Mode = Literal["ai", "local", "online", "solo"]
SeatKind = Literal["human", "ai", "automa"]
AutomaDeck = Literal["normal", "tactical"]
AutomaFilter = Literal["no_overtake", "most_buttons", "largest", "furthest"]
AutomaColumn = Literal["bonus", "buttons", "patches_with_buttons", "printed_buttons"]

# -- requests ---------------------------------------------------------------------------------
# Request models are strict (docs/server.md, "Strict requests"): a value of the wrong JSON type
# is refused, never converted ("1" is not 1, true is not 1), so a client's mistake shows.

SeatChoice = Annotated[Literal[0, 1, "random"], BeforeValidator(not_a_bool)]
Name = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(check_name)]
# Versions and plies: what the database's 32-bit columns hold (a game changes a few hundred
# times at most), so no number a client sends can overflow a query.
Version = Annotated[int, Field(ge=0, le=MAX_COUNT)]
Ply = Annotated[int, Field(ge=0, le=MAX_COUNT)]


class SoloIn(BaseModel):
    """The official solo mode: Automa's ``level`` (1 Intern .. 5 Legend) and its ``deck``
    (``tactical``: its next budget shows)."""

    model_config = STRICT
    level: int = Field(ge=1, le=5, description="Automa's level: 1 Intern .. 5 Legend")
    deck: AutomaDeck = Field(default="normal", description="Automa's deck of cards")


class RulesIn(BaseModel):
    model_config = STRICT
    edition: Literal["revised", "original"] = "revised"
    rotation: bool = True
    flip: bool = True
    solo: SoloIn | None = Field(
        default=None, description="a solo game against Automa (mode solo; null: two players)"
    )


class PairRules(BaseModel):
    """The rules of a game between two people (a lobby seek's, a challenge's): no solo mode."""

    model_config = ConfigDict(extra="forbid", strict=True)
    edition: Literal["revised", "original"] = "revised"
    rotation: bool = True
    flip: bool = True


class ClockIn(BaseModel):
    """Fischer: ``initial`` seconds each plus ``increment`` seconds per move; or
    correspondence: ``days`` for each move."""

    model_config = STRICT
    kind: Literal["fischer", "correspondence"]
    initial: float | None = Field(default=None, ge=1, le=10_800)
    increment: float = Field(default=0, ge=0, le=600)
    days: int | None = Field(default=None, ge=1, le=30)

    @model_validator(mode="after")
    def _complete(self) -> ClockIn:
        if self.kind == "fischer" and self.initial is None:
            raise ValueError("a fischer clock needs initial (seconds)")
        if self.kind == "correspondence" and self.days is None:
            raise ValueError("a correspondence clock needs days (per move)")
        return self


class CreateGame(BaseModel):
    """``ai``: you against the AI; ``local``: two people at one screen (one token plays both
    seats); ``online``: you and a friend who joins with the invitation; ``solo``: you against
    the official Automa (``rules.solo``), seat 0, moving first."""

    model_config = STRICT
    mode: Mode
    level: int = Field(
        default=DEFAULT_LEVEL, ge=min(LEVELS), le=max(LEVELS), description="AI level (mode ai)"
    )
    seat: SeatChoice = Field(default=0, description="your seat (modes ai and online)")
    first_player: SeatChoice = Field(default=0, description="the seat that moves first")
    rules: RulesIn = Field(default_factory=RulesIn)
    clock: ClockIn | None = None
    seed: int | None = Field(default=None, ge=0, le=2**62, description="reproducible circle")
    circle: list[int] | None = Field(
        default=None, max_length=33, description="an explicit circle (33 patch ids)"
    )
    name: Name | None = Field(
        default=None, description="your name; by default Player N, N your seat + 1"
    )
    opponent_name: Name | None = Field(
        default=None, description="the second name (mode local); by default Player 2"
    )
    rated: bool = Field(
        default=False,
        description="counts for your rating (mode ai, signed in; no undo, hints or analysis)",
    )

    @model_validator(mode="after")
    def _solo_setup(self) -> CreateGame:
        if self.rated and self.mode != "ai":
            raise ValueError("only a game against the AI (mode ai) is rated when created")
        solo = self.rules.solo is not None
        if self.mode == "solo" and not solo:
            raise ValueError("a solo game needs rules.solo (Automa's level and deck)")
        if self.mode != "solo" and solo:
            raise ValueError("rules.solo is for mode solo (you against Automa)")
        if solo and (self.seat != 0 or self.first_player != 0):
            raise ValueError("in a solo game you sit in seat 0 and move first")
        return self


class JoinGame(BaseModel):
    model_config = STRICT
    invite: str = Field(min_length=1, max_length=64)
    name: Name | None = Field(default=None, description="by default Player N, N the seat + 1")


class MoveIn(BaseModel):
    model_config = STRICT
    move: str = Field(min_length=1, max_length=32, description="the move in the notation")
    version: Version = Field(description="the game version the move was chosen in")


class VersionIn(BaseModel):
    model_config = STRICT
    version: Version | None = None


class RematchIn(BaseModel):
    model_config = STRICT
    action: Literal["offer", "accept", "decline"] = "offer"


class TakebackIn(BaseModel):
    model_config = STRICT
    action: Literal["ask", "accept", "decline", "cancel"]


class AnalysisIn(BaseModel):
    model_config = STRICT
    ply: Ply | None = Field(default=None, description="analyse after this many moves")


# -- websocket messages from clients ----------------------------------------------------------

Ref = str | int | None


class _Msg(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)
    id: Ref = Field(default=None, description="echoed back as ref in the reply")


class HelloMsg(_Msg):
    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=128)
    last_version: Version | None = None


class MoveMsg(_Msg):
    type: Literal["move"]
    move: str = Field(min_length=1, max_length=32)
    version: Version


class UndoMsg(_Msg):
    type: Literal["undo"]
    version: Version | None = None


class SimpleMsg(_Msg):
    type: Literal["resign", "claim", "hint", "ping", "sync"]


class RematchMsg(_Msg):
    type: Literal["rematch"]
    action: Literal["offer", "accept", "decline"] = "offer"


class TakebackMsg(_Msg):
    type: Literal["takeback"]
    action: Literal["ask", "accept", "decline", "cancel"]


class AnalysisMsg(_Msg):
    type: Literal["analysis"]
    ply: Ply | None = None


# Chat (chat/, docs/server.md "Chat"), on this socket and the lobby's: here so that both
# closed sets can hold them.
ChatPreset = Literal["hi", "gl", "gg", "wp", "thanks"]


class ChatIn(BaseModel):
    """A chat line: ``text`` (1-140 characters once cleaned) or a ``preset`` phrase's key,
    not both."""

    model_config = ConfigDict(extra="forbid", strict=True)
    text: str | None = Field(default=None, max_length=600)
    preset: ChatPreset | None = None

    @model_validator(mode="after")
    def _one(self) -> Self:
        if (self.text is None) == (self.preset is None):
            raise ValueError("send either text or preset")
        return self


class ChatSendMsg(_Msg, ChatIn):
    """Say something in the connection's chat room (a :class:`ChatIn`)."""

    model_config = ConfigDict(extra="ignore", strict=True)
    type: Literal["chat"]


class ChatReportMsg(_Msg):
    """Report a message of the connection's chat room (accounts only; once per message)."""

    type: Literal["chat_report"]
    message_id: int = Field(ge=1, le=2**63 - 1)
    reason: Literal["abuse", "spam", "other"]


ClientMessage = Annotated[
    HelloMsg
    | MoveMsg
    | UndoMsg
    | SimpleMsg
    | RematchMsg
    | AnalysisMsg
    | TakebackMsg
    | ChatSendMsg
    | ChatReportMsg,
    Field(discriminator="type"),
]
