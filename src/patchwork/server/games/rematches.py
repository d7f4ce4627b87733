"""Rematches between two accounts (docs/server.md, "Challenges"): at the end of an online game
whose seats are both bound to accounts, a rematch is offered as a challenge to the opponent
(challenges/, ``rematch_of``), answered anywhere on the site; a game with a guest keeps the
in-game offer (service.rematch). Once such a challenge became a game, the old game points to
it (``rematch_id`` and a ``rematch`` event), as an in-game rematch does, so that its players
and spectators are taken along."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...i18n import N_
from ..common.errors import ServerError
from ..storage.models import GameData

if TYPE_CHECKING:
    from .service import GameService


def between_accounts(data: GameData) -> bool:
    """An online game whose two seats are bound to (two) accounts: its rematch is a
    challenge."""
    return data.mode == "online" and data.seat0_user is not None and data.seat1_user is not None


def by_challenge() -> ServerError:
    return ServerError(
        "not_allowed",
        N_(
            "a rematch between two accounts is a challenge: "
            "POST /api/challenges with rematch_of, the game's id"
        ),
    )


async def link_rematch(svc: GameService, old_id: str, new_id: str) -> None:
    """Point the finished game ``old_id`` to its rematch ``new_id`` (once: a game has one
    rematch) and tell whoever is on its page."""
    live = await svc.get(old_id)
    async with live.lock:
        if live.data.rematch_id is not None:
            return
        event = await svc.changes.commit(
            live, "rematch", {"game_id": new_id}, {"rematch_id": new_id, "rematch_offer": None}
        )
        svc.changes.announce(live, event)
