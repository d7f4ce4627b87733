"""The analysis board's work: boards opened from a position or a finished game, and each
connection's search, streamed a step at a time.

A search runs as ``STEPS`` searches of doubling length (the last ``--board-seconds``), each
sent as it ends, so the view sharpens while the person looks. Each step is one request to
the AI pool at the ``BOARD`` priority: after a hint or an analysis a player of a game waits
for, before a review's positions, and never on the worker kept for AI moves
(aipool/runner.py). Between two steps the slot is free for others, and a connection has one
search at a time: a new position or a ``stop`` ends the one before, and so does leaving the
page (the socket closes).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from ...engine import PatchworkError, State
from ...i18n import N_
from ..aipool.slots import BOARD
from ..common.errors import ServerError
from ..common.ratelimit import ConnectionCount
from ..games.board import Board, board
from ..games.schemas import SeatView
from ..games.service import GameService
from ..games.views import public_text, seats_view
from .messages import AnalysisUpdate, Ref
from .schemas import BoardIn

STEPS = 5  # searches a stream makes, each twice as long as the one before
SEARCHES_PER_ADDRESS = 2  # searches one client address may have under way at once


def start_position(text: str) -> State:
    """The position a text gives, or ServerError ``invalid_position`` saying what is wrong."""
    try:
        return State.from_text(text.strip())
    except PatchworkError as e:
        raise ServerError("invalid_position", e.template, e.params) from None


def _seats(solo: bool) -> list[SeatView]:
    """The seats of a board set up from a position: two people (Automa in a solo game)."""
    return [
        SeatView(seat=0, kind="human", name="Player 1", level=None, joined=True),
        SeatView(seat=1, kind="automa", name="Automa", level=None, joined=True)
        if solo
        else SeatView(seat=1, kind="human", name="Player 2", level=None, joined=True),
    ]


class AnalysisBoard:
    def __init__(self, svc: GameService) -> None:
        self.svc = svc
        last = svc.settings.board_seconds
        self.steps = tuple(last / 2**k for k in reversed(range(STEPS)))
        self.searching = ConnectionCount(SEARCHES_PER_ADDRESS)

    async def open(self, req: BoardIn) -> Board:
        """The board ``req`` asks for, or ServerError saying why not."""
        if (req.position is None) == (req.game_id is None):
            raise ServerError(
                "invalid_request", N_("give either a position or a game, not both or neither")
            )
        if req.game_id is None:
            assert req.position is not None
            if req.ply is not None:
                raise ServerError("invalid_request", N_("a ply is given with a game only"))
            start = start_position(req.position)
            return board(start, req.moves, _seats(start.rules.solo is not None))
        live = await self.svc.get(req.game_id)
        async with live.lock:
            data, game = live.data, live.game
            if data.status != "finished":
                raise ServerError(
                    "game_in_progress",
                    N_("a game opens on the analysis board once it is over"),
                )
            moves = [str(m) for m in game.moves]
            ply = len(moves) if req.ply is None else req.ply
            if ply > len(moves):
                raise ServerError(
                    "not_found",
                    N_("the game has {moves} moves, not {ply}"),
                    {"moves": len(moves), "ply": ply},
                )
            seats = seats_view(data)
            if game.start.rules.solo is not None:
                # Automa's deck stays hidden: the board starts at the ply, its deck a guess.
                start = start_position(public_text(game.states[ply]))
                return board(start, req.moves, seats)
        return board(game.start, moves[:ply] + req.moves, seats, mainline=moves)

    async def stream(
        self, position: str, ref: Ref, send: Callable[[AnalysisUpdate], None], address: str
    ) -> None:
        """Search ``position`` step by step, sending each step's view; cancelled to stop. A
        client ``address`` has at most ``SEARCHES_PER_ADDRESS`` under way (on this process)."""
        state = start_position(position)
        if state.is_terminal():
            raise ServerError("game_over", N_("the game is over at that point: nothing to analyse"))
        if not self.searching.acquire(address):
            raise ServerError(
                "busy",
                N_("at most {limit} analyses at a time from one address"),
                {"limit": SEARCHES_PER_ADDRESS},
            )
        try:
            await self._steps(public_text(state), ref, send)
        finally:
            self.searching.release(address)

    async def _steps(self, text: str, ref: Ref, send: Callable[[AnalysisUpdate], None]) -> None:
        for step, seconds in enumerate(self.steps, start=1):
            result = await self.svc.ai.analyse(text, seconds, step, BOARD)
            send(
                AnalysisUpdate(
                    ref=ref,
                    position=text,
                    step=step,
                    steps=len(self.steps),
                    final=step == len(self.steps),
                    **result,
                )
            )
            await asyncio.sleep(0)  # a stop that came meanwhile is seen before the next step
