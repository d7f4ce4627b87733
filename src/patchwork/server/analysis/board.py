"""A board's position: a start and the moves played on it, every move checked by the engine
(no rule here), shown as a game at one screen is shown."""

from __future__ import annotations

from ...engine import Game, PatchworkError, State
from ..common.errors import ServerError, refused_move
from ..games.requests import RulesIn, SoloIn
from ..games.schemas import SeatView
from ..games.views import history_entry, public_text, state_view
from .schemas import Board


def start_position(text: str) -> State:
    """The position a text gives, or ServerError ``invalid_position`` saying what is wrong."""
    try:
        return State.from_text(text.strip())
    except PatchworkError as e:
        raise ServerError("invalid_position", e.template, e.params) from None


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
    start: State, moves: list[str], seats: list[SeatView], mainline: list[str] | None = None
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
