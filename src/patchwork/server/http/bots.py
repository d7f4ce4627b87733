"""Routes for programs (docs/bots.md): an account becomes a bot; the account's event stream
and a game's stream, as newline-delimited JSON (streams.py); a chat line over HTTP. Moves,
resigning, challenges and their answers are the routes every client uses (games.py,
challenges.py), with the account's API token."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse

from ..accounts.schemas import Account
from ..accounts.service import Accounts
from ..bots.service import Bots
from ..chat.service import Chat, Member, no_room
from ..common.errors import request_language
from ..common.ratelimit import TokenBucket
from ..games.hub import Connection
from ..games.live import Caller
from ..games.messages import ChatAck
from ..games.requests import ChatIn, ChatSendMsg
from ..games.service import GameService
from ..people.hub import People
from .accounts import ERRORS, account_view, address
from .auth import SignedIn, Who
from .streams import NDJSON, stream

router = APIRouter(tags=["bots"])
STREAMED: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    200: {"content": {NDJSON: {}}, "description": "newline-delimited JSON, kept open"},
}


def _silent() -> TokenBucket:
    """A stream's bucket: it takes no messages from its client."""
    return TokenBucket(1, 1)


async def _in_game(request: Request, game_id: str, who: Caller) -> tuple[Connection, Member | None]:
    """A connection to the game for ``who`` (its seats), and its chat member (None: this
    game has no room for it)."""
    svc: GameService = request.app.state.service
    chat: Chat = request.app.state.chat
    live = await svc.get(game_id)
    seats = live.seats_of(who)
    conn = Connection(None, live.id, seats, _silent(), who)
    lang = request_language(request)
    return conn, await chat.game_member(conn, live.data, seats, lang, address(request))


@router.post("/api/account/bot", response_model=Account, responses=ERRORS)
async def become_bot(request: Request, session: SignedIn) -> Account:
    """Make this account a bot, for good: a program plays it with its API tokens, and it is
    shown with a BOT label everywhere. Refused once the account has played a rated game."""
    accounts: Accounts = request.app.state.accounts
    user = await accounts.become_bot(session.user)
    return account_view(user, session.csrf)


@router.get(
    "/api/stream/event", response_class=StreamingResponse, responses=STREAMED, response_model=None
)
async def event_stream(request: Request, session: SignedIn) -> StreamingResponse:
    """The account's events, one JSON object a line, for as long as the response is read:
    first a ``welcome``, every open challenge (``challenge_new``) and every game under way
    (``game_start``); then what /ws/me hears (challenges, notifications) and each game of
    the account starting and ending (``game_start``, ``game_finish``). An empty line every
    6 s keeps it alive."""
    people: People = request.app.state.people
    bots: Bots = request.app.state.bots
    user = session.user
    caller = Caller(user_id=user.id, session=session.data.token_hash)
    conn = Connection(None, "me", frozenset(), _silent(), caller)

    async def join() -> None:
        await people.join(user.id, conn)  # heard live from here on...
        for line in await bots.opening(user):  # ...and what was there before
            conn.send(line)

    async def leave() -> None:
        await people.leave(user.id, conn)

    return stream(request, conn, join, leave)


@router.get(
    "/api/games/{game_id}/stream",
    response_class=StreamingResponse,
    responses=STREAMED,
    response_model=None,
)
async def game_stream(
    game_id: str,
    request: Request,
    who: Who,
    since: Annotated[int | None, Query(ge=0, description="the last version you have")] = None,
) -> StreamingResponse:
    """The game's messages, one JSON object a line, as its websocket sends them: a
    ``welcome``, the whole game (``state``; or with ``since``, what came after that version,
    in a ``sync``), then every change (``update``), presence and chat. Read with a seat's
    token or an account's API token to play it; without, as a spectator."""
    svc: GameService = request.app.state.service
    chat: Chat = request.app.state.chat
    conn, member = await _in_game(request, game_id, who)

    async def join() -> None:
        await svc.attach(conn, since)
        if member is not None:
            await chat.join(member)

    async def leave() -> None:
        if member is not None:
            chat.leave(member)
        svc.detach(conn)

    return stream(request, conn, join, leave)


@router.post("/api/games/{game_id}/chat", response_model=ChatAck, responses=ERRORS)
async def say(game_id: str, body: ChatIn, request: Request, who: Who) -> ChatAck:
    """Say a line in the game's chat (``text``, or a ``preset``'s key): the players' room
    for a player of a game between two people, the spectators' for the others (accounts
    only). The same limits as on the websocket."""
    chat: Chat = request.app.state.chat
    _, member = await _in_game(request, game_id, who)
    if member is None:
        raise no_room()
    line = ChatSendMsg(type="chat", text=body.text, preset=body.preset)
    return await chat.say(member, line, None)
