"""A board: a start and moves played on it, every move checked by the engine (no rule here),
shown as a game at one screen is shown, so that a client draws it with the game screen's
code. What the analysis board and the guided first game both show."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...engine import Game, PatchworkError, State
from ..common.errors import refused_move
from .requests import RulesIn, SoloIn
from .schemas import HistoryEntry, PositionView, RematchView, SeatView
from .views import history_entry, public_text, state_view


class Board(PositionView):
    """The position after the board's moves, shaped as a game between two people at one
    screen (so a client shows it as it shows a game), with where it comes from."""

    start: str = Field(description="the position the moves start from (its public text)")
    moves: list[str] = Field(description="the moves played on it, each as the engine writes it")
    mainline: list[str] = Field(
        description="from a game: all its moves (from start), so a client can step along it"
    )
    id: Literal["analysis", "tutorial"] = Field(
        default="analysis", description="whose board it is: the analysis board's, the tutorial's"
    )
    mode: Literal["local"] = "local"
    version: int = Field(description="the number of moves played")
    status: Literal["active", "finished"]
    rules: RulesIn
    special_spaces: list[int] = Field(description="the special patches' spaces in this edition")
    seats: list[SeatView]
    history: list[HistoryEntry]
    clock: None = None
    result: None = None
    ratings: None = None
    rated: bool = False
    undo_available: bool = False
    rematch: RematchView = Field(default_factory=lambda: RematchView(offered_by=None, game_id=None))


def play(start: State, moves: list[str]) -> Game:
    """``moves`` played from ``start``, or ServerError (``invalid_move``, ``illegal_move``)
    saying why the first that cannot be played cannot (the engine's own words)."""
    game = Game(start)
    for text in moves:
        try:
            game.push(text)
        except PatchworkError as e:
            raise refused_move(e) from None
    return game


def board(
    start: State,
    moves: list[str],
    seats: list[SeatView],
    mainline: list[str] | None = None,
    kind: Literal["analysis", "tutorial"] = "analysis",
) -> Board:
    """The board after ``moves`` from ``start``, ``seats`` sitting at it."""
    game = play(start, moves)
    states = game.states
    history = [
        history_entry(i + 1, seat, move, states[i], states[i + 1])
        for i, (move, seat) in enumerate(zip(game.moves, game.movers(), strict=True))
    ]
    return Board(
        **state_view(game.state).model_dump(),
        start=public_text(start),
        moves=[str(m) for m in game.moves],
        mainline=mainline or [],
        id=kind,
        version=len(game.moves),
        status="finished" if game.state.is_terminal() else "active",
        rules=_rules(start),
        special_spaces=list(start.rules.special_spaces),
        seats=seats,
        history=history,
    )


def _rules(state: State) -> RulesIn:
    rules, solo = state.rules, state.rules.solo
    return RulesIn(
        edition=rules.edition,  # type: ignore[arg-type]
        rotation=rules.rotation,
        flip=rules.flip,
        solo=None if solo is None else SoloIn(level=solo.level, deck=solo.deck),  # type: ignore[arg-type]
    )
