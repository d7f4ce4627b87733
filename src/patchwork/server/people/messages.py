"""The messages of an account's own socket (``/ws/me``, docs/server.md "People"): a client
says ``hello`` and ``ping``; the server answers ``welcome`` and ``pong``, and sends what other
domains deliver to the account (their own typed messages: a challenge, a notification)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

Ref = str | int | None


class _Msg(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)
    id: Ref = Field(default=None, description="echoed back as ref in the reply")


class MeHelloMsg(_Msg):
    type: Literal["hello"]
    lang: str | None = Field(default=None, max_length=16)


class MePingMsg(_Msg):
    type: Literal["ping"]


MeClientMessage = Annotated[MeHelloMsg | MePingMsg, Field(discriminator="type")]
me_client_messages: TypeAdapter[Any] = TypeAdapter(MeClientMessage)


class MeWelcome(BaseModel):
    """The answer to ``hello``: the account the socket speaks for. What is waiting for it
    (challenges, notifications) the client reads over HTTP once this arrives."""

    type: Literal["welcome"] = "welcome"
    name: str
    server_time: float
