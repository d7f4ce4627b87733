"""The lobby's connections: who each is, and the seeks it holds."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from ..games.hub import Connection
from ..storage.models import UserData
from .messages import LobbyMessage, encode


def guest_name() -> str:
    """A guest's name in the lobby and in the game it starts (stored, like Player 1, in
    English)."""
    return f"Guest {1000 + secrets.randbelow(9000)}"


@dataclass(eq=False)
class LobbyClient:
    """One lobby connection: who it is, and the seeks it holds (id -> secret)."""

    conn: Connection
    user: UserData | None
    name: str
    lang: str
    seeks: dict[str, str] = field(default_factory=dict)
    # seek id -> when it was stored (monotonic): for its age, and for telling a seek that
    # expired from one a read that began before it was stored could not see
    created: dict[str, float] = field(default_factory=dict)
    quick: str | None = None
    gone: bool = False
    # The list as this connection last heard it: seek id -> its view's JSON (in order), and
    # its quick pairing; what changes from it is all it is sent.
    heard: dict[str, str] = field(default_factory=dict)
    heard_quick: str | None = None

    @property
    def address(self) -> str:
        client = self.conn.websocket.client
        return client.host if client else "-"

    @property
    def user_id(self) -> str | None:
        return None if self.user is None else self.user.id

    def send(self, message: LobbyMessage) -> None:
        self.conn.send_text(encode(message))

    def forget(self, seek_id: str) -> str | None:
        self.created.pop(seek_id, None)
        if self.quick == seek_id:
            self.quick = None
        return self.seeks.pop(seek_id, None)
