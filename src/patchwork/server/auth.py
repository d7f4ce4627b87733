"""Who asks: the ``Caller`` of an HTTP request or a websocket (docs/accounts.md).

A seat's secret token comes as ``Authorization: Bearer <token>`` (or in a websocket's hello).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from .live import Caller
from .models import UserData

_bearer = HTTPBearer(auto_error=False, description="a seat's secret token")


async def caller(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Caller:
    return Caller(token=None if credentials is None else credentials.credentials)


Who = Annotated[Caller, Depends(caller)]


async def signed_in(conn: HTTPConnection) -> UserData | None:
    """The account a request or websocket is signed in to (its session cookie, or an
    account's bearer token), or None for a guest. Accounts: see accounts.py."""
    return None
