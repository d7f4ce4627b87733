"""Move notation: squares, orientations (mirror first, then turn clockwise), anchors, symmetric
patches, and the house rules without rotation or flipping."""

from __future__ import annotations

import pytest

import patchwork as pw
from helpers import EMPTY_QUILT, buys_of, circle_starting, position
from patchwork.engine.tables import MODE_COUNT

ORIENTATIONS = ("r0", "r90", "r180", "r270", "f0", "f90", "f180", "f270")


def shape_at(rows: list[str], row: int, col: int) -> frozenset[tuple[int, int]]:
    """The squares of a drawn shape (``#`` covered) with its top-left at (row, col)."""
    return frozenset(
        (row + r, col + c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "#"
    )


# -- squares --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "square"),
    [
        ("a1", (0, 0)),
        ("i1", (0, 8)),
        ("a9", (8, 0)),
        ("i9", (8, 8)),
        ("c4", (3, 2)),
        ("e5", (4, 4)),
    ],
)
def test_square_names(name: str, square: tuple[int, int]) -> None:
    assert pw.parse_square(name) == square
    assert pw.square_name(*square) == name
    assert pw.parse_square(name.upper()) == square


def test_every_square_name_round_trips() -> None:
    names = {pw.square_name(r, c) for r in range(9) for c in range(9)}
    assert len(names) == 81
    for r in range(9):
        for c in range(9):
            assert pw.parse_square(pw.square_name(r, c)) == (r, c)


@pytest.mark.parametrize("bad", ["", "a", "a0", "j1", "a10", "11", "aa", "1a", "e 5", "é5"])
def test_bad_square_names(bad: str) -> None:
    with pytest.raises(pw.InvalidMoveError, match="square"):
        pw.parse_square(bad)


# -- orientations ---------------------------------------------------------------------------------


def test_patch_3_bar_is_vertical_as_printed_and_horizontal_turned() -> None:
    assert pw.PATCHES[3].shape == ("#", "#", "#")
    assert pw.parse_move("3r0@a1").squares == {(0, 0), (1, 0), (2, 0)}
    assert pw.parse_move("3r90@a1").squares == {(0, 0), (0, 1), (0, 2)}
    assert pw.parse_move("3r90@g9").squares == {(8, 6), (8, 7), (8, 8)}
    assert pw.parse_move("3r180@a1") == pw.parse_move("3r0@a1")
    assert pw.parse_move("3r270@b2") == pw.parse_move("3r90@b2")


# Patch 18, printed ".# / .# / ##", drawn by hand in each orientation.
PATCH_18 = {
    "r0": [".#", ".#", "##"],
    "r90": ["#..", "###"],
    "r180": ["##", "#.", "#."],
    "r270": ["###", "..#"],
    "f0": ["#.", "#.", "##"],
    "f90": ["###", "#.."],
    "f180": ["##", ".#", ".#"],
    "f270": ["..#", "###"],
}

# Patch 26, printed "#. / #. / ##": the table of docs/notation.md.
PATCH_26 = {
    "r0": ["#.", "#.", "##"],
    "r90": ["###", "#.."],
    "r180": ["##", ".#", ".#"],
    "r270": ["..#", "###"],
    "f0": [".#", ".#", "##"],
    "f90": ["#..", "###"],
    "f180": ["##", "#.", "#."],
    "f270": ["###", "..#"],
}


@pytest.mark.parametrize(("patch", "table"), [(18, PATCH_18), (26, PATCH_26)])
@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_orientations_of_asymmetric_patches(
    patch: int, table: dict[str, list[str]], orientation: str
) -> None:
    assert list(pw.PATCHES[patch].shape) == table["r0"]
    for anchor, (row, col) in [("a1", (0, 0)), ("c4", (3, 2)), ("f5", (4, 5))]:
        move = pw.parse_move(f"{patch}{orientation}@{anchor}")
        assert isinstance(move, pw.Buy)
        assert (move.row, move.col) == (row, col)
        assert move.squares == shape_at(table[orientation], row, col)


