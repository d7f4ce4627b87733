"""The lobby: open seeks, quick pairing, and the live list every lobby client sees
(docs/accounts.md "The lobby", docs/server.md "Lobby").

The database is the truth: a seek is a row of ``seeks``, and every process shows the rows.
A seek lives while its creator's lobby connection does: the process holding that connection
(``node``) renews its short ``expires_at``, deletes it when the connection closes, and drops
it after 30 minutes. A process that dies takes its seeks along: every process says in Redis
that it is alive, a seek whose process has gone quiet is withdrawn by the others within
seconds and can never be accepted meanwhile, and a single server withdraws the seeks of its
previous run when it starts. Each seek has a
secret that only its holder knows (``guest_hash`` keeps its hash): it becomes the creator's
seat token, so the game can be started by whichever process accepts it, and the creator's
process tells the creator, with that secret, once it reads the seek's ``game_id``.
Accepting stores the game and takes the seek in one transaction guarded by the seek being
open (:class:`~.store.ClaimSeek`), so of two acceptors, on any processes, one wins.
After every change the process re-reads the list and sends it to its clients; with
``--redis`` it also announces the change on ``{prefix}lobby``, and every other process does
the same (a missed announcement is made good by the periodic re-read).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import secrets
import time
from collections.abc import Coroutine
from typing import Any, Literal

from redis.exceptions import RedisError

from ...i18n import N_
from ..cluster.limits import SharedLimiter
from ..cluster.redis_cluster import Cluster
from ..common.errors import ServerError, too_soon
from ..common.tokens import token_hash
from ..games.creation import PairedPlayer, new_id, paired_game_data
from ..games.live import rules_of
from ..games.requests import ClockIn
from ..games.service import GameService
from ..ratings.rating import nearest_level, provisional
from ..storage.models import UserData, utcnow
from ..storage.store import ClaimSeek, StaleWrite
from . import refusals
from .bots import bot_views, play_bot
from .clients import LobbyClient
from .messages import (
    RATING_LIMIT,
    BotGame,
    LobbyWelcome,
    PairedMessage,
    PlayBotMsg,
    SeekMsg,
    SeekRules,
    SeeksChanged,
    SeekView,
    You,
)
from .pairing import GUEST_RATING, quick_partner
from .store import (
    SeekRow,
    current_user,
    delete_ids,
    delete_open,
    delete_open_not_of,
    insert_seek,
    open_seek_nodes,
    read_seek,
    read_seeks,
    renew,
)

log = logging.getLogger("patchwork.server")

TTL = 45.0  # seconds a seek lives unless the process holding its creator renews it
RENEW = 5.0  # how often a process renews its seeks, sweeps expired ones and re-reads
ALIVE_MS = 6_000  # a process that has not said it is alive for this long is dead (TICK: 2 s)
KEEP_TAKEN = 60.0  # seconds an accepted seek keeps its game (for a creator's late process)
MAX_AGE = 30 * 60.0  # a seek is withdrawn after this long
MAX_SEEKS = 3  # open seeks per connection (quick pairing aside)
SEEKS_BURST = 10  # seeks one client address makes at once (then settings' seeks_per_minute)
REFRESH_GAP = 0.25  # seconds between two re-reads of the list (a burst of changes is one)
TICK = 2.0  # how often quick pairing looks again (its window widens meanwhile)
QUICK_RULES = SeekRules()
QUICK_CLOCK = ClockIn(kind="fischer", initial=600, increment=5)


class Lobby:
    def __init__(self, svc: GameService, cluster: Cluster | None) -> None:
        self.svc = svc
        self.engine = svc.store.engine
        self.cluster = cluster
        self.node = cluster.node if cluster is not None else secrets.token_hex(6)
        self.clients: set[LobbyClient] = set()
        self._dirty = asyncio.Event()
        self._made = SharedLimiter(svc.settings.seeks_per_minute / 60, SEEKS_BURST, cluster)
        self._loops: list[asyncio.Task[Any]] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = False

    # -- lifecycle --------------------------------------------------------------------------

    async def start(self) -> None:
        if self.cluster is None:  # one process: every seek left was its previous run's
            with contextlib.suppress(ServerError):
                await self._db(delete_open_not_of, [self.node])
        loop = asyncio.get_running_loop()
        coros: list[Coroutine[Any, Any, None]] = [self._refresher(), self._ticker()]
        if self.cluster is not None:
            coros.append(self.cluster.listen_lobby(self._dirty.set))
            coros.append(self.cluster.answer_for(self.node))
        self._loops = [loop.create_task(c) for c in coros]

    async def close(self) -> None:
        """Close every lobby connection and withdraw the seeks this process holds."""
        self._closing = True
        for task in [*self._loops, *self._tasks]:
            task.cancel()
        await asyncio.gather(*self._loops, *self._tasks, return_exceptions=True)
        ids = [s for c in self.clients for s in c.seeks]
        for client in list(self.clients):
            client.gone = True
            client.conn.close(1012, "server restarting")
        if ids:
            with contextlib.suppress(Exception):
                await self._db(delete_open, ids)
                await self._publish()

    async def _db(self, fn: Any, *args: Any) -> Any:
        try:
            return await self.svc.store.call(fn, self.engine, *args)
        except Exception:
            log.exception("the lobby could not reach the database")
            raise ServerError("unavailable", N_("the database is unavailable")) from None

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def changed(self) -> None:
        """The seeks changed here: re-read them, and tell the other processes."""
        self._dirty.set()
        if self.cluster is not None:
            self._spawn(self._publish())

    async def _publish(self) -> None:
        if self.cluster is not None:
            with contextlib.suppress(Exception):  # they re-read on their own within RENEW
                await self.cluster.publish_lobby()

    # -- connections ------------------------------------------------------------------------

    async def join(self, client: LobbyClient) -> None:
        """A connection said hello: greet it with who it is and the open seeks."""
        rows = await self._db(read_seeks, utcnow())
        user = await self.current_user(client)
        self.clients.add(client)
        views = [r.view() for r in rows if r.open and not r.quick]
        client.send(
            LobbyWelcome(
                you=You(
                    name=client.name,
                    rating=None if user is None else round(user.rating),
                    provisional=user is not None and provisional(user.rd),
                    signed_in=client.user is not None,
                    nearest_bot=nearest_level(GUEST_RATING if user is None else user.rating),
                ),
                seeks=views,
                bots=bot_views(user),
                bot_offer_after=self.svc.settings.bot_offer_after,
                server_time=round(time.time(), 3),
            )
        )
        client.heard = {v.id: v.model_dump_json() for v in views}

    async def leave(self, client: LobbyClient) -> None:
        """A connection closed: its open seeks go with it."""
        client.gone = True
        self.clients.discard(client)
        if self._closing:  # close() withdraws them
            return
        ids = list(client.seeks)
        client.seeks.clear()
        client.quick = None
        if ids:
            with contextlib.suppress(ServerError):  # else they expire within TTL
                await self._db(delete_open, ids)
            self.changed()

    async def current_user(self, client: LobbyClient) -> UserData | None:
        """The client's account as it is now (None: a guest)."""
        return None if client.user is None else await self._db(current_user, client.user.id)

    async def rating_of(self, client: LobbyClient) -> tuple[float | None, float | None]:
        """The client's rating and deviation now (None, None: a guest)."""
        user = await self.current_user(client)
        return (None, None) if user is None else (user.rating, user.rd)

    # -- requests ---------------------------------------------------------------------------

    async def seek(self, client: LobbyClient, msg: SeekMsg) -> str:
        if msg.rated and client.user is None:
            raise refusals.account_required()
        if sum(s != client.quick for s in client.seeks) >= MAX_SEEKS:
            raise ServerError(
                "too_many_seeks",
                N_("at most {limit} open seeks at a time: cancel one first"),
                {"limit": MAX_SEEKS},
            )
        rating = await self.rating_of(client)
        clock = None if msg.clock is None else msg.clock.model_dump()
        return await self._insert(client, msg.rules, clock, msg.rated, rating, False, msg)

    async def quick(self, client: LobbyClient, rated: bool) -> str:
        if rated and client.user is None:
            raise refusals.account_required()
        if client.quick is not None:
            return client.quick  # already waiting
        rating = await self.rating_of(client)
        clock = QUICK_CLOCK.model_dump()
        seek_id = await self._insert(client, QUICK_RULES, clock, rated, rating, True, None)
        with contextlib.suppress(ServerError):  # the ticker tries again
            await self._pair_quick(client)
        return seek_id

    async def play_bot(self, client: LobbyClient, msg: PlayBotMsg) -> BotGame:
        """Start the client's game against an AI level; it is no longer waiting for a person,
        so its seeks and quick pairing are withdrawn first."""
        await self._may(client, "bots")
        await self._withdraw_all(client)
        user = await self.current_user(client)
        return await play_bot(self.svc, msg.level, msg.rated, user, client.name)

    async def _withdraw_all(self, client: LobbyClient) -> None:
        """Withdraw the client's open seeks; ServerError ``seek_taken`` if one became a game
        meanwhile (its ``paired`` follows)."""
        taken = withdrawn = False
        for seek_id in list(client.seeks):
            if not await self._db(delete_open, [seek_id]):  # taken, or gone by itself
                row: SeekRow | None = await self._db(read_seek, seek_id, utcnow())
                if row is not None and not row.open:
                    taken = True
                    continue
            client.forget(seek_id)
            withdrawn = True
        if withdrawn:
            self.changed()  # once: every change is news to every lobby client
        if taken:
            raise refusals.accepted_already()

    async def _insert(
        self,
        client: LobbyClient,
        rules: SeekRules,
        clock: dict[str, Any] | None,
        rated: bool,
        rating: tuple[float | None, float | None],
        quick: bool,
        msg: SeekMsg | None,
    ) -> str:
        await self._may(client, "seeks")
        secret = secrets.token_urlsafe(24)
        now = utcnow()
        seek_id = new_id()
        row = {
            "id": seek_id,
            "created_at": now,
            "expires_at": now + dt.timedelta(seconds=TTL),
            "user_id": client.user_id,
            "guest_hash": token_hash(secret),
            "name": client.name,
            "rating": rating[0],
            "rd": rating[1],
            "quick": quick,
            "rated": rated,
            "edition": rules.edition,
            "rotation": rules.rotation,
            "flip": rules.flip,
            "clock": clock,
            "rating_min": None if msg is None else msg.rating_min,
            "rating_max": None if msg is None else msg.rating_max,
            "node": self.node,
            "game_id": None,
        }
        await self._db(insert_seek, row)
        if client.gone:  # the connection closed meanwhile: so does its seek
            with contextlib.suppress(ServerError):
                await self._db(delete_open, [seek_id])
            return seek_id
        client.seeks[seek_id] = secret
        client.created[seek_id] = time.monotonic()  # stored by now
        if quick:
            client.quick = seek_id
        self.changed()
        return seek_id

    async def _may(self, client: LobbyClient, what: Literal["seeks", "bots"]) -> None:
        """ServerError ``rate_limited`` once the client's address has made its share of seeks
        (every seek made or cancelled is news to every lobby client), or started its share
        of games against bots (each keeps an AI busy), for now."""
        wait = await self._made.wait(f"lobby {what} {client.address}")
        if wait is not None:
            raise too_soon(refusals.TOO_MANY[what], wait)

    async def cancel(self, client: LobbyClient, seek_id: str) -> None:
        if seek_id not in client.seeks:
            raise ServerError(
                "seek_not_found", N_("you have no open seek {seek_id!r}"), {"seek_id": seek_id}
            )
        if not await self._db(delete_open, [seek_id]):
            raise refusals.accepted_already()
        client.forget(seek_id)
        self.changed()

    async def accept(self, client: LobbyClient, seek_id: str) -> str:
        """Start the game of someone's seek; the game's id. The acceptor hears ``paired`` at
        once; the creator when its process reads the seek's game."""
        if seek_id in client.seeks:
            raise refusals.own_seek()
        now = utcnow()
        row: SeekRow | None = await self._db(read_seek, seek_id, now)
        if row is None or row.quick:
            raise refusals.no_seek(seek_id)
        if not row.open:
            raise refusals.taken()
        if row.user_id is not None and row.user_id == client.user_id:
            raise refusals.own_seek()
        if row.rated and client.user is None:
            raise refusals.account_required()
        if not await self._maker_here(row):  # its connection or its process is gone
            with contextlib.suppress(ServerError):
                await self._db(delete_open, [seek_id])
            self.changed()
            raise refusals.no_seek(seek_id)
        rating, _ = await self.rating_of(client)
        mine = GUEST_RATING if rating is None else rating
        if (row.rating_min is not None and mine < row.rating_min) or (
            row.rating_max is not None and mine > row.rating_max
        ):
            raise ServerError(
                "out_of_range",
                N_("your rating ({rating}) is outside this seek's range, {low} to {high}"),
                {
                    "low": row.rating_min if row.rating_min is not None else 0,
                    "high": row.rating_max if row.rating_max is not None else RATING_LIMIT,
                    "rating": round(mine),
                },
            )
        token = secrets.token_urlsafe(24)
        me = PairedPlayer(client.name, client.user_id, token_hash(token))
        rules = rules_of(row.edition, row.rotation, row.flip, None)
        data, creator_seat = paired_game_data(rules, row.clock_in(), row.rated, (row.player(), me))
        claim = ClaimSeek(seek_id, data.id, now, now + dt.timedelta(seconds=KEEP_TAKEN))
        try:
            await self.svc.create_paired(data, [claim])
        except StaleWrite:
            again = await self._db(read_seek, seek_id, utcnow())
            raise (refusals.no_seek(seek_id) if again is None else refusals.taken()) from None
        client.send(_paired(data.id, 1 - creator_seat, token, seek_id, row.name, row.rated))
        self.changed()  # the creator's process reads the seek's game and tells it
        return data.id

    async def _maker_here(self, row: SeekRow) -> bool:
        """Whether the seek's maker is still connected: here, one of this process's
        clients holds it; elsewhere, its process is alive."""
        if row.node == self.node:
            return any(row.id in c.seeks and not c.gone for c in self.clients)
        if row.node is None or self.cluster is None:
            return False  # (one process: a seek of another is its previous run's)
        try:  # its process's channel: gone the moment the process is
            return await self.cluster.listening(row.node)
        except (RedisError, OSError, TimeoutError):
            return True  # no telling: its expiry decides

    async def _pair_quick(self, client: LobbyClient) -> bool:
        """Pair this client's quick seek with another waiting player's, if one is near
        enough; whether a game started (the refresh tells both players)."""
        seek_id = client.quick
        if seek_id is None:
            return False
        now = utcnow()
        rows: list[SeekRow] = await self._db(read_seeks, now)
        me = next((r for r in rows if r.id == seek_id and r.open), None)
        if me is None:
            return False
        other = quick_partner(me, rows, now.timestamp())
        if other is None:
            return False
        rules = rules_of(me.edition, me.rotation, me.flip, None)
        data, _ = paired_game_data(rules, me.clock_in(), me.rated, (me.player(), other.player()))
        keep = now + dt.timedelta(seconds=KEEP_TAKEN)
        claims = [ClaimSeek(s.id, data.id, now, keep) for s in (me, other)]
        try:
            await self.svc.create_paired(data, list(claims))
        except StaleWrite:  # the other was paired elsewhere meanwhile: look again later
            return False
        self.changed()
        return True

    # -- keeping the list ------------------------------------------------------------------

    async def _refresher(self) -> None:
        """Re-read the seeks whenever something changed, one read at a time and at most one
        each REFRESH_GAP: the changes meanwhile make one list for the clients."""
        while True:
            await self._dirty.wait()
            await asyncio.sleep(REFRESH_GAP)
            self._dirty.clear()
            try:
                await self._refresh()
            except ServerError:
                await asyncio.sleep(1.0)  # the database is away: the ticker marks it again
            except Exception:
                log.exception("refreshing the lobby failed")

    async def _refresh(self) -> None:
        """Tell this process's clients what changed: the games their seeks became
        (``paired``), and the open seeks when the list changed."""
        began = time.monotonic()
        rows: list[SeekRow] = await self._db(read_seeks, utcnow())
        by_id = {r.id: r for r in rows}
        done: list[str] = []
        for client in list(self.clients):
            for seek_id in list(client.seeks):
                row = by_id.get(seek_id)
                if row is None and client.created.get(seek_id, began) < began:
                    client.forget(seek_id)  # expired (this process could not renew it)
                elif row is None:
                    continue  # stored after the read began
                elif not row.open and row.game_seat0_token is not None:
                    secret = client.forget(seek_id)
                    assert secret is not None and row.game_id is not None
                    seat = 0 if row.game_seat0_token == row.guest_hash else 1
                    names = (row.game_seat0_name, row.game_seat1_name)
                    opponent = names[1 - seat] or ""
                    client.send(_paired(row.game_id, seat, secret, seek_id, opponent, row.rated))
                    done.append(seek_id)
        # Each seek's view written once; only a client's own seeks are written again for it.
        views = [r.view() for r in rows if r.open and not r.quick]
        listed = [(v, v.model_dump_json()) for v in views]
        for client in list(self.clients):
            _tell_changes(client, listed)
        if done:  # told: the accepted seeks have done their work
            with contextlib.suppress(ServerError):
                await self._db(delete_ids, done)

    async def _ticker(self) -> None:
        """Quick pairing every TICK seconds; every RENEW seconds keep this process's seeks
        alive (withdrawing those past MAX_AGE), sweep the expired and re-read the list."""
        last_renew = time.monotonic()
        while True:
            await asyncio.sleep(TICK)
            await self._say_alive()
            for client in [c for c in self.clients if c.quick is not None]:
                try:
                    await self._pair_quick(client)
                except ServerError:
                    break
                except Exception:
                    log.exception("quick pairing failed")
            if time.monotonic() - last_renew < RENEW:
                continue
            last_renew = time.monotonic()
            try:
                await self._renew()
            except ServerError:
                pass  # the database is away: next time
            except Exception:
                log.exception("renewing the lobby's seeks failed")
            self._dirty.set()

    async def _say_alive(self) -> None:
        if self.cluster is not None:
            with contextlib.suppress(RedisError, OSError, TimeoutError):
                await self.cluster.mark_alive(self.node, ALIVE_MS)

    async def _alive(self, nodes: set[str]) -> set[str]:
        """Those of the processes ``nodes`` still alive: this one; the others as Redis says
        (all of them while Redis is away: their seeks then expire by ``expires_at``); with
        one process, no other."""
        if self.cluster is None:
            return nodes & {self.node}
        try:
            return await self.cluster.alive(sorted(nodes - {self.node})) | (nodes & {self.node})
        except (RedisError, OSError, TimeoutError):
            return nodes

    async def _withdraw_the_dead(self) -> bool:
        """Withdraw the open seeks of processes that died; whether there were any."""
        nodes = await self._db(open_seek_nodes)
        alive = await self._alive(nodes)
        if alive == nodes:
            return False
        return bool(await self._db(delete_open_not_of, sorted(alive)))

    async def _renew(self) -> None:
        clock = time.monotonic()
        old = [
            (c, s) for c in self.clients for s, t in list(c.created.items()) if clock - t > MAX_AGE
        ]
        if old:
            await self._db(delete_open, [s for _, s in old])
            for client, seek_id in old:
                client.forget(seek_id)
        now = utcnow()
        ids = [s for c in self.clients for s in c.seeks]
        swept = await self._db(renew, ids, now, now + dt.timedelta(seconds=TTL))
        dead = await self._withdraw_the_dead()
        if old or swept or dead:
            self.changed()


