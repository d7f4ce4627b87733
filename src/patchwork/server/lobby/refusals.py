"""The lobby's refusals, each with its code (docs/server.md, "Error codes")."""

from __future__ import annotations

from ...i18n import N_
from ..common.errors import ServerError

# What an address is refused when it has made its share of seeks, or of games against bots.
TOO_MANY = {
    "seeks": N_("too many seeks from your address; try again in {seconds:.0f} s"),
    "bots": N_("too many games from your address; try again in {seconds:.0f} s"),
}


def account_required() -> ServerError:
    return ServerError("account_required", N_("rated games need an account: sign in first"))


def own_seek() -> ServerError:
    return ServerError("own_seek", N_("that is your own seek: wait for someone to accept it"))


def no_seek(seek_id: str) -> ServerError:
    return ServerError(
        "seek_not_found",
        N_("there is no open seek {seek_id!r} (withdrawn, or its player left)"),
        {"seek_id": seek_id},
    )


def accepted_already() -> ServerError:
    return ServerError("seek_taken", N_("that seek was accepted already: its game is starting"))


def taken() -> ServerError:
    return ServerError("seek_taken", N_("someone else accepted that seek first"))
