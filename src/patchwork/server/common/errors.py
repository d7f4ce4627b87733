"""The errors a client can cause: one code each, a message that says what was wrong."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import HTTPConnection
from starlette.types import Scope

from ...engine.errors import IllegalMoveError, PatchworkError, fill_in
from ...i18n import N_, fill, negotiate, supported, translator

# code -> HTTP status (websocket errors carry the same codes)
STATUS: dict[str, int] = {
    "bad_json": 400,
    "invalid_message": 400,
    "invalid_request": 422,
    "invalid_move": 400,
    "illegal_move": 409,
    "too_large": 413,
    "unsupported_media_type": 415,
    "timeout": 408,
    "too_many_connections": 429,
    "rate_limited": 429,
    "game_not_found": 404,
    "not_found": 404,
    "missing_token": 401,
    "bad_token": 403,
    "read_only": 403,
    "not_your_turn": 409,
    "stale_version": 409,
    "game_not_started": 409,
    "game_over": 409,
    "game_not_over": 409,
    "not_allowed": 403,
    "nothing_to_undo": 409,
    "invite_invalid": 403,
    "seat_taken": 409,
    "no_rematch_offer": 409,
    "no_takeback_offer": 409,
    "takeback_pending": 409,
    "takeback_declined": 409,
    "claim_too_early": 409,
    "flagged": 409,
    "busy": 429,
    "hello_required": 400,
    # accounts (docs/accounts.md)
    "bad_name": 422,
    "name_taken": 409,
    "weak_password": 422,
    "bad_credentials": 401,
    "not_signed_in": 401,
    "csrf_failed": 403,
    "account_required": 403,
    "internal_error": 500,
    "unavailable": 503,
    # the lobby (lobby/service.py)
    "out_of_range": 403,
    "own_seek": 409,
    "seek_not_found": 404,
    "seek_taken": 409,
    "too_many_seeks": 429,
    # the analysis board (analysis/)
    "invalid_position": 400,
    "game_in_progress": 409,
    # the guided first game (tutorial/)
    "invalid_progress": 400,
    # people (people/)
    "blocked": 403,
    "too_many_listed": 409,
    # challenges (challenges/)
    "challenge_not_found": 404,
    "challenge_closed": 409,
    "challenge_open": 409,
    "too_many_challenges": 429,
    # tournaments (tournaments/)
    "tournament_not_found": 404,
    "tournament_closed": 409,
    "already_joined": 409,
    "not_joined": 409,
    "too_many_tournaments": 429,
    # chat (chat/)
    "chat_closed": 403,
    "chat_muted": 403,
    "chat_repeated": 409,
    "already_reported": 409,
    # mail (mail/)
    "bad_address": 422,
    "mail_off": 409,
}


class ServerError(Exception):
    """A request that cannot be carried out; nothing was changed.

    ``message`` is an English template marked with ``N_`` and filled from ``params``: the
    client gets it in the language of its request (:meth:`body`), the log in English. The
    ``code`` is the same in every language: clients act on it, people read the message.
    ``plain`` (a refused move's) is the same reason in plain words, without move notation,
    filled from the same ``params``: a table shows it and keeps the message as details."""

    def __init__(
        self,
        code: str,
        message: str,
        /,
        params: Mapping[str, Any] | None = None,
        *,
        plain: str | None = None,
        **extra: Any,
    ) -> None:
        self.template = message
        self.plain = plain
        self.params = dict(params or {})
        self.message = fill_in(message, self.params)
        super().__init__(self.message)
        if code not in STATUS:
            raise ValueError(f"unknown error code {code!r}")
        self.code = code
        self.extra = extra

    @property
    def status(self) -> int:
        return STATUS[self.code]

    def text(self, lang: str | None = None) -> str:
        """The message in ``lang`` (English when None or not shipped)."""
        if not lang:
            return self.message
        return fill(self.template, self.params, translator(lang))

    def plain_text(self, lang: str | None = None) -> str | None:
        """``plain`` filled in, in ``lang`` (English when None); None without one."""
        if self.plain is None:
            return None
        if not lang:
            return fill_in(self.plain, self.params)
        return fill(self.plain, self.params, translator(lang))

    def body(self, lang: str | None = None) -> dict[str, Any]:
        body = {"code": self.code, "message": self.text(lang), **self.extra}
        plain = self.plain_text(lang)
        if plain is not None:
            body["plain"] = plain
        return body


def too_soon(message: str, wait: float) -> ServerError:
    """``rate_limited``: ``message`` (an ``N_`` template with ``{seconds}``) says when to try
    again, and ``retry_after`` says it to a program."""
    return ServerError(
        "rate_limited", message, {"seconds": max(1.0, wait)}, retry_after=round(wait, 3)
    )


def not_found(game_id: str) -> ServerError:
    return ServerError("game_not_found", N_("there is no game {game_id!r}"), {"game_id": game_id})


def language_of(query_lang: str | None, accept_language: str | None) -> str:
    """The language to answer in: ``?lang=`` when it names a shipped language, else the
    best match of ``Accept-Language``, else English."""
    return supported(query_lang) or negotiate(accept_language)


def request_language(conn: HTTPConnection) -> str:
    """:func:`language_of` an HTTP request or a websocket handshake."""
    return language_of(conn.query_params.get("lang"), conn.headers.get("accept-language"))


def scope_language(scope: Scope) -> str:
    """:func:`request_language` from a raw ASGI scope (for middleware)."""
    return request_language(HTTPConnection(scope))


def refused_move(e: PatchworkError) -> ServerError:
    """A move the engine refused, in its words: ``illegal_move`` (with ``plain``) for one the
    rules do not allow here, ``invalid_move`` for text that is no move."""
    if isinstance(e, IllegalMoveError):
        return ServerError("illegal_move", e.template, e.params, plain=e.plain)
    return ServerError("invalid_move", e.template, e.params)
