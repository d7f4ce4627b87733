"""Who asks: the ``Caller`` of an HTTP request or a websocket (docs/accounts.md).

- ``Authorization: Bearer <seat token>``: a seat's secret (or the token of a websocket's hello);
- ``Authorization: Bearer pwa_...``: an account's API token (no CSRF: a browser never sends
  it by itself);
- the cookie ``pw_session``: a browser signed in. A request that changes something must then
  carry ``X-CSRF-Token`` (another site can make the browser send the cookie, not the header),
  and a websocket counts it only when it comes from this server's own pages (its ``Origin``).
"""

from __future__ import annotations

import hmac
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, Request
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from ...i18n import N_
from ..accounts.service import API_PREFIX, Accounts, Session
from ..common.errors import ServerError
from ..common.tokens import token_hash
from ..games.live import Caller
from ..storage.models import UserData

SESSION_COOKIE = "pw_session"
CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_CACHE = "patchwork.session"  # the scope's key for the session found (once per request)

_bearer = HTTPBearer(
    auto_error=False, description="a seat's secret token, or an account's API token (pwa_...)"
)
_cookie = APIKeyCookie(
    name=SESSION_COOKIE,
    auto_error=False,
    description="a signed-in browser's session (changes need the X-CSRF-Token header)",
)


def accounts_of(conn: HTTPConnection) -> Accounts:
    found: Accounts = conn.app.state.accounts
    return found


def _bearer_of(conn: HTTPConnection) -> str | None:
    scheme, _, value = conn.headers.get("authorization", "").partition(" ")
    value = value.strip()
    return value if scheme.lower() == "bearer" and value else None


def same_origin(conn: HTTPConnection) -> bool:
    """Whether the request comes from this server's own pages: its ``Origin`` names the host
    it was sent to (a browser always sends Origin with a websocket, and never forges it)."""
    origin = conn.headers.get("origin")
    host = conn.headers.get("host")
    if not origin or not host:
        return False
    return urlsplit(origin).netloc.lower() == host.lower()


async def session_of(conn: HTTPConnection) -> Session | None:
    """The account session of a request or websocket handshake (None: a guest), found once.

    An HTTP request with an unknown API token is refused (``not_signed_in``), as is one that
    changes something on the strength of the cookie without its CSRF token (``csrf_failed``).
    """
    if _CACHE in conn.scope:
        cached: Session | None = conn.scope[_CACHE]
        return cached
    found = await _find(conn)
    conn.scope[_CACHE] = found
    return found


async def _find(conn: HTTPConnection) -> Session | None:
    accounts = accounts_of(conn)
    http = conn.scope["type"] == "http"
    bearer = _bearer_of(conn)
    if bearer is not None and bearer.startswith(API_PREFIX):
        session = await accounts.session(bearer, "api")
        if session is None and http:
            raise ServerError("not_signed_in", N_("that API token is unknown or has expired"))
        return session
    secret = conn.cookies.get(SESSION_COOKIE)
    if not secret or (not http and not same_origin(conn)):
        return None
    session = await accounts.session(secret, "cookie")
    if session is None or not http or conn.scope["method"] in SAFE_METHODS:
        return session
    sent = conn.headers.get(CSRF_HEADER, "")
    stored = session.data.csrf_hash
    if not sent or stored is None or not hmac.compare_digest(token_hash(sent), stored):
        raise ServerError(
            "csrf_failed",
            N_(
                "a change made with the session cookie needs the header X-CSRF-Token "
                "(from signing in or GET /api/account/me)"
            ),
        )
    return session


async def signed_in_session(conn: HTTPConnection) -> Session | None:
    """The account session a request or websocket is signed in with (its session cookie, or
    an account's bearer token), or None for a guest. For a websocket the cookie counts only
    from this server's own origin, and an unknown token makes a guest; an HTTP request may be
    refused as :func:`session_of` says."""
    try:
        return await session_of(conn)
    except ServerError:
        if conn.scope["type"] == "http":
            raise
        return None


async def signed_in(conn: HTTPConnection) -> UserData | None:
    """The account of :func:`signed_in_session`, or None for a guest."""
    session = await signed_in_session(conn)
    return None if session is None else session.user


async def current_session(
    request: Request,
    _credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    _cookie_value: Annotated[str | None, Depends(_cookie)],
) -> Session | None:
    """The request's account session, or None (the dependencies above document the ways in)."""
    return await session_of(request)


MaybeSession = Annotated[Session | None, Depends(current_session)]


async def required_session(session: MaybeSession) -> Session:
    if session is None:
        raise ServerError("not_signed_in", N_("sign in first"))
    return session


SignedIn = Annotated[Session, Depends(required_session)]


async def caller(request: Request, session: MaybeSession) -> Caller:
    bearer = _bearer_of(request)
    token = bearer if bearer is not None and not bearer.startswith(API_PREFIX) else None
    if session is None:
        return Caller(token=token)
    return Caller(token=token, user_id=session.user.id, session=session.data.token_hash)


Who = Annotated[Caller, Depends(caller)]


async def hello_caller(conn: HTTPConnection, token: str | None) -> Caller:
    """A game websocket's caller: its hello's token (a seat's, or an account's ``pwa_``
    token) and the account the handshake is signed in to."""
    if token is not None and token.startswith(API_PREFIX):
        session = await accounts_of(conn).session(token, "api")
        if session is None:
            raise ServerError("not_signed_in", N_("that API token is unknown or has expired"))
        return Caller(user_id=session.user.id, session=session.data.token_hash)
    session = await signed_in_session(conn)
    if session is None:
        return Caller(token=token or None)
    return Caller(token=token or None, user_id=session.user.id, session=session.data.token_hash)
