"""Chat (docs/server.md, "Chat"): who may say what in which room, and delivery.

Rooms: ``lobby``; ``game:<id>``, the two players of a game between people (games against
the AI, Automa or at one screen have none); ``watch:<id>``, its spectators, which the players
never read (neither during the game nor after it: spectators talk among themselves). A
message is stored first; then this process sends it to its own connections of the room and
announces it over Redis, and every other process sends it to theirs. Each connection is sent
a message id once (``Member.saw``); on (re)connection it is sent the room's latest messages,
and after Redis comes back each process catches its rooms up from the database, so nothing
said is lost and nothing is sent twice. Whoever blocked an author (people/blocks.py) is never
sent that author's messages, live or in the history."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections import defaultdict, deque
from typing import Any

from redis.exceptions import RedisError

from ...i18n import N_
from ..cluster.redis_cluster import Cluster
from ..common.errors import ServerError
from ..games.hub import Connection
from ..storage.models import GameData
from ..storage.store import Store
from . import store
from .limits import HISTORY, ChatLimits, clean
from .messages import (
    PRESETS,
    ChatAck,
    ChatMessage,
    ChatReportMsg,
    ChatSendMsg,
    RoomKind,
    StoredLine,
)

log = logging.getLogger("patchwork.server")
SEEN = 1000  # message ids remembered per connection (a room's history is 50)


class Member:
    """A connection in a chat room: who it speaks as, and which message ids it was sent."""

    def __init__(
        self,
        conn: Connection,
        room: str,
        kind: RoomKind,
        name: str,
        user_id: str | None,
        seat: int | None,
        address: str,
        lang: str,
        refusal: ServerError | None,
    ) -> None:
        self.conn = conn
        self.room = room
        self.kind: RoomKind = kind
        self.name = name
        self.user_id = user_id
        self.seat = seat
        self.address = address
        self.lang = lang
        self.refusal = refusal  # why it may never write here (a guest outside a game)
        self.muted = False  # as last read: its account is muted site-wide
        self._seen: set[int] = set()
        self._order: deque[int] = deque()

    def saw(self, message_id: int) -> bool:
        """Note that ``message_id`` is sent to it; False if it was already."""
        if message_id in self._seen:
            return False
        self._seen.add(message_id)
        self._order.append(message_id)
        if len(self._order) > SEEN:
            self._seen.discard(self._order.popleft())
        return True

    def mine(self, line: StoredLine) -> bool:
        if self.kind == "players":
            return line.seat == self.seat
        return line.user_id is not None and line.user_id == self.user_id

    def message(self, lines: list[StoredLine], history: bool) -> ChatMessage:
        why = self.refusal
        if why is None and self.muted:
            why = _muted()
        return ChatMessage(
            room=self.kind,
            history=history,
            lines=[x.view(self.mine(x)) for x in lines],
            can_send=why is None,
            refusal=None if why is None else why.text(self.lang),
        )


def _muted() -> ServerError:
    return ServerError(
        "chat_muted", N_("your account may not chat: it was muted by whoever runs this server")
    )


def _account_required(kind: RoomKind) -> ServerError:
    if kind == "lobby":
        return ServerError("account_required", N_("sign in to chat in the lobby"))
    return ServerError(
        "account_required",
        N_("sign in to chat with the other spectators (guests chat only with their opponent)"),
    )


def no_room() -> ServerError:
    """The answer to a chat line where the connection has no room."""
    return ServerError(
        "chat_closed", N_("this game has no chat: players chat in games between two people")
    )


def game_room(data: GameData, seats: frozenset[int]) -> tuple[str, RoomKind] | None:
    """The room of a game's connection: the players' (only in a game between people) or
    the spectators'; None: none (a player of a game against the AI, Automa or at one screen)."""
    if not seats:
        return f"watch:{data.id}", "spectators"
    if data.mode == "online":
        return f"game:{data.id}", "players"
    return None