def test_documented_example_26r90_at_c4() -> None:
    names = {pw.square_name(r, c) for r, c in pw.parse_move("26r90@c4").squares}
    assert names == {"c4", "d4", "e4", "c5"}


def test_anchor_is_the_bounding_box_corner_even_when_empty() -> None:
    # Patch 1 ".# / ##": its top-left square is not covered.
    move = pw.parse_move("1r0@a1")
    assert (0, 0) not in move.squares
    assert move.squares == {(0, 1), (1, 0), (1, 1)}


def test_patches_with_equal_shapes_are_different_moves() -> None:
    assert pw.PATCHES[1].shape == pw.PATCHES[2].shape
    a, b = pw.parse_move("1r0@a1"), pw.parse_move("2r0@a1")
    assert a.squares == b.squares
    assert a != b
    assert len({a, b}) == 2


# -- symmetric patches --------------------------------------------------------------------------


def test_symmetric_patch_names_are_one_move() -> None:
    # Patch 8 is the 2x2 square: all eight orientations cover the same squares.
    moves = {pw.parse_move(f"8{o}@d4") for o in ORIENTATIONS}
    assert len(moves) == 1
    a, b = pw.Buy(8, 0, 3, 3), pw.Buy(8, 5, 3, 3)
    assert a == b and hash(a) == hash(b)
    assert a.orientation != b.orientation
    assert str(a) == "8r0@d4" and str(b) == "8f90@d4"


@pytest.mark.parametrize("patch", [8, 19, 0, 3, 6, 13])
def test_symmetric_patch_gets_one_move_per_footprint(patch: int) -> None:
    s = position(f"0,20,0,{EMPTY_QUILT}", f"0,5,0,{EMPTY_QUILT}", circle=str(patch))
    buys = buys_of(s, patch)
    footprints = {b.squares for b in buys}
    assert len(footprints) == len(buys) == MODE_COUNT[3, patch]
    # Every name of every placement is accepted and equals the listed move.
    listed = set(buys)
    for b in buys[:5]:
        for o in ORIENTATIONS:
            try:
                other = pw.Buy(patch, ORIENTATIONS.index(o), b.row, b.col)
            except pw.InvalidMoveError:
                continue  # that orientation sticks out of the board at this anchor
            if other.squares == b.squares:
                assert other == b
                assert s.is_legal(other)
                assert other in listed


def test_listed_name_is_the_first_allowed_orientation() -> None:
    s = position(f"0,20,0,{EMPTY_QUILT}", f"0,5,0,{EMPTY_QUILT}", circle="8")
    assert {str(b)[1:3] for b in buys_of(s, 8)} == {"r0"}
    # Patch 3 (the bar) under full rules: only r0 and r90 names appear.
    s = position(f"0,20,0,{EMPTY_QUILT}", f"0,5,0,{EMPTY_QUILT}", circle="3")
    names = {str(b).split("@")[0] for b in buys_of(s, 3)}
    assert names == {"3r0", "3r90"}


# -- reading is forgiving, writing canonical ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("A", "A"),
        ("a", "A"),
        ("advance", "A"),
        (" A ", "A"),
        ("S@e5", "S@e5"),
        ("s@E5", "S@e5"),
        ("17r90@c4", "17r90@c4"),
        ("17 R90 @ C4", "17r90@c4"),
        ("17@c4", "17r0@c4"),
        ("17r0@c4", "17r0@c4"),
        (" 17  f0@c4\t", "17f0@c4"),
        ("5f180@a1", "5f180@a1"),
    ],
)
def test_reading_forgiving_writing_canonical(text: str, canonical: str) -> None:
    assert str(pw.parse_move(text)) == canonical


def test_move_kinds() -> None:
    assert pw.parse_move("A") == pw.Advance()
    assert pw.parse_move("S@b3") == pw.PlaceSpecial(2, 1)
    buy = pw.parse_move("17f270@c4")
    assert buy == pw.Buy(17, 7, 3, 2)
    assert isinstance(buy, pw.Buy) and buy.orientation == 7
    assert pw.Advance().squares == frozenset()
    assert pw.PlaceSpecial(2, 1).squares == {(2, 1)}


