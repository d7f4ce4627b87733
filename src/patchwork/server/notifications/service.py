"""The notifications service (``app.state.notifications``): what other domains call to tell
an account something, what the HTTP routes read and mark, and the hook that turns a game's
changes into notifications in the same transaction (rules.py).

Other domains (challenges) add one with :meth:`Notifications.add`::

    await request.app.state.notifications.add(user_id, ChallengeAbout(challenge_id=c, by=name))

or, to store it in the same transaction as their own rows (so that it exists if and only if
they do), with :meth:`Notifications.batch`: put ``batch.write`` among their writes to
``Store.commit`` and call ``batch.deliver()`` once it is committed.

Delivery: the process that committed a notification sends it to the account's sockets on
every process (people/hub.py ``People.deliver``) as a ``notification`` message. Should that
live delivery be lost (the process killed in between, Redis away), the notification is in
the database all the same, and a client reads its list again on every ``welcome``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from sqlalchemy import Connection

from ...i18n import N_
from ..common.errors import ServerError
from ..games.changes import Change, Extra
from ..people.hub import People
from ..storage.models import GameData, utcnow
from ..storage.store import Execute, Store
from . import rules, store
from .schemas import (
    About,
    Notification,
    NotificationMessage,
    NotificationPage,
    NotificationsReadMessage,
)

log = logging.getLogger("patchwork.server")


class Batch:
    """Notifications stored by ``write`` (an ``Execute`` for a transaction of the caller's)
    and delivered live by ``deliver()`` once that transaction is committed. ``started``: a
    game whose players' followers are told it started (found in the transaction)."""

    def __init__(
        self, people: People, items: Sequence[tuple[str, About]], started: GameData | None = None
    ) -> None:
        self.people = people
        self.items = list(items)
        self.started = started
        self.made: list[tuple[str, Notification]] = []
        self.write = Execute(self._run)

    def _run(self, conn: Connection) -> None:
        items = list(self.items)
        if self.started is not None:
            players = [u for u in (self.started.seat0_user, self.started.seat1_user) if u]
            pairs = store.followers(conn, players)
            items += rules.follow_started(self.started, pairs)
        self.made = store.add(conn, items, utcnow())  # a run again replaces what one made

    def deliver(self) -> None:
        for user_id, notification in self.made:
            self.people.deliver(user_id, NotificationMessage(notification=notification))


class Notifications:
    def __init__(self, store: Store, people: People) -> None:
        self.store = store
        self.people = people

    # -- telling an account ---------------------------------------------------------------------

    def batch(self, items: Sequence[tuple[str, About]]) -> Batch:
        """Notifications (account, what) to store in a transaction of the caller's."""
        return Batch(self.people, items)

    async def add(self, user_id: str, about: About) -> Notification:
        """Store a notification for the account and deliver it live; the notification."""
        batch = self.batch([(user_id, about)])
        try:
            await self.store.commit([batch.write])
        except Exception:
            log.exception("storing a notification failed")
            raise ServerError("unavailable", N_("the database is unavailable")) from None
        batch.deliver()
        return batch.made[0][1]

    def on_game_change(self, change: Change) -> Extra | None:
        """The games' hook (games/changes.py ``Changes.hooks``): the notifications a change
        makes (rules.py), stored in its transaction and delivered once it is committed."""
        planned = rules.plan(change)
        if not planned:
            return None
        batch = Batch(self.people, planned.direct, planned.started)
        return Extra([batch.write], [batch.deliver])

    # -- the account's list ---------------------------------------------------------------------

    async def page(self, user_id: str, before: int | None, limit: int) -> NotificationPage:
        found, unread, more = await self.store.call(
            store.page, self.store.engine, user_id, before, min(limit, store.PAGE)
        )
        return NotificationPage(notifications=found, unread=unread, more=more)

    async def mark_read(self, user_id: str, ids: list[int] | None) -> int:
        """Mark the account's ``ids`` (None: all) read, and tell its pages; how many are left
        unread."""
        unread = await self.store.call(store.mark_read, self.store.engine, user_id, ids, utcnow())
        self.people.deliver(user_id, NotificationsReadMessage(ids=ids, unread=unread))
        return unread
