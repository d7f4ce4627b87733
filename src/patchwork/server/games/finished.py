"""A game against the AI played to its end elsewhere (the guided first game), stored as if it
had been played here: its row, its moves and the event of each, in one transaction, so that
its replay and review are any finished game's."""

from __future__ import annotations

import logging

from ...engine import Game
from ...i18n import N_
from ..common.errors import ServerError
from ..storage.models import EventData, MoveData, UserData
from ..storage.store import AddEvent, AddMoves, InsertGame, Store, Write
from .changes import finish
from .creation import played_elsewhere_data

log = logging.getLogger("patchwork.server")


def finished_writes(game: Game, level: int, user: UserData | None) -> tuple[str, list[Write]]:
    """The new game's id and the writes that store ``game`` (over: the caller checks) as a
    finished game against the AI at ``level``: version 1 its creation, then one a move."""
    assert game.state.is_terminal()
    data = played_elsewhere_data(game.start, level, user)
    plies = list(enumerate(zip(game.moves, game.movers(), strict=True), start=1))
    data.update({**finish(game.state, "finished", game.state.winner()), "version": len(plies) + 1})
    moves = [MoveData(data.id, ply, seat, str(move)) for ply, (move, seat) in plies]
    events = [EventData(data.id, 1, "created", {"mode": data.mode})]
    events += [
        EventData(data.id, ply + 1, "move", {"ply": ply, "seat": seat, "move": str(move)})
        for ply, (move, seat) in plies
    ]
    return data.id, [InsertGame(data), AddMoves(moves), *map(AddEvent, events)]


async def store_finished(store: Store, game: Game, level: int, user: UserData | None) -> str:
    """Store ``game`` (see :func:`finished_writes`); its id, or ServerError ``unavailable``."""
    game_id, writes = finished_writes(game, level, user)
    try:
        await store.commit(writes)
    except Exception:
        log.exception("storing a finished game failed")
        raise ServerError("unavailable", N_("the database is unavailable")) from None
    return game_id
