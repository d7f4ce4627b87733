"""The State face: reading a position, equality and hashing, move codes, quilts."""

from __future__ import annotations

import random

import pytest

import patchwork as pw
from helpers import EMPTY_QUILT, position, random_plies


def test_standard_circle_is_reproducible_and_ends_with_patch_0() -> None:
    a, b = pw.standard_circle(7), pw.standard_circle(7)
    assert a == b
    assert a[-1] == 0 and sorted(a) == list(range(33))
    assert pw.standard_circle(8) != a
    assert pw.new_game(seed=7).circle == tuple(a)
    assert pw.new_game(seed=7) == pw.new_game(seed=7)
    assert hash(pw.new_game(seed=7)) == hash(pw.new_game(seed=7))


def test_unseeded_games_are_standard_setups() -> None:
    s = pw.new_game()
    assert s.circle[-1] == 0 and sorted(s.circle) == list(range(33))


def test_states_differ_by_rules_and_by_first_player() -> None:
    base = pw.new_game(seed=1)
    assert base != pw.new_game(seed=1, rules=pw.Rules("original"))
    assert base != pw.new_game(seed=1, rules=pw.Rules(rotation=False))
    assert base != pw.new_game(seed=1, first_player=1)
    assert base != "not a state"
    assert len({base, pw.new_game(seed=1), pw.new_game(seed=2)}) == 2


def test_quilt_reading() -> None:
    s = position(f"0,5,0,xx7/1x7/{'/'.join(['9'] * 6)}/8x", f"0,5,0,{EMPTY_QUILT}")
    quilt = s.players[0].quilt
    assert quilt.squares == {(0, 0), (0, 1), (1, 1), (8, 8)}
    assert quilt.empty_squares == 77
    assert (1, 1) in quilt and (1, 0) not in quilt
    assert quilt.rows()[0] == "##......." and quilt.rows()[8] == "........#"
    assert str(quilt).splitlines() == quilt.rows()
    assert s.players[1].quilt.squares == frozenset()


def test_special_spaces_left_follow_the_leading_token() -> None:
    s = position(f"30,5,0,{EMPTY_QUILT}", f"10,5,0,{EMPTY_QUILT}")
    assert s.special_spaces_left == (32, 38, 44, 50)
    s = position(f"30,5,0,{EMPTY_QUILT}", f"10,5,0,{EMPTY_QUILT}", rules="original:rf")
    assert s.special_spaces_left == (32, 44, 50)
    assert pw.new_game(seed=1).special_spaces_left == (26, 32, 38, 44, 50)


def test_repr_is_position_text() -> None:
    s = pw.new_game(seed=3)
    assert repr(s) == f"State.from_text({s.to_text()!r})"


@pytest.mark.parametrize("seed", [1, 2])
def test_move_codes_match_moves(seed: int) -> None:
    rng = random.Random(seed)
    rules = pw.Rules("original", rotation=bool(seed % 2), flip=True)
    for ply in random_plies(seed, rules, rng=rng):
        if rng.random() > 0.2:
            continue
        s = ply.before
        codes = s.legal_move_codes()
        moves = s.legal_moves()
        assert len(codes) == len(moves)
        for code, move in zip(codes, moves, strict=True):
            assert s.check_legal(move) == int(code)
            assert s.apply_code(int(code)) == s.apply(move)


def test_terminal_state_reading() -> None:
    s = position(f"53,20,0,{EMPTY_QUILT}", f"53,10,0,{EMPTY_QUILT}", first="1")
    assert s.is_terminal()
    assert s.current_player is None
    assert s.legal_moves() == [] and len(s.legal_move_codes()) == 0
    assert s.winner() == 0
    assert s.first_to_finish == 1


def test_the_circle_runs_out() -> None:
    s = position(f"10,30,0,{EMPTY_QUILT}", f"40,0,0,{EMPTY_QUILT}", circle="3,4")
    assert s.offered == (3, 4)
    s = s.apply(pw.parse_move("4r0@a1"))
    assert s.circle == (3,)  # the neutral token went past 3 and round to it again
    s = s.apply(pw.parse_move("3r0@i1"))
    assert s.circle == () and s.offered == ()
    assert s.legal_moves() == [pw.Advance()]
    assert " - " in s.to_text() and pw.State.from_text(s.to_text()).circle == ()


def test_neutral_token_skips_and_wraps() -> None:
    s = position(f"0,30,0,{EMPTY_QUILT}", f"40,0,0,{EMPTY_QUILT}", circle="1,2,3,4,5")
    s = s.apply(pw.parse_move("3r0@a1"))  # skip 1 and 2
    assert s.circle == (4, 5, 1, 2)
    s = s.apply(pw.parse_move("1r0@e5"))  # skip 4 and 5
    assert s.circle == (2, 4, 5)


def test_score_parts_add_up_to_the_engine_scores() -> None:
    rng = __import__("random").Random(4)
    s = pw.new_game(seed=4)
    while not s.is_terminal():
        s = s.apply(rng.choice(s.legal_moves()))
        for p in (0, 1):
            buttons, bonus, empty = s.score_parts(p)
            assert s.scores()[p] == buttons + bonus - 2 * empty
            assert bonus == (7 if s.bonus_owner == p else 0)


def test_a_quilt_from_its_squares_and_as_one_integer() -> None:
    q = pw.Quilt.from_squares([(0, 0), (4, 8), (5, 0), (8, 8)])
    assert q.squares == {(0, 0), (4, 8), (5, 0), (8, 8)}
    assert q.bits == sum(1 << (9 * r + c) for r, c in q.squares)
    assert pw.Quilt.from_squares([]) == pw.Quilt(0, 0)
    for ply in random_plies(3):
        quilt = ply.after.players[0].quilt
        assert pw.Quilt.from_squares(quilt.squares) == quilt


def test_the_next_income_mark_is_the_first_one_ahead() -> None:
    marks = pw.engine.data.INCOME_SPACES
    for space in range(pw.engine.data.FINAL_SPACE + 1):
        player = pw.Player(buttons=5, position=space, income=0, quilt=pw.Quilt(0, 0))
        ahead = [m for m in marks if m > space]
        assert player.next_income_mark == (ahead[0] if ahead else None)
    assert pw.new_game(seed=1).players[0].next_income_mark == marks[0]
