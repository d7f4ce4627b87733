"""``Mailer``: the mail domain's face. The owner's settings (set, replace, remove an address;
the confirmation sent at once), the confirmation and stop links, and on every process a
periodic round: queue what :mod:`.due` finds, then send what is queued.

Nothing is lost or doubled by a process killed at any point: what is due is read again from
the database's state, each mail is queued once under its unique key, and a mail is claimed
(the claim lasts ``outbox.CLAIM``) before it is sent and marked sent after. The one window:
a process killed after the SMTP server accepted a mail and before it marked it sent; another
process sends it again once the claim lapses (the stop link in the first copy then no longer
works: each claim makes its own). Without ``--smtp`` nothing is queued or sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import smtplib
from collections.abc import Awaitable, Callable
from email.message import EmailMessage
from typing import Any

from sqlalchemy import Engine, select

from ...i18n import N_
from ..common.config import Settings
from ..common.errors import ServerError
from ..storage.models import UserData, users, utcnow
from ..storage.store import Store
from . import addresses, due, outbox, texts
from .address import address_key, normalize
from .schemas import MailSettings
from .smtp import SmtpTarget

log = logging.getLogger("patchwork.server")
Online = Callable[[], Awaitable[set[str]]]
SEND_FAILED = N_(
    "your address is saved, but the confirmation mail could not be sent just now; "
    "ask for it again in a while"
)


def _name(engine: Engine, user_id: str) -> str | None:
    with engine.connect() as conn:
        row = conn.execute(select(users.c.name).where(users.c.id == user_id)).first()
    return None if row is None else str(row[0])


class Mailer:
    def __init__(self, settings: Settings, store: Store, online: Online) -> None:
        self.settings = settings
        self.store = store
        self.online = online
        self.target = None if settings.smtp_url is None else SmtpTarget.parse(settings.smtp_url)
        self.site = texts.Site(settings.public_url, settings.mail_sender)
        self.mail_after = dt.timedelta(seconds=settings.mail_after)
        self._movers: dict[tuple[str, int], int | None] = {}
        self._draining = asyncio.Lock()
        self._loop: asyncio.Task[None] | None = None
        self._kicks: set[asyncio.Task[Any]] = set()

    @property
    def enabled(self) -> bool:
        return self.target is not None

    @property
    def engine(self) -> Engine:
        return self.store.engine

    async def start(self) -> None:
        if self.target is not None:
            log.info("mail goes through %s", self.target.shown)
            self._loop = asyncio.get_running_loop().create_task(self._rounds())

    async def close(self) -> None:
        tasks = [t for t in (self._loop, *self._kicks) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _rounds(self) -> None:
        rounds = 0
        while True:
            try:
                await self.round()
                if rounds % 1000 == 0:
                    await self.store.call(outbox.prune, self.engine, utcnow())
            except Exception:  # the database or the SMTP server is away: the next round
                log.exception("the mail round failed")
            rounds += 1
            await asyncio.sleep(self.settings.mail_scan)

    async def round(self) -> tuple[int, int]:
        """Queue what is due, then send what is queued: how many of each."""
        queued = await self.scan()
        return queued, await self.drain()

    # -- what is due --------------------------------------------------------------------------

    async def scan(self) -> int:
        if not self.enabled:
            return 0
        now = utcnow()
        online = await self.online()
        turns = await self.store.call(due.turns, self.engine)
        ends = await self.store.call(due.ends, self.engine, now)
        movers: dict[tuple[str, int], int | None] = {}
        for turn in turns:
            key = (turn.game_id, turn.version)
            movers[key] = self._movers[key] if key in self._movers else await self._mover(turn)
        self._movers = movers  # what the next round may reuse: the games still waiting
        waiting: dict[due.Turn, tuple[int, str]] = {}
        for turn in turns:
            seat = movers[(turn.game_id, turn.version)]
            user = None if seat is None else turn.users[seat]
            if seat is not None and user is not None and user not in online:
                waiting[turn] = (seat, user)
        wanted = {user for _, user in waiting.values()}
        wanted |= {e.user_id for e in ends if e.user_id not in online}
        found = await self.store.call(due.recipients, self.engine, wanted)
        rows = []
        for turn, (seat, user) in waiting.items():
            r = found.get(user)
            if r is not None and (r.last_seen is None or r.last_seen < now - self.mail_after):
                data = {"game": turn.game_id, "seat": seat, "version": turn.version}
                rows.append({"user_id": user, "key": turn.key, "kind": "turn", "data": data})
        for end in ends:
            r = found.get(end.user_id)
            if r is not None and (r.last_seen is None or r.last_seen < end.ended_at):
                data = {"game": end.game_id, "seat": end.seat}
                rows.append({"user_id": end.user_id, "key": end.key, "kind": "end", "data": data})
        if not rows:
            return 0
        return await self.store.call(outbox.queue, self.engine, rows, now)

    async def _mover(self, turn: due.Turn) -> int | None:
        found = await self.store.call(due.load, self.store, turn.game_id)
        if found is None or found[0].version != turn.version:
            return None  # it moved on meanwhile: the next round sees its new version
        return await asyncio.to_thread(due.mover, *found)

    # -- sending ------------------------------------------------------------------------------

    async def drain(self) -> int:
        """Send every queued mail this process can claim; how many went."""
        if self.target is None:
            return 0
        sent = 0
        async with self._draining:
            for _ in range(50):  # a bounded round; the next one goes on
                batch = await self.store.call(outbox.due, self.engine, utcnow())
                for mail in batch:
                    sent += await self._send_one(mail)
                if len(batch) < 20:
                    break
        return sent

    async def _send_one(self, mail: outbox.MailData) -> int:
        engine = self.engine
        address = await self.store.call(addresses.read, engine, mail.user_id)
        name = await self.store.call(_name, engine, mail.user_id)
        game = await self.store.call(due.game, engine, str(mail.data.get("game")))
        if address is None or not address.takes_mail or name is None or game is None:
            await self.store.call(outbox.drop, engine, mail.id)
            return 0
        stop = await self.store.call(
            outbox.claim, engine, mail, address_key(address.address), utcnow()
        )
        if stop is None:
            return 0  # another process has it
        seat = int(mail.data["seat"])
        compose = texts.your_turn if mail.kind == "turn" else texts.game_over
        try:
            message = compose(
                self.site, address.lang, address.address, name, game, seat, stop.token
            )
        except ValueError:  # a name no mail header can carry: never sendable
            log.warning("mail %s cannot be written; dropped", mail.key)
            await self.store.call(outbox.drop, engine, mail.id)
            return 0
        if not await self._deliver(message):
            await self.store.call(outbox.mark_failed, engine, mail.id, mail.attempts + 1, utcnow())
            return 0
        await self.store.call(outbox.mark_sent, engine, mail.id, utcnow())
        return 1

    async def _deliver(self, message: EmailMessage) -> bool:
        assert self.target is not None
        try:
            await asyncio.to_thread(self.target.send, message)
        except (smtplib.SMTPException, OSError) as e:
            log.warning("the SMTP server did not take a mail: %s", e)
            return False
        return True

    def kick(self) -> None:
        """Send what is queued soon (a confirmation's claim aside)."""
        task = asyncio.get_running_loop().create_task(self.drain())
        self._kicks.add(task)
        task.add_done_callback(self._kicks.discard)

    # -- the owner's settings -----------------------------------------------------------------

    async def view(self, user_id: str) -> MailSettings:
        found = await self.store.call(addresses.read, self.engine, user_id)
        return MailSettings(
            enabled=self.enabled,
            address=None if found is None else found.address,
            confirmed=found is not None and found.confirmed,
            stopped=found is not None and found.stopped,
            lang=None if found is None else found.lang,
            mail_after=self.settings.mail_after,
        )

    def _require(self) -> None:
        if not self.enabled:
            raise ServerError("mail_off", N_("this server sends no mail"))

    async def set_address(self, user: UserData, text: str, lang: str) -> MailSettings:
        self._require()
        address = normalize(text)
        pending = await self.store.call(
            addresses.set_address, self.engine, user.id, address, lang, utcnow()
        )
        await self._confirm(user, pending)
        return await self.view(user.id)

    async def resend(self, user: UserData, lang: str) -> MailSettings:
        self._require()
        pending = await self.store.call(addresses.resend, self.engine, user.id, lang, utcnow())
        await self._confirm(user, pending)
        return await self.view(user.id)

    async def _confirm(self, user: UserData, pending: addresses.Pending | None) -> None:
        if pending is None:
            return
        message = texts.confirmation(
            self.site, pending.lang, pending.address, user.name, pending.secret, pending.stop.token
        )
        if not await self._deliver(message):
            now = utcnow()
            await self.store.call(outbox.mark_failed, self.engine, pending.mail_id, 1, now)
            raise ServerError("unavailable", SEND_FAILED)
        await self.store.call(outbox.mark_sent, self.engine, pending.mail_id, utcnow())

    async def remove(self, user_id: str) -> MailSettings:
        await self.store.call(addresses.remove, self.engine, user_id, utcnow())
        return await self.view(user_id)

    # -- the links ----------------------------------------------------------------------------

    async def confirm(self, secret: str) -> addresses.Confirmed:
        found = await self.store.call(addresses.confirm, self.engine, secret, utcnow())
        if found == "confirmed":
            with contextlib.suppress(RuntimeError):
                self.kick()
        return found

    async def stop(self, token: str) -> bool:
        return await self.store.call(addresses.stop, self.engine, token, utcnow())
