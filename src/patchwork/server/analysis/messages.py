"""The analysis websocket's messages (``/ws/analysis``, docs/server.md "Analysis board"):
what a client may send (strict) and the closed set the server sends, told apart by ``type``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from ..games.messages import ErrorMessage, Pong
from ..games.schemas import SearchView
from .schemas import MAX_POSITION

Ref = str | int | None


class _Msg(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)
    id: Ref = Field(default=None, description="echoed back as ref in the replies")


class AnalysisHelloMsg(_Msg):
    type: Literal["hello"]
    lang: str | None = Field(default=None, max_length=16)


class AnalyseMsg(_Msg):
    """Search this position: updates follow, each deeper, until the last or a ``stop`` (a
    new ``analyse`` stops the one before: one search a connection)."""

    type: Literal["analyse"]
    position: str = Field(min_length=1, max_length=MAX_POSITION)


class StopMsg(_Msg):
    type: Literal["stop"]


class AnalysisPingMsg(_Msg):
    type: Literal["ping"]


AnalysisClientMessage = Annotated[
    AnalysisHelloMsg | AnalyseMsg | StopMsg | AnalysisPingMsg, Field(discriminator="type")
]
analysis_client_messages: TypeAdapter[Any] = TypeAdapter(AnalysisClientMessage)


class AnalysisUpdate(SearchView):
    """The searcher's view of the position so far: ``step`` of ``steps``, each a longer
    search than the one before; ``final`` on the last."""

    type: Literal["analysis"] = "analysis"
    ref: Ref = Field(description="the id of the analyse request it answers")
    position: str
    step: int
    steps: int
    final: bool


class AnalysisAck(BaseModel):
    type: Literal["ack"] = "ack"
    of: Literal["hello", "stop"]
    ref: Ref = None


AnalysisMessage = AnalysisUpdate | AnalysisAck | ErrorMessage | Pong
AnalysisServerMessage = Annotated[AnalysisMessage, Field(discriminator="type")]
analysis_server_messages: TypeAdapter[Any] = TypeAdapter(AnalysisServerMessage)
