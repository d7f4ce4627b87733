"""Who may do what in a game: the checks every request passes before it changes anything."""

from __future__ import annotations

from ...i18n import N_
from ..common.errors import ServerError
from .live import Caller, LiveGame


def seats(live: LiveGame, caller: Caller) -> frozenset[int]:
    if not caller:
        raise ServerError("missing_token", N_("this needs the secret token of a seat"))
    seats = live.seats_of(caller)
    if not seats:
        raise ServerError("bad_token", N_("that token plays no seat of this game"))
    return seats


def require_active(live: LiveGame) -> None:
    if live.data.status == "waiting":
        raise ServerError("game_not_started", N_("the game waits for the second player to join"))
    if live.data.status == "finished":
        raise ServerError("game_over", N_("the game is over"))


def check_version(live: LiveGame, version: int | None) -> None:
    if version is not None and version != live.version:
        raise ServerError(
            "stale_version",
            N_(
                "the game is at version {current}, not {version}: "
                "look at the new state and choose again"
            ),
            {"current": live.version, "version": version},
            version=live.version,
        )
