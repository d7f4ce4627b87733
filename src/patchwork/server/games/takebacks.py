"""Takebacks in online games between people: a player asks to take back their last move (with
the opponent's moves made since), and the opponent accepts or declines (docs/server.md,
"Takebacks").

The rule (views.takebacks_allowed): a casual online game always allows it; a rated one only if
both players agreed when it was made (the games column ``takebacks``, set by a challenge
between two named players). Against the AI and at one screen a player undoes instead
(service.undo). One request is open at a time (``takeback_offer``: the asking seat); a move by
either player, the game's end, an answer or the asker cancelling closes it. After a decline
the asker may not ask again until a move has been made (``takeback_declined``).

Each step is a change of the game like any other (changes.py: stored with its event and
version, then announced to every process): ``takeback_offer``, ``takeback_decline`` and
``takeback_cancel`` events, and an accepted takeback as an ``undo`` event with ``asked_by``.

Clocks: the moves are taken back, not the time. Each player keeps the time they have left
when the takeback is accepted (the running clock is charged up to then, without an
increment), and the turn of the player to move starts again then; with a correspondence
clock that player has a whole move's days again.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Literal

from ...i18n import N_
from ..common.errors import ServerError
from . import clocks
from .changes import turn_start
from .clocks import ClockSpec
from .live import Caller, LiveGame
from .views import takebacks_allowed

if TYPE_CHECKING:
    from .service import GameService

Action = Literal["ask", "accept", "decline", "cancel"]


async def takeback(svc: GameService, game_id: str, caller: Caller, action: Action) -> LiveGame:
    """Ask to take back your last move, accept or decline your opponent's request, or
    cancel your own; refused (``ServerError``, nothing changed) where the rule says no."""
    live = await svc.get(game_id)
    async with live.lock:
        seat = min(svc.seats(live, caller))
        _check_rule(live)
        svc.require_active(live)
        if action == "ask":
            await _ask(svc, live, seat)
        elif action == "cancel":
            if live.data.takeback_offer != seat:
                raise ServerError("no_takeback_offer", N_("you have not asked to take back a move"))
            await _change(svc, live, "takeback_cancel", seat, {"takeback_offer": None})
        else:
            asker = live.data.takeback_offer
            if asker is None or asker == seat:
                raise ServerError(
                    "no_takeback_offer", N_("your opponent has not asked to take back a move")
                )
            if action == "decline":
                fields = {"takeback_offer": None, "takeback_declined": asker}
                await _change(svc, live, "takeback_decline", seat, fields)
            else:
                await _accept(svc, live, asker)
    return live


def _check_rule(live: LiveGame) -> None:
    data = live.data
    if data.mode != "online":
        raise ServerError(
            "not_allowed",
            N_("takebacks are asked for in online games between people; here, use undo"),
        )
    if not takebacks_allowed(data):
        raise ServerError(
            "not_allowed",
            N_(
                "no takebacks in this rated game: a rated game allows them only when both "
                "players agreed to takebacks when it was made"
            ),
        )


async def _ask(svc: GameService, live: LiveGame, seat: int) -> None:
    data = live.data
    if data.takeback_offer == seat:
        raise ServerError(
            "takeback_pending", N_("you have asked already: wait for the answer, or cancel")
        )
    if data.takeback_offer is not None:
        raise ServerError(
            "takeback_pending",
            N_("your opponent asks to take back a move: accept or decline that first"),
        )
    if data.takeback_declined == seat:
        raise ServerError(
            "takeback_declined",
            N_("your opponent declined your takeback: you may ask again after the next move"),
        )
    if seat not in live.movers:
        raise ServerError("nothing_to_undo", N_("there is no move of yours to take back"))
    await _change(svc, live, "takeback_offer", seat, {"takeback_offer": seat})


async def _change(
    svc: GameService, live: LiveGame, kind: str, seat: int, fields: dict[str, Any]
) -> None:
    event = await svc.changes.commit(live, kind, {"seat": seat}, fields)
    svc.changes.announce(live, event)


async def _accept(svc: GameService, live: LiveGame, asker: int) -> None:
    if await svc.timers.check_flag(live):  # the running clock ran out first: that ended it
        raise ServerError("flagged", N_("the time ran out: the game is over"))
    keep = max(i for i, s in enumerate(live.movers) if s == asker)  # the asker's last move
    now = time.time()
    fields: dict[str, Any] = {"takeback_offer": None, "takeback_declined": None}
    fields.update(_clock_fields(live, keep, now))
    await svc.changes.take_back(live, keep, fields, {"asked_by": asker})


def _clock_fields(live: LiveGame, keep: int, now: float) -> dict[str, Any]:
    """Each keeps the time left now; the turn of the player to move then starts now."""
    data = live.data
    fields: dict[str, Any] = {"turn_started": turn_start(live, live.game.states[keep], now)}
    spec = ClockSpec.from_json(data.clock)
    remaining = data.remaining()
    running = live.game.state.current_player
    if (
        spec is not None
        and spec.kind == "fischer"
        and remaining is not None
        and running is not None
        and data.turn_started is not None
    ):
        fields[f"remaining{running}"] = clocks.remaining_now(
            remaining[running], data.turn_started, now
        )
    return fields