def _tell_changes(client: LobbyClient, listed: list[tuple[SeekView, str]]) -> None:
    """Send ``client`` what changed in the list (each view with its JSON, as anyone's) since
    it last heard it, if anything did."""
    now = {}
    for view, text in listed:
        if view.id in client.seeks:
            view = view.model_copy(update={"mine": True})
            text = view.model_dump_json()
        now[view.id] = (view, text)
    changed = [view for sid, (view, text) in now.items() if client.heard.get(sid) != text]
    removed = [sid for sid in client.heard if sid not in now]
    if not changed and not removed and client.quick == client.heard_quick:
        return
    client.heard = {sid: text for sid, (_, text) in now.items()}
    client.heard_quick = client.quick
    client.send(
        SeeksChanged(seeks=changed, removed=removed, quick=client.quick, server_time=time.time())
    )


def _paired(
    game_id: str, seat: int, token: str, seek_id: str, opponent: str, rated: bool
) -> PairedMessage:
    paths = GameService.paths(game_id)
    return PairedMessage(
        game_id=game_id,
        seat=seat,  # type: ignore[arg-type]
        token=token,
        seek_id=seek_id,
        opponent=opponent,
        rated=rated,
        watch_url=paths["watch_url"],
        ws_url=paths["ws_url"],
    )
