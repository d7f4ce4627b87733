"""The errors a client can cause: one code each, a message that says what was wrong."""

from __future__ import annotations

from typing import Any

# code -> HTTP status (websocket errors carry the same codes)
STATUS: dict[str, int] = {
    "bad_json": 400,
    "invalid_message": 400,
    "invalid_request": 422,
    "invalid_move": 400,
    "illegal_move": 409,
    "too_large": 413,
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
    "claim_too_early": 409,
    "flagged": 409,
    "busy": 429,
    "hello_required": 400,
    "internal_error": 500,
    "unavailable": 503,
}


class ServerError(Exception):
    """A request that cannot be carried out; nothing was changed."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        if code not in STATUS:
            raise ValueError(f"unknown error code {code!r}")
        self.code = code
        self.message = message
        self.extra = extra

    @property
    def status(self) -> int:
        return STATUS[self.code]

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.extra}


def not_found(game_id: str) -> ServerError:
    return ServerError("game_not_found", f"there is no game {game_id!r}")
