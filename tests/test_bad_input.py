"""Every kind of malformed input raises the package's own exception (a ValueError) with a
message that says what was wrong, and changes nothing."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

import patchwork as pw
from helpers import EMPTY_QUILT, FULL_QUILT, circle_starting, position, random_game
from patchwork.engine.automa import Automa


def test_errors_are_value_errors_of_one_family() -> None:
    for error in (
        pw.IllegalMoveError,
        pw.InvalidMoveError,
        pw.InvalidPositionError,
        pw.InvalidRecordError,
        pw.InvalidSetupError,
    ):
        assert issubclass(error, pw.PatchworkError)
    assert issubclass(pw.PatchworkError, ValueError)


# -- setups ---------------------------------------------------------------------------------------

FULL = [*range(1, 33), 0]


@pytest.mark.parametrize(
    ("circle", "message"),
    [
        (FULL[:-1], "must hold all 33 patches; missing \\[0\\]"),
        ([*FULL, 5], "more than once"),
        ([1, *FULL[1:-1], 1], "\\[1\\] appear more than once"),
        ([*FULL[:-1], 33], "33 is not a patch id"),
        ([*FULL[:-1], -1], "-1 is not a patch id"),
        ([*FULL[:-1], "0"], "'0' is not a patch id"),
        ([*FULL[:-1], 0.0], "0.0 is not a patch id"),
        ([*FULL[:-1], True], "True is not a patch id"),
        ([*FULL[:-1], None], "None is not a patch id"),
        ("1 2 3", "list of patch ids"),
        (5, "list of patch ids"),
        ([], "missing"),
    ],
)
def test_bad_circle(circle: Any, message: str) -> None:
    with pytest.raises(pw.InvalidSetupError, match=message):
        pw.new_game(circle=circle)


def test_circle_may_be_any_sequence_of_ints() -> None:
    assert pw.new_game(circle=tuple(FULL)).circle == tuple(FULL)


def test_seed_and_circle_together() -> None:
    with pytest.raises(pw.InvalidSetupError, match="seed or a circle, not both"):
        pw.new_game(seed=1, circle=FULL)


@pytest.mark.parametrize("first", [2, -1, "0", None, True, False, 1.0])
def test_bad_first_player(first: Any) -> None:
    with pytest.raises(pw.InvalidSetupError, match="first_player must be 0 or 1"):
        pw.new_game(seed=1, first_player=first)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"edition": "deluxe"}, "unknown edition 'deluxe': choose one of revised, original"),
        ({"edition": "Revised"}, "unknown edition"),
        ({"edition": None}, "unknown edition"),
        ({"rotation": 1}, "rotation must be True or False"),
        ({"rotation": "yes"}, "rotation must be True or False"),
        ({"flip": None}, "flip must be True or False"),
        ({"flip": 0}, "flip must be True or False"),
    ],
)
def test_bad_rules(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(pw.InvalidSetupError, match=message):
        pw.Rules(**kwargs)


@pytest.mark.parametrize(
    ("d", "message"),
    [
        (None, "must be an object"),
        ([], "must be an object"),
        ({"edition": "revised", "turns": True}, "unknown rules option\\(s\\): turns"),
        ({"edition": "x"}, "unknown edition"),
    ],
)
def test_bad_rules_dict(d: Any, message: str) -> None:
    with pytest.raises(pw.InvalidSetupError, match=message):
        pw.Rules.from_dict(d)


def test_rules_round_trip_through_dict() -> None:
    for rules in (pw.Rules(), pw.Rules("original", False, True)):
        assert pw.Rules.from_dict(rules.to_dict()) == rules


def test_new_game_rules_must_be_a_rules_object() -> None:
    with pytest.raises(pw.InvalidSetupError, match=r"patchwork\.Rules"):
        pw.new_game(rules="original")  # type: ignore[arg-type]


# -- move text ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "cannot read move ''"),
        ("hello", "cannot read move 'hello'"),
        ("B", "cannot read move"),
        ("17x90@c4", "cannot read move"),
        ("17r45@c4", "cannot read move"),
        ("17r90c4c4", "cannot read move"),
        ("17r90@c10", "cannot read move"),
        ("S@", "cannot read move"),
        ("S@e5@", "cannot read move"),
        ("123r0@a1", "cannot read move"),
        ("99r0@a1", "no patch 99: patches are numbered 0-32"),
        ("33@a1", "no patch 33"),
        ("17r90@j4", "bad square 'j4'"),
        ("17r90@c0", "bad square 'c0'"),
        ("S@z9", "bad square 'z9'"),
        ("S@a0", "bad square 'a0'"),
        ("3r0@a8", "patch 3 in r0 at a8 sticks out of the quilt board"),
        ("3r90@h1", "sticks out"),
        ("13r0@f1", "sticks out"),
        ("6r0@a8", "sticks out"),
        # Strict where a typo would otherwise be taken for another move (docs/notation.md):
        ("17r90c4", "cannot read move '17r90c4'"),
        ("17c4", "cannot read move"),
        ("Se5", "cannot read move"),
        ("0r@a2", "cannot read move '0r@a2'"),
        ("17f@c4", "cannot read move"),
        ("17r 90@c4", "cannot read move"),
        ("1 7r90@c4", "cannot read move"),
        ("17r90@c 4", "cannot read move"),
        ("17r90\t@c4", "cannot read move"),
        ("\u0661\u0667r90@c4", "cannot read move"),
        ("\u06f1\u06f7r90@c4", "cannot read move"),
        ("17r\u0669\u0660@c4", "cannot read move"),
        ("S@e\u0665", "cannot read move"),
        ("17r90@@c4", "cannot read move"),
    ],
)
def test_bad_move_text(text: str, message: str) -> None:
    with pytest.raises(pw.InvalidMoveError, match=message):
        pw.parse_move(text)
    s = pw.new_game(seed=1)
    with pytest.raises(pw.InvalidMoveError):
        pw.Move.parse(text, s)


@pytest.mark.parametrize("value", [None, 3, b"A", ["A"]])
def test_move_text_must_be_text(value: Any) -> None:
    with pytest.raises(pw.InvalidMoveError, match="a move is text"):
        pw.parse_move(value)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: pw.Buy(33, 0, 0, 0), "no patch 33"),
        (lambda: pw.Buy(-1, 0, 0, 0), "no patch -1"),
        (lambda: pw.Buy(3, 8, 0, 0), "orientation 8 is not one of 0-7"),
        (lambda: pw.Buy(3, 0, 9, 0), "off the quilt board"),
        (lambda: pw.Buy(3, 0, 0, -1), "off the quilt board"),
        (lambda: pw.Buy(3, 0, 7, 0), "sticks out"),
        (lambda: pw.PlaceSpecial(9, 0), "off the quilt board"),
        (lambda: pw.PlaceSpecial(0, -1), "off the quilt board"),
    ],
)
def test_bad_move_objects(make: Any, message: str) -> None:
    with pytest.raises(pw.InvalidMoveError, match=message):
        make()


# -- illegal moves ----------------------------------------------------------------------------


def assert_illegal(s: pw.State, move: pw.Move | str, message: str) -> None:
    text = s.to_text()
    parsed = pw.parse_move(move) if isinstance(move, str) else move
    assert not s.is_legal(parsed)
    assert parsed not in s.legal_moves()
    with pytest.raises(pw.IllegalMoveError, match=message):
        s.apply(parsed)
    with pytest.raises(pw.IllegalMoveError, match=message):
        pw.Move.parse(str(parsed), s)
    game = pw.Game(s)
    with pytest.raises(pw.IllegalMoveError, match=message):
        game.push(str(parsed))
    assert len(game) == 0 and game.state is s
    assert s.to_text() == text


def test_buy_a_patch_that_is_not_offered() -> None:
    s = pw.new_game(circle=circle_starting(1, 2, 3))
    assert_illegal(s, "4r0@a1", "patch 4 is not on offer \\(offered: 1, 2, 3\\)")
    assert_illegal(s, "0r0@a1", "patch 0 is not on offer")


def test_buy_a_patch_bought_already() -> None:
    s = pw.new_game(circle=circle_starting(1, 2, 3))
    s = s.apply(pw.parse_move("1r0@a1"))
    assert_illegal(s, "1r0@e5", "patch 1 is not on offer \\(offered: 2, 3, 4\\)")


def test_buy_a_patch_that_costs_too_much() -> None:
    s = pw.new_game(circle=circle_starting(22, 24, 28))  # all cost 10
    assert_illegal(
        s, "22r0@a1", "patch 22 costs more buttons than player 0 has \\(price: 10, buttons: 5\\)"
    )
    assert s.legal_moves() == [pw.Advance()]


def test_buy_exactly_affordable_is_legal() -> None:
    s = position(f"0,7,0,{EMPTY_QUILT}", f"1,0,0,{EMPTY_QUILT}", circle="13,2,3")
    after = s.apply(pw.parse_move("13r0@a1"))
    assert after.players[0].buttons == 0


def test_buy_that_overlaps() -> None:
    s = position(f"0,20,0,xx7/{'/'.join(['9'] * 8)}", f"1,0,0,{EMPTY_QUILT}", circle="13,2,3")
    assert_illegal(s, "13r0@b1", "overlap patches already sewn on at b1")
    assert_illegal(s, "13r90@a1", "overlap patches already sewn on at a1")
    assert s.is_legal(pw.parse_move("13r0@a2"))


def test_patch_that_fits_nowhere_cannot_be_taken() -> None:
    # Only a1 and a2 are empty: patch 3 (1x3) fits nowhere, patch 0 (1x2) fits once.
    quilt = "/".join(["1xxxxxxxx", "1xxxxxxxx", *["xxxxxxxxx"] * 7])
    s = position(f"0,20,0,{quilt}", f"1,0,0,{EMPTY_QUILT}", circle="3,0,4")
    assert s.legal_moves() == [pw.Advance(), pw.parse_move("0r0@a1")]
    assert_illegal(s, "3r0@a1", "overlap")


def test_place_a_special_when_none_is_pending() -> None:
    s = pw.new_game(seed=4)
    assert_illegal(s, "S@a1", "there is no special patch to place")


def test_anything_but_a_special_while_one_is_pending() -> None:
    s = position(
        f"26,12,0,x8/{'/'.join(['9'] * 8)}", f"25,5,0,{EMPTY_QUILT}", pending="1@0", circle="2,3,4"
    )
    assert_illegal(s, "A", "player 0 must first place a special patch")
    assert_illegal(s, "2r0@e5", "player 0 must first place a special patch")
    assert_illegal(s, "S@a1", "a1 is already covered")
    assert s.is_legal(pw.parse_move("S@b1"))


def test_pending_special_is_placed_by_the_player_who_took_it() -> None:
    s = position(f"27,5,0,{EMPTY_QUILT}", f"26,5,0,{EMPTY_QUILT}", pending="1@0")
    assert s.current_player == 0  # although player 1 is behind
    assert len(s.legal_moves()) == 81


@pytest.mark.parametrize("move", ["A", "S@a1", "3r0@a1", "1r0@a1"])
def test_any_move_in_a_finished_game(move: str) -> None:
    s = position(f"53,10,0,{EMPTY_QUILT}", f"53,10,0,{EMPTY_QUILT}", first="0", circle="1,3,4")
    assert s.is_terminal()
    assert s.legal_moves() == []
    assert_illegal(s, move, "the game is over")


def test_every_move_after_a_real_game_ends() -> None:
    game = random_game(21)
    assert game.state.is_terminal()
    for text in ("A", "S@e5", f"{game.state.offered[0]}r0@a1" if game.state.offered else "2r0@a1"):
        with pytest.raises(pw.IllegalMoveError, match="the game is over"):
            game.push(text)


@pytest.mark.parametrize(
    ("orient", "move", "message"),
    [
        ("-", "18r90@a1", "needs turning"),
        ("-", "18r270@a1", "needs turning"),
        ("-", "18f0@a1", "needs flipping"),
        ("f", "18r180@a1", "needs turning"),
        ("r", "18f0@a1", "needs flipping"),
        ("r", "18f90@a1", "needs flipping"),  # turning is allowed here
        ("f", "18f90@a1", "needs turning"),
    ],
)
def test_orientation_not_allowed_by_house_rules(orient: str, move: str, message: str) -> None:
    s = position(
        f"0,10,0,{EMPTY_QUILT}", f"0,5,0,{EMPTY_QUILT}", rules=f"revised:{orient}", circle="18"
    )
    assert_illegal(s, move, message)


def test_not_a_move_object() -> None:
    s = pw.new_game(seed=1)
    with pytest.raises(pw.IllegalMoveError, match="is not a move"):
        s.apply("A")  # type: ignore[arg-type]
    assert not s.is_legal(None)  # type: ignore[arg-type]


# -- position text ----------------------------------------------------------------------------

BASE = f"revised:rf 1,2,3 5,5,0,{EMPTY_QUILT} 6,5,0,{EMPTY_QUILT} 0 - - - 26,32,38,44,50"
FULL_53 = f"revised:rf 1,2,3 53,5,0,{EMPTY_QUILT} 53,5,0,{EMPTY_QUILT} 0 - 0 - -"


def with_field(i: int, value: str, base: str = BASE) -> str:
    fields = base.split(" ")
    fields[i] = value
    return " ".join(fields)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "0 fields, not 9"),
        ("revised:rf", "1 fields, not 9"),
        (BASE + " -", "10 fields, not 9"),
        (BASE.rsplit(" ", 1)[0], "8 fields, not 9"),
        (with_field(8, "20"), "20 is not a special patch space of the revised edition"),
        (with_field(8, "26,26"), "listed once each"),
        (with_field(8, "x"), "special patch space 'x' is not a whole number"),
        (with_field(0, "revised"), "rules field 'revised'"),
        (with_field(0, "revised:fr"), "rules field"),
        (with_field(0, "deluxe:rf"), "unknown edition 'deluxe'"),
        (with_field(1, "1,2,x"), "circle entry 'x' is not a whole number"),
        (with_field(1, "1,,2"), "circle entry '' is not a whole number"),
        (with_field(1, "1,1"), "\\[1\\] appear more than once"),
        (with_field(1, "40"), "circle entry 40 is not a patch id"),
        (with_field(1, "-1"), "circle entry '-1' is not a whole number"),
        (with_field(2, f"5,5,{EMPTY_QUILT}"), "player 0 must be position,buttons,income,quilt"),
        (with_field(3, f"6,5,0,0,{EMPTY_QUILT}"), "player 1 must be position,buttons,income"),
        (with_field(2, f"54,5,0,{EMPTY_QUILT}"), "player 0's position 54 is out of range"),
        (with_field(2, f"-1,5,0,{EMPTY_QUILT}"), "player 0's position '-1' is not a whole number"),
        (with_field(2, f"5.0,5,0,{EMPTY_QUILT}"), "player 0's position '5.0' is not a whole"),
        (with_field(2, f"5,-1,0,{EMPTY_QUILT}"), "player 0's buttons '-1' is not a whole number"),
        (with_field(3, f"6,5,a,{EMPTY_QUILT}"), "player 1's income 'a' is not a whole number"),
        (with_field(2, "5,5,0,9/9/9/9/9/9/9/9"), "player 0's quilt has 8 rows, not 9"),
        (with_field(2, f"5,5,0,{EMPTY_QUILT}/9"), "player 0's quilt has 10 rows"),
        (with_field(2, "5,5,0,y8/9/9/9/9/9/9/9/9"), "quilt row 1 has 'y'"),
        (with_field(3, "6,5,0,9/9/X8/9/9/9/9/9/9"), "player 1's quilt row 3 has 'X'"),
        (with_field(2, "5,5,0,9/9/9/9/9/9/9/9/09"), "quilt row 9 has '0'"),
        (with_field(2, "5,5,0,x9/9/9/9/9/9/9/9/9"), "quilt row 1 covers 10 squares, not 9"),
        (with_field(2, "5,5,0,9/8/9/9/9/9/9/9/9"), "quilt row 2 covers 8 squares, not 9"),
        (with_field(2, "5,5,0,9/9/9/9//9/9/9/9"), "quilt row 5 covers 0 squares"),
        (with_field(4, "2"), "on top must be 0, 1 or -, not '2'"),
        (with_field(4, "-"), "on top must be 0 or 1"),
        (with_field(5, "3"), "bonus owner must be 0, 1 or -, not '3'"),
        (with_field(6, "0"), "player 0 cannot have finished first off space 53"),
        (with_field(6, "x"), "first to finish must be 0, 1 or -"),
        (with_field(6, "-", FULL_53), "a player is on space 53, so first to finish must be given"),
        (with_field(7, "x@0"), "pending specials 'x' is not a whole number"),
        (with_field(7, "0@0"), "pending specials 0 is out of range \\(1-5\\)"),
        (with_field(7, "6@0"), "pending specials 6 is out of range"),
        (with_field(7, "1@2"), "pending player must be 0, 1 or -"),
        (with_field(7, "1@-"), "pending specials must be written N@P"),
        (with_field(7, "1"), "pending player"),
        (with_field(2, f"5,5,0,{FULL_QUILT}", with_field(7, "1@0")), "need an empty square"),
    ],
)
def test_bad_position_text(text: str, message: str) -> None:
    with pytest.raises(pw.InvalidPositionError, match=message):
        pw.State.from_text(text)


def test_good_base_position_text_reads() -> None:
    assert pw.State.from_text(BASE).to_text() == BASE


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (with_field(2, f"5,{2**63},0,{EMPTY_QUILT}"), "buttons 9223372036854775808 is out of"),
        (with_field(2, f"5,{2**63 - 1},0,{EMPTY_QUILT}"), "buttons 9223372036854775807 is out"),
        (with_field(3, f"6,5,{2**64},{EMPTY_QUILT}"), "income 18446744073709551616 is out of"),
        (with_field(2, f"5,{'9' * 5000},0,{EMPTY_QUILT}"), "buttons 9999999999.* out of range"),
        (with_field(2, f"0,9048,0,{EMPTY_QUILT}"), "0-9047 on space 0.* at most 10000"),
        (with_field(2, f"53,10001,0,{EMPTY_QUILT}", FULL_53), "0-10000 on space 53"),
        (with_field(2, f"5,5,101,{EMPTY_QUILT}", with_field(1, "-")), "income 101 is out of"),
        (
            with_field(2, f"5,5,63,{EMPTY_QUILT}", with_field(1, ",".join(map(str, FULL)))),
            "income 63 is out of range \\(0-62: with the 38 printed on the patches left",
        ),
        (with_field(1, "1,2,3," + "0" * 6), "circle entry '000000': write numbers without"),
    ],
)
def test_numbers_in_position_text_stay_in_the_range_the_rules_reach(
    text: str, message: str
) -> None:
    with pytest.raises(pw.InvalidPositionError, match=message):
        pw.State.from_text(text)


def test_the_largest_numbers_accepted_never_overflow_in_play() -> None:
    quilt = "/".join(["xxxxxxxx1"] + ["xxxxxxxxx"] * 8)
    s = pw.State.from_text(
        f"revised:rf - 0,9047,100,{quilt} 1,9047,100,{quilt} 0 - - - 26,32,38,44,50"
    )
    while not s.is_terminal():
        s = s.apply(s.legal_moves()[0])
        for player in s.players:
            assert 0 <= player.buttons <= 10_000
        assert pw.State.from_text(s.to_text()) == s
    assert max(s.scores()) <= 10_000 + 7


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (" " + BASE, "single spaces, with none before or after"),
        (BASE + " ", "single spaces"),
        (BASE.replace(" ", "  ", 1), "single spaces"),
        (BASE.replace(" ", "\t", 1), "single spaces"),
        (with_field(2, f"05,5,0,{EMPTY_QUILT}"), "position '05': write numbers without leading"),
        (with_field(2, f"5,05,0,{EMPTY_QUILT}"), "buttons '05'"),
        (with_field(3, f"6,5,00,{EMPTY_QUILT}"), "income '00'"),
        (with_field(7, "01@0"), "pending specials '01'"),
        (with_field(8, "026,32"), "special patch space '026'"),
        (with_field(8, "32,26,38,44,50"), "specials left field '32,26,38,44,50' is not written "
         "the canonical way: write '26,32,38,44,50'"),
        (with_field(2, "5,5,0,45/9/9/9/9/9/9/9/9"), "player 0 field .* write '5,5,0,9/9/9"),
        (with_field(3, "6,5,0,9/9/9/9/9/9/9/9/1xx15"), "write '6,5,0,9/9/9/9/9/9/9/9/1xx6'"),
    ],
)  # fmt: skip
def test_position_text_that_is_not_canonical_is_refused(text: str, message: str) -> None:
    with pytest.raises(pw.InvalidPositionError, match=message):
        pw.State.from_text(text)
    assert pw.State.from_text(FULL_53).is_terminal()


@pytest.mark.parametrize("value", [None, 5, b"revised:rf"])
def test_position_text_must_be_text(value: Any) -> None:
    with pytest.raises(pw.InvalidPositionError, match="must be a string"):
        pw.State.from_text(value)


# -- records ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished() -> pw.Record:
    return random_game(31).to_record(date="2026-01-01")


@pytest.fixture(scope="module")
def finished_dict(finished: pw.Record) -> dict[str, Any]:
    return copy.deepcopy(finished.to_dict())


def edited(d: dict[str, Any], **changes: Any) -> dict[str, Any]:
    d = copy.deepcopy(d)
    for key, value in changes.items():
        if "__" in key:
            outer, inner = key.split("__")
            d[outer][inner] = value
        else:
            d[key] = value
    return d


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ("{} x", "not valid JSON"),
        ("[]", "a record is a JSON object"),
        ('"record"', "a record is a JSON object"),
        ('{"format": "pgn", "setup": {"circle": []}}', "not a patchwork record \\(format 'pgn'\\)"),
        ("{}", "setup must hold a circle"),
        ('{"setup": {"circle": [1, 2]}}', "bad setup: the circle must hold all 33"),
        ('{"setup": {"position": "x"}}', "bad setup: position text has 1 fields"),
        ('{"setup": null}', "setup must hold"),
    ],
)
def test_bad_json_record(text: str, message: str) -> None:
    with pytest.raises(pw.InvalidRecordError, match=message):
        pw.Record.from_json(text)
    with pytest.raises(pw.InvalidRecordError):
        pw.Record.parse(text)  # read as the text form unless it starts with "{"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"rules": {"edition": "deluxe"}}, "bad rules: unknown edition 'deluxe'"),
        ({"rules": {"rotation": "no"}}, "bad rules: rotation must be True or False"),
        ({"rules": {"turns": 1}}, "bad rules: unknown rules option"),
        ({"rules": None}, "bad rules"),
        ({"setup__first_player": 2}, "bad setup: first_player must be 0 or 1"),
        ({"setup__circle": [0, *range(1, 33)][::-1][:-1]}, "bad setup"),
        ({"moves": "A A"}, "moves must be a list of move texts"),
        ({"moves": [1, 2]}, "moves must be a list of move texts"),
        ({"players": ["solo"]}, "players must be a list of two names"),
        ({"players": "ab"}, "players must be a list of two names"),
        ({"result": "1-0"}, "result must be an object or null"),
        ({"result__termination": "draw"}, "unknown termination 'draw'"),
        ({"result__scores": 5}, "claims scores 5, the moves give"),
        ({"result__scores": True}, "claims scores True"),
        ({"result__scores": None}, "claims scores None"),
        ({"result__scores": [True, 0]}, "claims scores \\[True, 0\\]"),
        ({"result__scores": "12"}, "claims scores '12'"),
        ({"result__winner": True}, "winner must be 0, 1 or null, not True"),
        ({"result__reason": 7}, "reason must be a string"),
        ({"result__comment": "x"}, "the result has unknown key\\(s\\) comment"),
        ({"version": True}, "record version True is not supported"),
        ({"version": 1.5}, "record version 1.5"),
        ({"version": "1"}, "record version '1'"),
        ({"resutl": None}, "the record has unknown key\\(s\\) resutl"),
        ({"setup__position": "x"}, "setup must hold a circle .* or a position, and nothing else"),
        ({"setup__seed": 3}, "and nothing else"),
        ({"players": ["a", 3]}, "players must be a list of two names"),
        ({"date": 20260101}, "date must be a string"),
        ({"event": None}, "event must be a string"),
    ],
)
def test_bad_record_fields(
    finished_dict: dict[str, Any], changes: dict[str, Any], message: str
) -> None:
    d = edited(finished_dict, **changes)
    with pytest.raises(pw.InvalidRecordError, match=message):
        pw.Record.from_dict(d)


@pytest.mark.parametrize(
    ("solo", "message"),
    [
        (
            {"level": [1], "deck": "normal", "takes_specials": False},
            "level must be 1-5, not \\[1\\]",
        ),
        ({"level": {"a": 1}, "deck": "normal", "takes_specials": False}, "level must be 1-5"),
        ({"level": 2, "deck": ["normal"], "takes_specials": False}, "deck must be normal or"),
        ({"level": 2, "deck": {"x": 1}, "takes_specials": False}, "deck must be normal or"),
        ({"level": 2, "deck": "normal", "takes_specials": [True]}, "takes_specials must be"),
        ([2], "solo must be an object"),
    ],
)
def test_a_record_with_a_bad_solo_setup(solo: Any, message: str) -> None:
    """A list or an object where a solo record wants a level or a deck is a bad record, not a
    crash (TypeError: unhashable type)."""
    rules = pw.Rules(solo=Automa(level=2))
    d = pw.Game(pw.new_game(seed=1, rules=rules)).to_record().to_dict()
    d["rules"]["solo"] = solo
    with pytest.raises(pw.InvalidRecordError, match=message):
        pw.Record.from_dict(d)


def test_a_result_must_give_the_scores(finished_dict: dict[str, Any]) -> None:
    d = copy.deepcopy(finished_dict)
    del d["result"]["scores"]
    with pytest.raises(pw.InvalidRecordError, match=r"claims scores None.*gives both scores"):
        pw.Record.from_dict(d)
    del d["result"]["termination"]
    with pytest.raises(pw.InvalidRecordError, match="unknown termination None"):
        pw.Record.from_dict(d)


@pytest.mark.parametrize("scores", [None, 5, True, [1], "1 2"])
def test_a_record_with_a_bad_result_is_refused_when_written_too(
    finished: pw.Record, scores: Any
) -> None:
    record = copy.deepcopy(finished)
    assert record.result is not None
    record.result = {**record.result, "scores": scores}
    with pytest.raises(pw.InvalidRecordError, match="claims scores"):
        record.to_text()  # not a TypeError, nor a text that does not load
    record.result = {"winner": record.result["winner"], "scores": record.result["scores"]}
    with pytest.raises(pw.InvalidRecordError, match="unknown termination None"):
        record.to_text()


def test_every_record_that_loads_writes_text_and_json_that_load_again(
    finished_dict: dict[str, Any],
) -> None:
    d = edited(finished_dict, moves=[m.upper() for m in finished_dict["moves"]])
    d["setup"].pop("first_player")
    del d["date"], d["format"]
    record = pw.Record.from_dict(d)
    assert record.moves == finished_dict["moves"]  # the notation's own spelling
    assert pw.Record.from_text(record.to_text()) == record
    assert pw.Record.from_json(record.to_json()) == record


@pytest.mark.parametrize(
    "name",
    ["Ali\nce", "a\r\nb", 'say "hi"', "back\\slash \\n", "tab\there", "\x00nul", "\x1b[31m",
     "nel\x85", "ls\u2028ps\u2029", "\x7f\x9f", "\ud800", "زهرا\u200cی", "\\u0041", "]\""],
)  # fmt: skip
def test_any_player_name_survives_the_text_form(finished: pw.Record, name: str) -> None:
    record = copy.deepcopy(finished)
    record.players = (name, "greedy")
    record.event = name
    text = record.to_text()
    assert len(text.splitlines()) == len(finished.to_text().splitlines())
    back = pw.Record.from_text(text)
    assert back.players == (name, "greedy") and back.event == name
    assert back == record


def test_setup_conflicting_with_rules(finished: pw.Record) -> None:
    d = copy.deepcopy(finished.to_dict())
    start = pw.new_game(circle=d["setup"]["circle"], rules=pw.Rules("original")).to_text()
    d["setup"] = {"position": start}
    with pytest.raises(pw.InvalidRecordError, match="the rules and the start position disagree"):
        pw.Record.from_dict(d)


@pytest.mark.parametrize("where", [0, 4, 17, -1])
def test_illegal_move_in_the_middle_names_the_move_number(
    finished_dict: dict[str, Any], where: int
) -> None:
    moves = list(finished_dict["moves"])
    n = len(moves) + 1 if where == -1 else where + 1
    bad = "S@a1" if where != -1 else "A"
    if where == -1:
        moves.append(bad)
    else:
        moves.insert(where, bad)
    d = edited(finished_dict, moves=moves, result=None)
    with pytest.raises(pw.InvalidRecordError, match=f"move {n} \\('{bad}'\\) does not replay"):
        pw.Record.from_dict(d)


def test_unreadable_move_in_the_middle_names_the_move_number(
    finished_dict: dict[str, Any],
) -> None:
    moves = list(finished_dict["moves"])
    moves[6] = "17r45@c4"
    d = edited(finished_dict, moves=moves)
    with pytest.raises(pw.InvalidRecordError, match=r"move 7 \('17r45@c4'\).*cannot read"):
        pw.Record.from_dict(d)


def test_false_winner_claim(finished_dict: dict[str, Any]) -> None:
    winner = finished_dict["result"]["winner"]
    for claim in (1 - winner, None):
        d = edited(finished_dict, result__winner=claim)
        with pytest.raises(pw.InvalidRecordError, match=f"names winner {claim}"):
            pw.Record.from_dict(d)


def test_false_scores_claim(finished_dict: dict[str, Any]) -> None:
    a, b = finished_dict["result"]["scores"]
    d = edited(finished_dict, result__scores=[a + 1, b])
    with pytest.raises(pw.InvalidRecordError, match="score"):
        pw.Record.from_dict(d)


def test_finished_claim_for_an_unfinished_game(finished_dict: dict[str, Any]) -> None:
    d = edited(finished_dict, moves=finished_dict["moves"][:-3])
    with pytest.raises(pw.InvalidRecordError, match="says finished, but the game is not over"):
        pw.Record.from_dict(d)


def test_record_errors_change_nothing(finished: pw.Record) -> None:
    before = copy.deepcopy(finished.to_dict())
    d = copy.deepcopy(before)
    d["moves"].insert(3, "S@a1")
    with pytest.raises(pw.InvalidRecordError):
        pw.Record.from_dict(d)
    assert finished.to_dict() == before


def text_lines(record: pw.Record) -> list[str]:
    return record.to_text().splitlines()


def test_truncated_text_record(finished: pw.Record) -> None:
    lines = text_lines(finished)
    with pytest.raises(pw.InvalidRecordError, match="says finished, but the game is not over"):
        pw.Record.from_text("\n".join(lines[:-5]))
    text = finished.to_text()
    with pytest.raises(pw.InvalidRecordError, match="neither a \\[Tag"):
        pw.Record.from_text(text[:100])  # cut inside a tag line
    move_line = next(i for i, ln in enumerate(lines) if ln.startswith("10. "))
    with pytest.raises(pw.InvalidRecordError, match=f"line {move_line + 1}: '10. P"):
        pw.Record.from_text("\n".join([*lines[:move_line], lines[move_line][:6]]))


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('[Rotation "yes"]', '[Rotation "maybe"]', "Rotation and Flip must be yes or no"),
        ('[Flip "yes"]', '[Flip "true"]', "Rotation and Flip must be yes or no"),
        ('[Edition "revised"]', '[Edition "deluxe"]', "unknown edition 'deluxe'"),
        ('[Circle "', '[Circle "x ', "Circle must be patch ids separated by single spaces"),
        ('[Circle "', '[Circle " ', "Circle must be patch ids"),
        ('[Circle "', '[Circle "\u0663 ', "Circle must be patch ids"),
        ('[FirstPlayer "0"]', '[FirstPlayer "zero"]', "FirstPlayer must be 0 or 1, not 'zero'"),
        ('[FirstPlayer "0"]', '[FirstPlayer "2"]', "FirstPlayer must be 0 or 1"),
        ('[Winner "', '[Winner "z', "Winner must be 0, 1 or -"),
        ('[Scores "', '[Scores "z', "Scores must be two whole numbers"),
        ('[Scores "', '[Scores "+', "Scores must be two whole numbers"),
        ('[Scores "', '[Scores "0 ', "claims scores \\[0, "),
        ('[Event "', '[Evnet "', "unknown tag 'Evnet'"),
        ('[Event "', '[Date "2000-01-01"]\n[Event "', "tag Date is given twice"),
        ('[Event "', '[Event "\\q', "tag Event: unknown escape '\\\\q'"),
        ('[Event "', '[Event "a"b', "neither a \\[Tag"),
        ('[Termination "finished"]', "", "Winner, Scores and Reason go with a \\[Termination"),
        ('[FirstPlayer "0"]', '[FirstPlayer "0"]\n[Position "x"]', "Position ...\\] or a"),
        ('[Termination "finished"]', '[Termination "draw"]', "unknown termination 'draw'"),
        ('[Event "', "[Event ", "neither a \\[Tag"),
        ("\n1. P", "\n2. P", "expected move number 1"),
        ("\n3. P", "\n4. P", "expected move number 3"),
        ("\n5. P0 ", "\n5. Q0 ", "neither a \\[Tag"),
    ],
)
def test_bad_text_record(finished: pw.Record, old: str, new: str, message: str) -> None:
    text = finished.to_text()
    if old == "\n5. P0 " and old not in text:
        old, new = "\n5. P1 ", "\n5. Q1 "
    assert old in text
    with pytest.raises(pw.InvalidRecordError, match=message):
        pw.Record.from_text(text.replace(old, new, 1))


def test_text_record_without_a_setup() -> None:
    with pytest.raises(pw.InvalidRecordError, match=r"needs a \[Circle \.\.\.\] or \[Position"):
        pw.Record.from_text("")
    with pytest.raises(pw.InvalidRecordError, match="needs a \\[Circle"):
        pw.Record.from_text('[Event "x"]\n\n1. P0 A\n')


def test_text_record_with_a_false_player_label(finished: pw.Record) -> None:
    lines = text_lines(finished)
    i = next(i for i, ln in enumerate(lines) if ln.startswith("1. P"))
    label = lines[i].split()[1]
    lines[i] = lines[i].replace(label, "P1" if label == "P0" else "P0")
    with pytest.raises(pw.InvalidRecordError, match="move 1"):
        pw.Record.from_text("\n".join(lines))


def test_unreadable_record_file(tmp_path: Any) -> None:
    with pytest.raises(pw.InvalidRecordError, match="cannot read"):
        pw.Record.load(tmp_path / "missing.json")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe\x00junk")
    with pytest.raises(pw.InvalidRecordError, match="cannot read"):
        pw.Record.load(bad)
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{ not json")
    with pytest.raises(pw.InvalidRecordError, match="not valid JSON"):
        pw.Record.load(garbage)


# -- wrong types get the package's own errors too ----------------------------------------------


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        (lambda: pw.Rules(["revised"]), pw.InvalidSetupError, "unknown edition"),  # type: ignore[arg-type]
        (lambda: pw.Buy("3", 0, 0, 0), pw.InvalidMoveError, "patch_id must be a whole number"),  # type: ignore[arg-type]
        (lambda: pw.PlaceSpecial("a", 0), pw.InvalidMoveError, "row must be a whole number"),  # type: ignore[arg-type]
        (lambda: pw.Record.parse(5), pw.InvalidRecordError, "given as a string"),  # type: ignore[arg-type]
        (lambda: pw.Record.from_json(5), pw.InvalidRecordError, "must be a string"),  # type: ignore[arg-type]
    ],
)
def test_wrong_types_raise_package_errors(build: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        build()


def test_numpy_circle_is_accepted() -> None:
    circle = np.array([*range(1, 33), 0])
    assert pw.new_game(circle=circle).circle == (*range(1, 33), 0)


def test_record_version_is_checked() -> None:
    d = pw.Game(pw.new_game(seed=1)).to_record().to_dict()
    d["version"] = 99
    with pytest.raises(pw.InvalidRecordError, match="version 99 is not supported"):
        pw.Record.from_dict(d)


def test_resignation_claim_on_a_finished_game_is_rejected() -> None:
    game = pw.Game(pw.new_game(seed=2))
    while not game.state.is_terminal():
        game.push(game.state.legal_moves()[0])
    d = game.to_record().to_dict()
    d["result"]["termination"] = "resigned"
    with pytest.raises(pw.InvalidRecordError, match="says resigned, but the moves play"):
        pw.Record.from_dict(d)


def test_record_dict_is_a_copy() -> None:
    record = pw.Game(pw.new_game(seed=1)).to_record()
    record.to_dict()["moves"].append("A")
    assert record.moves == []