class Chat:
    def __init__(self, db: Store, cluster: Cluster | None = None) -> None:
        self.db = db
        self.cluster = cluster
        self.limits = ChatLimits(cluster)
        self.rooms: defaultdict[str, set[Member]] = defaultdict(set)
        self._listener: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if self.cluster is not None:
            listen = self.cluster.listen_chat(self._announced, self._catch_up)
            self._listener = asyncio.get_running_loop().create_task(listen)

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            await asyncio.gather(self._listener, return_exceptions=True)

    async def _call(self, fn: Any, *args: Any) -> Any:
        try:
            return await self.db.call(fn, self.db.engine, *args)
        except store.Refused:
            raise
        except Exception:
            log.exception("chat could not reach the database")
            raise ServerError("unavailable", N_("the database is unavailable")) from None

    # -- who is in which room ---------------------------------------------------------------

    async def game_member(
        self, conn: Connection, data: GameData, seats: frozenset[int], lang: str, address: str
    ) -> Member | None:
        """The chat member of a game's connection (None: this game has no chat for it)."""
        found = game_room(data, seats)
        if found is None:
            return None
        room, kind = found
        user_id = conn.caller.user_id
        seat = min(seats) if seats else None
        if seat is not None:
            name = data.name(seat)
        elif user_id is not None:
            name = await self._call(store.user_name, user_id) or ""
        else:
            name = ""
        refusal = _account_required(kind) if kind == "spectators" and user_id is None else None
        return Member(conn, room, kind, name, user_id, seat, address, lang, refusal)

    def lobby_member(
        self, conn: Connection, user_id: str | None, name: str, lang: str, address: str
    ) -> Member:
        refusal = _account_required("lobby") if user_id is None else None
        return Member(conn, "lobby", "lobby", name, user_id, None, address, lang, refusal)

    async def join(self, member: Member) -> None:
        """Enter the room, and be sent its latest messages (those the member may read)."""
        self.rooms[member.room].add(member)
        readers = [] if member.user_id is None else [member.user_id]
        lines, hidden = await self._call(store.recent, member.room, HISTORY, readers)
        if member.user_id is not None:
            member.muted = await self._call(store.muted, member.user_id)
        shown = [x for x in lines if x.user_id not in hidden.get(member.user_id or "", ())]
        for x in shown:
            member.saw(x.id)
        member.conn.send(member.message(shown, history=True))

    def leave(self, member: Member) -> None:
        room = self.rooms.get(member.room)
        if room is not None:
            room.discard(member)
            if not room:
                del self.rooms[member.room]

    # -- saying and reporting -------------------------------------------------------------

    async def handle(self, member: Member, msg: ChatSendMsg | ChatReportMsg, ref: Any) -> ChatAck:
        if isinstance(msg, ChatReportMsg):
            return await self.report(member, msg, ref)
        return await self.say(member, msg, ref)

    async def say(self, member: Member, msg: ChatSendMsg, ref: Any) -> ChatAck:
        if member.refusal is not None:
            raise member.refusal
        text = PRESETS[msg.preset] if msg.preset is not None else clean(msg.text or "")
        who = f"user:{member.user_id}" if member.user_id is not None else f"addr:{member.address}"
        await self.limits.send(who)
        line = store.NewLine(
            room=member.room,
            user_id=member.user_id,
            name=member.name,
            text=text,
            preset=msg.preset,
            seat=member.seat,
            created_at=dt.datetime.now(dt.UTC),
        )
        try:
            stored, hidden = await self._call(store.add, line)
        except store.Refused as e:
            if e.why == "muted":
                member.muted = True
                raise _muted() from None
            raise ServerError(
                "chat_repeated", N_("you said that just now: say something else")
            ) from None
        member.muted = False
        self._deliver(stored, hidden)
        if self.cluster is not None:
            body = {"line": stored.to_json(), "hidden": sorted(hidden)}
            with contextlib.suppress(RedisError, OSError, TimeoutError):
                await self.cluster.publish_chat(body)
        return ChatAck(of="chat", message_id=stored.id, ref=ref)

    async def report(self, member: Member, msg: ChatReportMsg, ref: Any) -> ChatAck:
        if member.user_id is None:
            raise ServerError("account_required", N_("sign in to report a message"))
        line = await self._call(store.line, msg.message_id)
        if line is None or line.room != member.room:
            raise ServerError(
                "not_found", N_("there is no message {id} in this room"), {"id": msg.message_id}
            )
        if member.mine(line):
            raise ServerError("not_allowed", N_("you cannot report your own message"))
        await self.limits.report(f"user:{member.user_id}")
        now = dt.datetime.now(dt.UTC)
        if not await self._call(store.add_report, line.id, member.user_id, msg.reason, now):
            raise ServerError("already_reported", N_("you reported this message already"))
        return ChatAck(of="chat_report", message_id=line.id, ref=ref)

    # -- delivery -------------------------------------------------------------------------

    def _deliver(self, line: StoredLine, hidden: set[str]) -> None:
        for member in list(self.rooms.get(line.room, ())):
            if member.user_id in hidden or not member.saw(line.id):
                continue
            member.conn.send(member.message([line], history=False))

    def _announced(self, body: dict[str, Any]) -> None:
        """Another process stored a message."""
        try:
            line = StoredLine.from_json(body["line"])
            hidden = {h for h in body.get("hidden", ()) if isinstance(h, str)}
        except (KeyError, TypeError, ValueError):
            return
        self._deliver(line, hidden)

    async def _catch_up(self) -> None:
        """Redis is (back) on: send every room here what was said meanwhile elsewhere."""
        for room, members in list(self.rooms.items()):
            readers = [m.user_id for m in members if m.user_id is not None]
            try:
                lines, hidden = await self._call(store.recent, room, HISTORY, readers)
            except ServerError:
                continue
            for line in lines:
                for member in list(members):
                    if line.user_id in hidden.get(member.user_id or "", ()):
                        continue
                    if member.saw(line.id):
                        member.conn.send(member.message([line], history=False))
