"""The play loop: seats answer for the player to move, the engine checks every move, hooks see
each one, and a seat or ``stop`` can end the game early."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

import patchwork as pw
from patchwork.engine.play import Played, Seat, play_out


def _random_seat(seed: int) -> Seat:
    rng = random.Random(seed)
    return lambda state: rng.choice(state.legal_moves())


def test_plays_to_the_end_and_reports_every_move() -> None:
    game = pw.Game(pw.new_game(seed=4))
    seen: list[Played] = []
    assert play_out(game, (_random_seat(1), _random_seat(2)), on_move=seen.append)
    assert game.state.is_terminal()
    assert [p.move for p in seen] == game.moves
    assert [p.ply for p in seen] == list(range(1, len(game) + 1))
    state = game.start
    for p in seen:
        assert p.state == state and p.player == state.current_player and p.seconds >= 0
        state = state.apply(p.move)


def test_each_seat_is_asked_only_for_its_own_player() -> None:
    asked: list[tuple[int, int | None]] = []

    def seat(player: int) -> Seat:
        def choose(state: pw.State) -> pw.Move:
            asked.append((player, state.current_player))
            return state.legal_moves()[0]

        return choose

    game = pw.Game(pw.new_game(seed=0))
    assert play_out(game, (seat(0), seat(1)))
    assert all(player == to_move for player, to_move in asked)
    # Turns do not alternate: somewhere one seat is asked twice in a row.
    assert any(a[0] == b[0] for a, b in pairwise(asked))


def test_a_seat_answering_none_stops_the_game_there() -> None:
    game = pw.Game(pw.new_game(seed=0))
    moves = iter(range(5))
    first = _random_seat(3)

    def quits_after_five(state: pw.State) -> pw.Move | None:
        return first(state) if next(moves, None) is not None else None

    assert not play_out(game, (quits_after_five, quits_after_five))
    assert len(game) == 5 and not game.state.is_terminal()


def test_stop_is_asked_before_every_move() -> None:
    game = pw.Game(pw.new_game(seed=0))
    seat = _random_seat(5)
    assert not play_out(game, (seat, seat), stop=lambda g: len(g) >= 7)
    assert len(game) == 7


def test_an_illegal_answer_raises_and_is_not_pushed() -> None:
    game = pw.Game(pw.new_game(seed=0))
    game.push(pw.Move.parse("A", game.state))
    before = game.state
    taken = next(m for m in before.legal_moves() if isinstance(m, pw.Buy))
    game.push(taken)
    # The patch just bought is no longer on offer: buying it again is illegal.
    with pytest.raises(pw.PatchworkError):
        play_out(game, (lambda s: taken, lambda s: taken))
    assert game.moves[-1] == taken and len(game) == 2
