"""Playing a game between two seats: the loop that tournaments, hosts and the text game share.

A seat is anything that, given the position, answers the move of the player to move (an
agent's ``choose``, a person at a prompt, a bot behind a pipe), or None to stop the game there.
The loop asks the seat of the player to move, pushes the answer on the game (where the engine
checks it) and reports it; it decides nothing itself. Turns do not alternate, so the same seat
may be asked several times in a row.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .game import Game
from .moves import Move
from .state import State

Seat = Callable[[State], Move | None]


@dataclass(frozen=True, slots=True)
class Played:
    """A move the loop pushed: ``ply`` counts from 1, ``state`` is the position it was chosen
    in, ``seconds`` how long the seat took to answer."""

    ply: int
    player: int
    move: Move
    state: State
    seconds: float


def play_out(
    game: Game,
    seats: Sequence[Seat],
    *,
    on_move: Callable[[Played], None] | None = None,
    stop: Callable[[Game], bool] | None = None,
) -> bool:
    """Play ``game`` on from where it stands, ``seats[p]`` answering for player ``p``: True
    once the game is over, False when ``stop(game)`` (asked before every move) says so or a
    seat answers None. An illegal answer raises the engine's error and is not pushed."""
    while not game.state.is_terminal():
        if stop is not None and stop(game):
            return False
        state = game.state
        player = state.current_player
        assert player is not None
        start = time.perf_counter()
        move = seats[player](state)
        seconds = time.perf_counter() - start
        if move is None:
            return False
        game.push(move)
        if on_move is not None:
            on_move(Played(len(game), player, move, state, seconds))
    return True
