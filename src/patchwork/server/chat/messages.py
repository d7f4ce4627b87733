"""Chat's messages (docs/server.md, "Chat"). The wire models live beside the sockets' own
closed sets, which both hold them (games/requests.py: what a client sends; games/messages.py:
what the server sends); here are the preset phrases, the room kinds and the one place a
stored line becomes what a reader is sent."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

from ...i18n import N_
from ..games.messages import ChatAck, ChatLine, ChatMessage
from ..games.requests import ChatReportMsg, ChatSendMsg

__all__ = [
    "PRESETS",
    "ChatAck",
    "ChatLine",
    "ChatMessage",
    "ChatReportMsg",
    "ChatSendMsg",
    "RoomKind",
    "StoredLine",
]

# The preset phrases: sent by key, stored by key (with the English words for whoever reads
# the database), shown to each reader in their language.
PRESETS: dict[str, str] = {
    "hi": N_("Hello"),
    "gl": N_("Good luck"),
    "gg": N_("Good game"),
    "wp": N_("Well played"),
    "thanks": N_("Thanks"),
}
RoomKind = Literal["players", "spectators", "lobby"]


@dataclass(frozen=True)
class StoredLine:
    """A row of ``chat_messages``."""

    id: int
    room: str
    user_id: str | None
    name: str
    text: str
    preset: str | None
    seat: int | None
    created_at: dt.datetime

    def view(self, mine: bool) -> ChatLine:
        return ChatLine(
            id=self.id,
            name=self.name,
            account=self.user_id is not None,
            seat=self.seat,
            text=self.text,
            preset=self.preset,
            at=round(self.created_at.timestamp(), 3),
            mine=mine,
        )

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "room": self.room,
            "user_id": self.user_id,
            "name": self.name,
            "text": self.text,
            "preset": self.preset,
            "seat": self.seat,
            "at": self.created_at.timestamp(),
        }

    @classmethod
    def from_json(cls, d: dict[str, object]) -> StoredLine:
        """The line an announcement carries (ValueError/TypeError/KeyError when malformed)."""
        at = d["at"]
        seat = d["seat"]
        user_id, preset = d["user_id"], d["preset"]
        if not isinstance(at, int | float) or not (seat is None or isinstance(seat, int)):
            raise TypeError("bad line")
        if not (user_id is None or isinstance(user_id, str)):
            raise TypeError("bad line")
        if not (preset is None or isinstance(preset, str)):
            raise TypeError("bad line")
        return cls(
            id=int(str(d["id"])),
            room=str(d["room"]),
            user_id=user_id,
            name=str(d["name"]),
            text=str(d["text"]),
            preset=preset,
            seat=seat,
            created_at=dt.datetime.fromtimestamp(float(at), dt.UTC),
        )
