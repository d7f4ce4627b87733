"""The accounts' HTTP API under ``/api/account`` (docs/accounts.md): signing up, in and out,
the account, its password, API tokens, deleting it, and "My games"."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request, Response

from ..accounts.schemas import Account, ApiToken, Credentials, PasswordChange, PasswordConfirmation
from ..accounts.service import COOKIE_DAYS, Accounts, Session
from ..common.errors import ServerError
from ..games import reading
from ..games.schemas import ErrorResponse, GameSummary
from ..ratings import rating
from ..storage.models import UserData
from .auth import SESSION_COOKIE, MaybeSession, SignedIn, accounts_of
from .games import Service

router = APIRouter(prefix="/api/account", tags=["accounts"])

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorResponse} for code in (401, 403, 409, 422, 429, 503)
}
AccountService = Annotated[Accounts, Depends(accounts_of)]


def address(request: Request) -> str:
    """The client's address (the proxy's word for it with --forwarded-allow-ips)."""
    return request.client.host if request.client else "-"


def account_view(user: UserData, csrf: str | None) -> Account:
    return Account(
        id=user.id,
        name=user.name,
        rating=user.rating,
        rd=user.rd,
        provisional=rating.provisional(user.rd),
        bot=user.bot,
        csrf_token=csrf,
    )


def _set_cookie(response: Response, request: Request, session: Session) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        session.secret,
        max_age=COOKIE_DAYS * 86400,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def _clear_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(
        SESSION_COOKIE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def _signed_in(session: Session, request: Request, response: Response) -> Account:
    """The answer to signing up or in: the session's cookie and the account with its CSRF
    token."""
    _set_cookie(response, request, session)
    return account_view(session.user, session.csrf)


@router.post("/signup", response_model=Account, status_code=201, responses=ERRORS)
async def sign_up(
    body: Credentials, request: Request, response: Response, accounts: AccountService
) -> Account:
    """Make an account and sign in (the cookie ``pw_session``)."""
    session = await accounts.sign_up(body.name, body.password, address(request))
    return _signed_in(session, request, response)


@router.post("/signin", response_model=Account, responses=ERRORS)
async def sign_in(
    body: Credentials, request: Request, response: Response, accounts: AccountService
) -> Account:
    """Sign in (the cookie ``pw_session``); ``csrf_token`` goes with every change."""
    session = await accounts.sign_in(body.name, body.password, address(request))
    return _signed_in(session, request, response)


@router.post("/signout", status_code=204, response_class=Response, responses=ERRORS)
async def sign_out(request: Request, accounts: AccountService, session: MaybeSession) -> Response:
    """End this session (the cookie's, or the API token's)."""
    if session is not None:
        await accounts.sign_out(session)
    response = Response(status_code=204)
    _clear_cookie(response, request)
    return response


@router.get("/me", response_model=Account, responses=ERRORS)
async def me(session: SignedIn) -> Account:
    """The signed-in account (401 ``not_signed_in`` for a guest)."""
    return account_view(session.user, session.csrf)


@router.post("/password", response_model=Account, responses=ERRORS)
async def change_password(
    body: PasswordChange, request: Request, accounts: AccountService, session: SignedIn
) -> Account:
    """A new password; the account's other sessions and API tokens end."""
    user = await accounts.change_password(session, body.old, body.new, address(request))
    return account_view(user, session.csrf)


@router.delete("", status_code=204, response_class=Response, responses=ERRORS)
async def delete_account(
    body: PasswordConfirmation, request: Request, accounts: AccountService, session: SignedIn
) -> Response:
    """Delete the account (its password confirms). Its games stay, shown as "Deleted player"."""
    await accounts.delete(session, body.password, address(request))
    response = Response(status_code=204)
    _clear_cookie(response, request)
    return response


@router.post("/tokens", response_model=ApiToken, status_code=201, responses=ERRORS)
async def new_token(body: Credentials, request: Request, accounts: AccountService) -> ApiToken:
    """An API token for scripts and bots: ``Authorization: Bearer pwa_...`` (no CSRF)."""
    return ApiToken(token=await accounts.api_token(body.name, body.password, address(request)))


@router.get("/games", response_model=list[GameSummary], responses=ERRORS)
async def my_games(
    accounts: AccountService,
    svc: Service,
    session: SignedIn,
    status: Literal["active", "finished"] | None = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> list[GameSummary]:
    """My games: in progress (``active``), ``finished``, or both; the latest first."""
    rows = await accounts.games_of(session.user.id, status, limit)
    found = []
    for d in rows:
        # Each game read into memory (the cache keeps the latest): its turn and moves.
        try:
            live = await svc.get(d.id)
        except ServerError:  # deleted meanwhile (an online game nobody joined)
            continue
        found.append(reading.my_summary(live, session.user.id))
    return found