# -- house rules: no rotation, no flipping ------------------------------------------------------


@pytest.mark.parametrize("patch", range(33))
def test_no_rotation_no_flip_opening_has_exactly_the_printed_placements(patch: int) -> None:
    rows = pw.PATCHES[patch].shape
    s = position(
        f"0,20,0,{EMPTY_QUILT}", f"0,5,0,{EMPTY_QUILT}", rules="revised:-", circle=str(patch)
    )
    buys = buys_of(s, patch)
    expected = {
        shape_at(list(rows), r, c) for r in range(10 - len(rows)) for c in range(10 - len(rows[0]))
    }
    assert {b.squares for b in buys} == expected
    assert len(buys) == (10 - len(rows)) * (10 - len(rows[0]))
    assert all(b.orientation == 0 for b in buys)


def test_no_rotation_no_flip_opening_from_a_fresh_game() -> None:
    # Patches 3 (1x3 upright), 13 (1x5 flat) and 1 (".# / ##"): 63 + 45 + 64 placements.
    no_turns = pw.Rules(rotation=False, flip=False)
    s = pw.new_game(circle=circle_starting(3, 13, 1), rules=no_turns)
    moves = s.legal_moves()
    counts = {p: len(buys_of(s, p)) for p in (3, 13, 1)}
    assert counts == {3: 63, 13: 0, 1: 64}  # patch 13 costs 7: not affordable with 5
    assert len(moves) == 1 + 63 + 64
    assert all(b.squares == shape_at(["#", "#", "#"], b.row, b.col) for b in buys_of(s, 3))


@pytest.mark.parametrize(
    ("orient", "allowed"),
    [
        ("rf", set(ORIENTATIONS)),
        ("r", {"r0", "r90", "r180", "r270"}),
        ("f", {"r0", "f0"}),
        ("-", {"r0"}),
    ],
)
def test_orientations_accepted_under_each_house_rule(orient: str, allowed: set[str]) -> None:
    # Patch 18 is asymmetric: every orientation is a different footprint.
    s = position(
        f"0,20,0,{EMPTY_QUILT}", f"0,5,0,{EMPTY_QUILT}", rules=f"revised:{orient}", circle="18"
    )
    for o in ORIENTATIONS:
        move = pw.parse_move(f"18{o}@d4")
        if o in allowed:
            assert s.is_legal(move), o
            assert move in s.legal_moves()
        else:
            assert not s.is_legal(move), o
            assert move not in s.legal_moves()
            with pytest.raises(pw.IllegalMoveError, match=r"needs (turning|flipping)"):
                s.apply(move)
    assert len(buys_of(s, 18)) == MODE_COUNT[s.rules.mode, 18]


def test_flip_only_accepts_mirrored_placements_of_an_asymmetric_patch() -> None:
    s = position(f"0,20,0,{EMPTY_QUILT}", f"0,5,0,{EMPTY_QUILT}", rules="original:f", circle="18")
    shapes = {frozenset((r - b.row, c - b.col) for r, c in b.squares) for b in buys_of(s, 18)}
    assert shapes == {shape_at(PATCH_18["r0"], 0, 0), shape_at(PATCH_18["f0"], 0, 0)}


def test_no_rotation_rejects_a_turned_name_of_a_symmetric_patch() -> None:
    """docs/notation.md: without rotation only r0 (and f0 with flipping) may be written, even
    for a patch whose turned shape is the same (awkward: such a Buy equals a listed one)."""
    s = position(f"0,20,0,{EMPTY_QUILT}", f"0,5,0,{EMPTY_QUILT}", rules="revised:-", circle="8")
    assert s.is_legal(pw.parse_move("8r0@a1"))
    with pytest.raises(pw.IllegalMoveError, match="turning"):
        s.apply(pw.parse_move("8r90@a1"))
