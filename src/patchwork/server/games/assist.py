"""The AI's help in games against it: a hint for your turn, and analysis of any position
of the game. Both run the searcher in the AI worker processes, never on the event loop."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine import State
from ...i18n import N_
from ..common.errors import ServerError
from .live import Caller, LiveGame
from .schemas import Analysis, Hint

if TYPE_CHECKING:
    from .service import GameService


def _human_seat(svc: GameService, live: LiveGame, caller: Caller) -> int:
    seats = svc.seats(live, caller)
    if live.data.mode not in ("ai", "solo"):
        raise ServerError("not_allowed", N_("hints and analysis are for games against the AI"))
    if live.data.rated and live.data.status != "finished":
        raise ServerError(
            "not_allowed", N_("a rated game gets no hints or analysis until it is over")
        )
    return min(seats)


async def hint(svc: GameService, game_id: str, caller: Caller) -> Hint:
    live = await svc.get(game_id)
    async with live.lock:  # the stored position, not a move on its way to the database
        seat = _human_seat(svc, live, caller)
        svc.require_active(live)
        state = live.game.state
        if state.current_player != seat:
            raise ServerError("not_your_turn", N_("a hint is for your own turn"))
        version = live.version
    result = await _analyse(svc, live, state, svc.settings.hint_seconds)
    return Hint(
        version=version,
        move=result["best_move"],
        squares=result["squares"],
        win_probability=result["win_probability"],
        margin=result["margin"],
    )


async def analysis(svc: GameService, game_id: str, caller: Caller, ply: int | None) -> Analysis:
    live = await svc.get(game_id)
    async with live.lock:  # the stored game, not a move on its way to the database
        _human_seat(svc, live, caller)
        version = live.version
        moves = live.game.moves
    ply = len(moves) if ply is None else ply
    if ply > len(moves):
        raise ServerError(
            "not_found",
            N_("the game has {moves} moves, not {ply}"),
            {"moves": len(moves), "ply": ply},
        )
    state = live.game.start
    for m in moves[:ply]:
        state = state.apply(m)
    if state.is_terminal():
        raise ServerError("game_over", N_("the game is over at that point: nothing to analyse"))
    result = await _analyse(svc, live, state, svc.settings.analysis_seconds)
    return Analysis(version=version, ply=ply, **result)


async def _analyse(
    svc: GameService, live: LiveGame, state: State, seconds: float
) -> dict[str, Any]:
    if live.analysing:
        raise ServerError("busy", N_("an analysis of this game is already running"))
    live.analysing = True
    try:
        return await svc.ai.analyse(state.to_text(public=True), seconds, live.data.ai_seed % 2**31)
    except Exception:
        raise ServerError("unavailable", N_("the analysis failed; try again")) from None
    finally:
        live.analysing = False
