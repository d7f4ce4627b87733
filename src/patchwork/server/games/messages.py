"""Everything the server sends over a game's websocket: one closed set of typed messages
(:data:`ServerMessage`, told apart by ``type``), and the one function that turns a message
into the text sent (:func:`encode`). The models are those /docs and docs/server.md show;
what the clients send is :data:`~patchwork.server.schemas.ClientMessage`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    model_serializer,
)

from .requests import Seat, SeatKind
from .schemas import Analysis, Event, GameView, Hint, HistoryEntry, MoveEvent, PlayView

Ref = str | int | None

events: TypeAdapter[Any] = TypeAdapter(Event)  # the events as stored, typed

# -- server messages ----------------------------------------------------------------------------


class Welcome(BaseModel):
    """The answer to ``hello``: who this connection is."""

    type: Literal["welcome"] = "welcome"
    game_id: str
    seats: list[Seat] = Field(description="the seats this connection plays (none: watching)")
    role: Literal["player", "spectator"]
    version: int
    server_time: float = Field(description="the server's clock, epoch seconds")


class StateMessage(BaseModel):
    """The whole game: after ``hello``, after a ``sync`` request and after every change
    other than a move."""

    type: Literal["state"] = "state"
    version: int
    event: Event | None = Field(description="the change that led here (null: none, a snapshot)")
    server_time: float
    game: GameView


class UpdateMessage(BaseModel):
    """A move was made: what changed from version ``since`` to ``version``. A client at
    ``since`` applies ``changes`` over its view and appends ``entry`` to the history; any
    other client asks for the whole game (``sync``)."""

    type: Literal["update"] = "update"
    since: int
    version: int
    event: MoveEvent
    server_time: float
    entry: HistoryEntry = Field(description="the move, as the history lists it")
    changes: PlayView


class SyncMessage(BaseModel):
    """After a reconnecting ``hello``: the changes missed since ``since``, then the game."""

    type: Literal["sync"] = "sync"
    since: int
    version: int
    events: list[Event]
    server_time: float
    game: GameView


class Ack(BaseModel):
    """A request was carried out (its ``state`` or ``update`` came first)."""

    type: Literal["ack"] = "ack"
    of: Literal["move", "undo", "resign", "claim", "rematch", "takeback"]
    version: int
    game_id: str | None = Field(default=None, description="rematch: the new game, if any")
    ref: Ref = Field(default=None, description="the request's id")


class ErrorMessage(BaseModel):
    """A request that was refused (nothing changed), or a problem with the connection."""

    type: Literal["error"] = "error"
    code: str = Field(description="what went wrong, the same in every language")
    message: str = Field(description="what went wrong, in the connection's language")
    plain: str | None = Field(
        default=None,
        description="illegal_move: the same reason in plain words, without move notation",
    )
    version: int | None = Field(default=None, description="stale_version: the game's version")
    to_move: Seat | None = Field(default=None, description="not_your_turn: whose turn it is")
    retry_after: float | None = Field(default=None, description="seconds until trying helps")
    ref: Ref = Field(default=None, description="the request's id")

    @model_serializer(mode="wrap")
    def _only_the_facts_given(self, write: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # The fields of a few codes only, left out where they say nothing.
        data: dict[str, Any] = write(self)
        for name in ("plain", "version", "to_move", "retry_after"):
            if data[name] is None:
                del data[name]
        return data


class PresenceSeat(BaseModel):
    seat: Seat
    kind: SeatKind
    connected: bool
    away_since: float | None
    claim_from: float | None = Field(description="when the opponent may claim the game")
    claimable: bool


class PresenceMessage(BaseModel):
    """Who is connected: sent when a seat comes or goes, and when a grace period ends."""

    type: Literal["presence"] = "presence"
    version: int
    server_time: float
    seats: list[PresenceSeat]
    spectators: int


class HintMessage(Hint):
    type: Literal["hint"] = "hint"
    ref: Ref = None


class AnalysisMessage(Analysis):
    type: Literal["analysis"] = "analysis"
    ref: Ref = None


class Pong(BaseModel):
    type: Literal["pong"] = "pong"
    server_time: float
    ref: Ref = None


class ChatLine(BaseModel):
    """One message of a chat room (chat/, docs/server.md "Chat")."""

    id: int = Field(description="unique and increasing: a client shows each id once")
    name: str = Field(description="who said it: an account's name, or a guest player's seat's")
    account: bool = Field(description="the author is an account (its name links its profile)")
    seat: int | None = Field(description="in a players' room: the author's seat")
    text: str = Field(description="the words (a preset's in English: show preset's instead)")
    preset: str | None = Field(description="a preset phrase's key: shown in the reader's language")
    at: float = Field(description="epoch seconds")
    mine: bool = Field(description="said by this connection's player")


class ChatMessage(BaseModel):
    """Messages of the connection's chat room: after ``hello`` the room's latest (``history``
    true), then each new one as it is said. Sent on the game and the lobby websockets."""

    type: Literal["chat"] = "chat"
    room: Literal["players", "spectators", "lobby"]
    history: bool
    lines: list[ChatLine]
    can_send: bool = Field(description="whether this connection may write in the room")
    refusal: str | None = Field(default=None, description="why not, in the connection's language")


class ChatAck(BaseModel):
    """A chat message was stored (``of`` chat), or a report taken (``of`` chat_report)."""

    type: Literal["chat_ack"] = "chat_ack"
    of: Literal["chat", "chat_report"]
    message_id: int
    ref: Ref = None


# Every message a socket sends is a pydantic model of its closed set: the game socket's is
# ``ServerMessage`` (http/game_socket.py: these, and the reviews' of reviews/messages.py), the
# lobby's ``LobbyServerMessage`` (lobby/messages.py).


def encode(message: BaseModel) -> str:
    """The text of a message as it goes over the wire: the one place messages are written."""
    return message.model_dump_json()
