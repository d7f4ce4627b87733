"""Accounts (docs/accounts.md): sign up, sign in and out, cookie sessions and API tokens,
password changes and deleting an account.

A session's secret is what the browser's cookie (or a script's ``pwa_`` token) holds; the
database keeps only its sha256. A cookie session's CSRF token is derived from its secret
(its hash stored too), so ``GET /api/account/me`` can give it again to a page that reloads."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ...i18n import N_
from ..cluster.redis_cluster import Cluster
from ..common.errors import ServerError
from ..common.tokens import token_hash
from ..storage.models import GameData, UserData, utcnow
from ..storage.store import Store
from . import passwords
from .limits import AccountLimits
from .names import check_name, is_valid, name_key
from .store import AccountStore, NameTaken, SessionData

log = logging.getLogger("patchwork.server")
T = TypeVar("T")
GameChanged = Callable[[str, int], Awaitable[None]]  # (game id, its version now)
SessionsEnded = Callable[[list[str]], Awaitable[None]]  # the hashes of their secrets

API_PREFIX = "pwa_"  # an account's API token: ``Authorization: Bearer pwa_...``
COOKIE_DAYS = 30
API_DAYS = 365
MAX_SECRET = 128  # longer cookies and tokens are not looked up at all
# A deleted account's seats are called this (stored in English, as "Player 1"; the web
# client says it in the page's language).
DELETED_NAME = N_("Deleted player")
ACTIVE = ("waiting", "active")
ALL = (*ACTIVE, "finished")


def csrf_token(secret: str) -> str:
    """The CSRF token of a cookie session: known to the page (it is told it), never sent by
    the browser on its own (unlike the cookie)."""
    return hmac.new(secret.encode(), b"patchwork csrf", hashlib.sha256).hexdigest()


def _bad_credentials() -> ServerError:
    # One answer for an unknown name and a wrong password: it must not tell which names exist.
    return ServerError("bad_credentials", N_("that name and password do not match an account"))


@dataclass(frozen=True)
class Session:
    """A signed-in caller: the account, its session row and the secret it presented."""

    user: UserData
    data: SessionData
    secret: str

    @property
    def csrf(self) -> str | None:
        return csrf_token(self.secret) if self.data.kind == "cookie" else None


class Accounts:
    def __init__(
        self,
        store: Store,
        cluster: Cluster | None = None,
        game_changed: GameChanged | None = None,
        sessions_ended: SessionsEnded | None = None,
    ) -> None:
        self.store = store
        self.db = AccountStore(store.engine)
        self.limits = AccountLimits(cluster)
        # Told of each game that deleting an account changed in the database (the games
        # domain brings its copy in memory up to date): accounts never reach into games.
        self.game_changed = game_changed
        # Told of the sessions that ended (their open websockets close, on every process).
        self.sessions_ended = sessions_ended

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        try:
            return await self.store.call(fn, *args)
        except (ServerError, NameTaken):
            raise
        except Exception:
            log.exception("an account's database request failed")
            raise ServerError(
                "unavailable", N_("the database is unavailable; nothing was changed")
            ) from None

    # -- signing up and in ----------------------------------------------------------------

    async def sign_up(self, name: str, password: str, address: str) -> Session:
        """A new account, signed in (its first cookie session)."""
        check_name(name)
        passwords.check_strength(password)
        await self.limits.sign_up(address)
        now = utcnow()
        user = UserData(
            id=secrets.token_urlsafe(12),
            name=name,
            name_key=name_key(name),
            password_hash=await passwords.hash_password(password),
            created_at=now,
        )
        secret, session = self._new_session(user, "cookie", now)
        try:
            await self._call(self.db.add_user, user, session, token_hash(address))
        except NameTaken as taken:
            if taken.name == name:
                raise ServerError(
                    "name_taken", N_("the name {name} is taken"), {"name": name}
                ) from None
            raise ServerError(
                "name_taken",
                N_("the name {name} is taken: it reads like {taken}"),
                {"name": name, "taken": taken.name},
            ) from None
        return Session(user, session, secret)

    async def check_password(self, name: str, password: str, address: str) -> UserData:
        """The account of that name if the password is its, else ``bad_credentials``.
        Limited per address (every attempt) and per name (the failures from addresses that
        never signed in to the account: a stranger cannot lock its owner out)."""
        key = name_key(name[:64])
        await self.limits.attempt(address)
        user = await self._call(self.db.user_by_key, key) if is_valid(name) else None
        place = token_hash(address)
        known = user is not None and await self._call(self.db.signed_in_from, user.id, place)
        if not known:
            await self.limits.strangers_may_try(key)
        if user is None:
            await passwords.verify_nobody(password)
            await self.limits.stranger_failed(key)
            raise _bad_credentials()
        if not await passwords.verify(user.password_hash, password):
            if not known:
                await self.limits.stranger_failed(key)
            raise _bad_credentials()
        if not known:
            await self._call(self.db.remember_address, user.id, place, utcnow())
        if passwords.needs_rehash(user.password_hash):
            await self._call(self.db.rehash, user.id, await passwords.hash_password(password))
        return user

    async def sign_in(self, name: str, password: str, address: str) -> Session:
        user = await self.check_password(name, password, address)
        return await self._open(user, "cookie")

    async def api_token(self, name: str, password: str, address: str) -> str:
        """A new API token (``pwa_...``) of the account: for scripts and bots."""
        user = await self.check_password(name, password, address)
        return (await self._open(user, "api")).secret

    def _new_session(self, user: UserData, kind: str, now: dt.datetime) -> tuple[str, SessionData]:
        secret = secrets.token_urlsafe(32)
        if kind == "api":
            secret = API_PREFIX + secret
        days = API_DAYS if kind == "api" else COOKIE_DAYS
        session = SessionData(
            token_hash=token_hash(secret),
            user_id=user.id,
            kind=kind,
            csrf_hash=token_hash(csrf_token(secret)) if kind == "cookie" else None,
            created_at=now,
            expires_at=now + dt.timedelta(days=days),
        )
        return secret, session

    async def _open(self, user: UserData, kind: str) -> Session:
        secret, session = self._new_session(user, kind, utcnow())
        await self._call(self.db.add_session, session)
        return Session(user, session, secret)

    # -- sessions -------------------------------------------------------------------------

    async def session(self, secret: str, kind: str) -> Session | None:
        """The live session of a cookie's value or an API token (None: unknown, expired, or
        of the other kind)."""
        api = secret.startswith(API_PREFIX)
        if not secret or len(secret) > MAX_SECRET or api != (kind == "api"):
            return None
        found = await self._call(self.db.session, token_hash(secret), utcnow())
        if found is None or found[0].kind != kind:
            return None
        return Session(found[1], found[0], secret)

    async def alive(self, session_hash: str) -> bool:
        """Whether the session of that hash still lives (not ended, not expired)."""
        return await self._call(self.db.session, session_hash, utcnow()) is not None

    async def _ended(self, session_hashes: list[str]) -> None:
        if self.sessions_ended is not None and session_hashes:
            await self.sessions_ended(session_hashes)

    async def sign_out(self, session: Session) -> None:
        await self._call(self.db.delete_session, session.data.token_hash)
        await self._ended([session.data.token_hash])

    async def change_password(self, session: Session, old: str, new: str, address: str) -> UserData:
        """A new password; every other session of the account ends (this one stays)."""
        passwords.check_strength(new)
        user = await self.check_password(session.user.name, old, address)
        hashed = await passwords.hash_password(new)
        ended = await self._call(self.db.set_password, user.id, hashed, session.data.token_hash)
        await self._ended(ended)
        return user

    async def delete(self, session: Session, password: str, address: str) -> None:
        """Delete the account (its password confirms it). Its games stay, its seats called
        "Deleted player" and bound to nobody, in the database and in memory alike."""
        user = await self.check_password(session.user.name, password, address)
        renamed, ended = await self._call(self.db.delete_user, user.id, DELETED_NAME)
        await self._ended(ended)
        if self.game_changed is not None:
            for game_id, version in renamed:
                await self.game_changed(game_id, version)
        log.info("account %s deleted (%d games kept)", user.id, len(renamed))

    # -- the account's games --------------------------------------------------------------

    async def games_of(self, user_id: str, status: str | None, limit: int) -> list[GameData]:
        """ "My games": in progress (``active``: waiting or under way), ``finished``, or both;
        the most recently changed first."""
        statuses = {"active": ACTIVE, "finished": ("finished",)}.get(status or "", ALL)
        return await self._call(self.db.games_of, user_id, statuses, limit)

    # -- bots -----------------------------------------------------------------------------

    async def become_bot(self, user: UserData) -> UserData:
        """The account becomes a bot (docs/bots.md): one way, and only before its first
        rated game. A bot again is no change."""
        if user.bot:
            return user
        found = await self._call(self.db.become_bot, user.id)
        if found is None:
            raise ServerError(
                "not_allowed",
                N_(
                    "an account that has played a rated game cannot become a bot: "
                    "make a new account for your bot"
                ),
            )
        log.info("account %s is a bot now", user.id)
        return found
