"""The CodinGame arena's format over our engine: shapes and orientations checked square by
square, the referee's conventions (invalid PLAY, SKIP with a special patch, special ids),
commands both ways, and the input a bot reads turned back into the very same position."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import patchwork as pw
from patchwork.protocol import codingame as cg
from patchwork.protocol.codingame import CodinGameError, Play, Skip, parse_command

SEEDS = range(6)


def source(lines: list[str]) -> cg.LineSource:
    """A line source over ``lines`` that raises EOFError at the end, as a bot's input does."""
    it = iter(lines)

    def next_line() -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return next_line


def random_states(seed: int, limit: int = 200) -> Iterator[pw.State]:
    """Every state of a random game under the arena's rules."""
    rng = random.Random(seed)
    state = pw.new_game(seed=seed, rules=cg.RULES)
    while not state.is_terminal() and limit:
        yield state
        moves = state.legal_moves()
        # Uniform over the legal moves: buys dominate, so quilts fill and special patches come.
        state = state.apply(moves[rng.randrange(len(moves))])
        limit -= 1


# -- shapes and orientations ------------------------------------------------------------------


def test_the_arena_ids_cover_every_patch_once() -> None:
    assert sorted(cg.TO_OURS) == list(range(33))
    assert sorted(cg.TO_OURS.values()) == list(range(33))
    assert cg.TO_OURS[32] == 0  # the arena's 32 is the 1x2 starting patch, last in the circle
    assert sorted(cg.SHAPES) == list(range(33))


@pytest.mark.parametrize("codingame_id", range(33))
def test_each_arena_shape_is_an_orientation_of_our_patch(codingame_id: int) -> None:
    ours = pw.PATCHES[cg.TO_OURS[codingame_id]]
    shape = cg.shape_cells(cg.SHAPES[codingame_id])
    assert len(shape) == len(ours.cells)
    orientations = {pw.Buy(ours.id, o, 0, 0).squares for o in range(8)}
    assert shape in orientations


@pytest.mark.parametrize("codingame_id", range(33))
def test_flip_and_rotations_cover_the_same_squares_as_our_orientation(codingame_id: int) -> None:
    patch = cg.TO_OURS[codingame_id]
    for flip in (False, True):
        for rotations in range(4):
            cells = cg.codingame_cells(codingame_id, flip, rotations)
            orientation = cg.to_orientation(codingame_id, flip, rotations)
            for row, col in ((0, 0), (2, 3), (4, 1)):
                try:
                    buy = pw.Buy(patch, orientation, row, col)
                except pw.InvalidMoveError:
                    continue
                assert buy.squares == {(row + r, col + c) for r, c in cells}
    for orientation in range(8):
        flip, rotations = cg.to_flip_rotations(patch, orientation)
        back = cg.to_orientation(codingame_id, bool(flip), rotations)
        assert pw.Buy(patch, back, 0, 0).squares == pw.Buy(patch, orientation, 0, 0).squares


def test_the_arena_turns_clockwise_after_mirroring() -> None:
    # The arena's patch 19 is drawn OOO / O..; mirrored it is OOO / ..O, then a quarter turn
    # clockwise stands it up as .O / .O / OO.
    assert cg.cells_shape(cg.codingame_cells(19, False, 0)) == "OOO|O.."
    assert cg.cells_shape(cg.codingame_cells(19, True, 0)) == "OOO|..O"
    assert cg.cells_shape(cg.codingame_cells(19, True, 1)) == ".O|.O|OO"
    assert cg.cells_shape(cg.codingame_cells(19, False, 1)) == "OO|.O|.O"


def test_orientation_is_not_four_times_flip_plus_turns() -> None:
    # The arena draws most patches in another orientation than patches.json: its patch 0 (our
    # 31, OO. / .OO) is the mirror image of ours (.## / ##.), so unflipped it is our f0.
    assert cg.TO_OURS[0] == 31
    assert cg.to_orientation(0, False, 0) in (4, 6)
    plain = sum(
        cg.to_orientation(c, bool(f), r) == 4 * f + r
        for c in range(33)
        for f in (0, 1)
        for r in range(4)
    )
    assert plain < 33 * 8


# -- commands ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("SKIP", Skip()),
        ("SKIP good luck", Skip("good luck")),
        ("SKIP ", Skip()),
        ("SKIP  gg", Skip(" gg")),
        ("PLAY 3 1 2", Play(3, 1, 2)),
        ("PLAY 3 1 2 1 3", Play(3, 1, 2, True, 3)),
        ("PLAY 3 1 2 1 3 gg wp", Play(3, 1, 2, True, 3, "gg wp")),
        ("PLAY 3 1 2 hello", Play(3, 1, 2, False, 0, "hello")),
        ("PLAY 3 1 2 1 hello", Play(3, 1, 2, True, 0, "hello")),
        ("PLAY 3 1 2 2 5", Play(3, 1, 2, False, 1)),  # only 1 flips; turns count modulo 4
        ("PLAY 3 1 2 1 -1", Play(3, 1, 2, True, -1)),  # ... keeping their sign, as Kotlin's %
        ("PLAY 3 1 2 0 -6", Play(3, 1, 2, False, -2)),
        ("PLAY 3 1 2 0 -4", Play(3, 1, 2, False, 0)),
        ("PLAY 3 1 2 x 2", Play(3, 1, 2, False, 2, "x 2")),  # rotations read all the same
        ("PLAY 3 1 2 1 x", Play(3, 1, 2, True, 0, "x")),
        ("PLAY 3 1 2 1 2147483648", Play(3, 1, 2, True, 0, "2147483648")),
        ("PLAY 3 1 2 1 -2147483648", Play(3, 1, 2, True, 0)),
        ("PLAY 3 1 2  1 1", Play(3, 1, 2, False, 1, " 1 1")),
        ("PLAY 000000000003 1 2", Play(3, 1, 2)),  # any number of digits, as toIntOrNull
        ("PLAY \u0663 \u06f1 2", Play(3, 1, 2)),  # and digits of any script
        ("PLAY -20 4 4", Play(-20, 4, 4)),
        ("PLAY +3 1 2", Play(3, 1, 2)),
    ],
)
def test_commands_read_as_the_arena_reads_them(line: str, command: cg.Command) -> None:
    assert parse_command(line) == command


@pytest.mark.parametrize(
    "line",
    ["", "skip", "PASS", "PLAY", "PLAY 3 1", "PLAY 3 x 2", "PLAY  3 1 2", "PLAY 3.0 1 2",
     "PLAY 99999999999 1 2", "PLAY 2147483648 1 2", "PLAY - 1 2", "PLAY +-3 1 2", "\x00\xff",
     "HELLO referee", " SKIP", "\tSKIP", "SKIP\tgg", "PLAY\t3 1 2", " PLAY 3 1 2"],
)  # fmt: skip
def test_unrecognised_commands(line: str) -> None:
    assert parse_command(line) is None


def test_every_legal_move_round_trips_through_the_arena_command() -> None:
    for seed in SEEDS:
        for i, state in enumerate(random_states(seed)):
            if i % 5:
                continue
            for move in state.legal_moves():
                text = cg.command_text(move, state)
                command = parse_command(text)
                assert command is not None
                assert cg.referee_move(command, state) == (move, None), text


def test_an_invalid_play_is_played_as_skip() -> None:
    state = pw.new_game(seed=3, rules=cg.RULES)
    offered = [pw.PATCHES[i].codingame_id for i in state.offered]
    not_offered = next(p.codingame_id for p in pw.PATCHES if p.id not in state.offered)
    for play in (
        Play(99, 0, 0),  # no such patch
        Play(not_offered, 0, 0),  # not among the three
        Play(offered[0], 8, 8),  # sticks out of the board
        Play(offered[0], -1, 0),  # off the board
        Play(offered[0], 0, 0, False, -1),  # a negative turn
        Play(-20, 0, 0),  # no special patch to place
    ):
        move, note = cg.referee_move(play, state)
        assert move == pw.Advance()
        assert note is not None and "played as SKIP" in note


def test_negative_rotations_with_the_flip_turn_the_unflipped_patch() -> None:
    # The arena's eight orientations are a list, the unflipped four first: flip 1 and -r
    # rotations is index 4 - r, the unflipped patch turned 4 - r times.
    state = pw.new_game(seed=3, rules=cg.RULES)
    patch = state.offered[0]
    cid = pw.PATCHES[patch].codingame_id
    for rotations in (-1, -2, -3):
        play = Play(cid, 0, 0, True, rotations)
        expected = pw.Buy(patch, cg.to_orientation(cid, False, 4 + rotations), 0, 0)
        assert cg.referee_move(play, state) == (expected, None)
        assert cg.logged_command(play, state) == f"PLAY {cid} 0 0 1 {rotations}"
    move, note = cg.referee_move(Play(cid, 0, 0, False, -1), state)  # the arena fails on it
    assert move == pw.Advance() and note is not None and "rotations -1 without the flip" in note


def test_the_referee_s_notes_speak_the_arena_s_ids() -> None:
    state = pw.new_game(seed=3, rules=cg.RULES)
    offered = [pw.PATCHES[i].codingame_id for i in state.offered]
    other = next(p for p in pw.PATCHES if p.id not in state.offered)
    _, note = cg.referee_move(Play(other.codingame_id, 0, 0), state)
    assert note == (
        f"invalid PLAY (patch {other.codingame_id} is not among the first three "
        f"({', '.join(map(str, offered))})): played as SKIP"
    )
    if other.id != other.codingame_id:
        assert f"patch {other.id} " not in note
    _, note = cg.referee_move(Play(offered[0], 8, 8), state)
    assert note is not None and f"patch {offered[0]} (flip 0 rotations 0) at x=8 y=8" in note
    dear = next((i for i in state.offered if pw.PATCHES[i].buttons > 5), None)
    if dear is not None:
        cid = pw.PATCHES[dear].codingame_id
        _, note = cg.referee_move(Play(cid, 0, 0), state)
        assert note is not None and f"patch {cid} costs" in note


def test_a_dear_or_overlapping_play_is_played_as_skip() -> None:
    state = pw.new_game(seed=3, rules=cg.RULES)
    buy = next(m for m in state.legal_moves() if isinstance(m, pw.Buy))
    state = state.apply(buy)
    if state.current_player == 0:
        state = state.apply(pw.Advance())
    state = state.apply(pw.Advance())  # player 0 moves again, over its first patch
    assert state.current_player == 0
    square = min(buy.squares)
    for patch in state.offered:
        p = pw.PATCHES[patch]
        flip, rotations = cg.to_flip_rotations(patch, 0)
        play = Play(p.codingame_id, square[1], square[0], bool(flip), rotations)
        move, note = cg.referee_move(play, state)
        if p.buttons > state.players[0].buttons:
            assert note is not None and "costs" in note
        elif square in pw.Buy(patch, 0, *square).squares:
            assert note is not None and "overlap" in note
        if note is not None:
            assert move == pw.Advance()


def find_pending_special(edition_rules: pw.Rules = cg.RULES) -> pw.State:
    for seed in range(50):
        for state in random_states(seed):
            if state.pending_specials:
                return state
    raise AssertionError("no random game crossed a special patch")


def test_skip_while_holding_a_special_patch_places_it_on_the_first_free_square() -> None:
    state = find_pending_special()
    me = state.current_player
    assert me is not None
    covered = state.players[me].quilt.squares
    first_free = min((r, c) for r in range(9) for c in range(9) if (r, c) not in covered)
    move, note = cg.referee_move(Skip(), state)
    assert move == pw.PlaceSpecial(*first_free)
    assert note is not None and "first free square" in note
    # A PLAY of anything but the special patch falls back the same way.
    offered = pw.PATCHES[state.offered[0]].codingame_id
    assert cg.referee_move(Play(offered, 0, 0), state)[0] == move


def test_special_patch_ids_are_minus_their_space_in_order() -> None:
    base = "original:rf 1,2,3,0 {p0} 9,5,0,9/9/9/9/9/9/9/9/9 0 - - {pending} {left}"
    quilt = "19,5,0,9/9/9/9/9/9/9/9/9"
    first = pw.State.from_text(
        base.format(p0=quilt.replace("19,", "21,", 1), pending="1@0", left="26,32,44,50")
    )
    assert cg.special_patch_id(first) == -20
    assert cg.command_text(pw.PlaceSpecial(4, 2), first) == "PLAY -20 2 4 0 0"
    two = pw.State.from_text(
        base.format(p0=quilt.replace("19,", "27,", 1), pending="2@0", left="32,44,50")
    )
    assert cg.special_patch_id(two) == -20
    assert cg.special_patch_id(two.apply(pw.PlaceSpecial(0, 0))) == -26
    assert cg.special_patch_id(pw.new_game(seed=1, rules=cg.RULES)) == 0


# -- the input ---------------------------------------------------------------------------------


def test_init_lines_are_the_original_edition_board() -> None:
    assert cg.init_lines() == ["9", "5 11 17 23 29 35 41 47 53", "5", "20 26 32 44 50"]
    assert cg.read_init(source(cg.init_lines())) == cg.InitView(
        (5, 11, 17, 23, 29, 35, 41, 47, 53), (20, 26, 32, 44, 50)
    )


def test_the_first_turn_input() -> None:
    state = pw.new_game(seed=2, rules=cg.RULES)
    lines = cg.turn_lines(state, [])
    assert lines[0] == "5 0 0"
    assert lines[1:10] == ["........."] * 9
    assert lines[10] == "5 0 0"
    assert lines[20] == "33"
    first = pw.PATCHES[state.circle[0]]
    assert lines[21].split()[:4] == [
        str(first.codingame_id), str(first.income), str(first.buttons), str(first.time)
    ]  # fmt: skip
    assert lines[21 + 32] == "32 0 2 1 OO"  # the starting patch, last
    assert lines[-2:] == ["0", "0"]
    assert len(lines) == 21 + 33 + 2


@pytest.mark.parametrize("seed", SEEDS)
def test_a_bot_rebuilds_exactly_the_position_from_its_input(seed: int) -> None:
    for state in random_states(seed):
        me = state.current_player
        assert me is not None
        view = cg.read_turn(source(cg.turn_lines(state, ["SKIP", "PLAY 3 0 0 0 0"])))
        assert view.opponent_moves == ("SKIP", "PLAY 3 0 0 0 0")
        assert cg.state_from_view(view, me, hint=state) is state
        rebuilt = cg.state_from_view(view, me)
        assert rebuilt.circle == state.circle
        assert rebuilt.players == state.players
        assert rebuilt.pending_specials == state.pending_specials
        assert rebuilt.special_spaces_left == state.special_spaces_left
        assert rebuilt.current_player == me
        assert sorted(map(str, rebuilt.legal_moves())) == sorted(map(str, state.legal_moves()))


def test_bad_input_is_refused_with_a_reason() -> None:
    state = pw.new_game(seed=2, rules=cg.RULES)
    good = cg.turn_lines(state, [])
    cases = {
        1: ("O.O.O.O.X", "quilt row"),
        0: ("5 0", "myButtons"),
        20: ("many", "patches"),
        21: ("1 2 3", "patchId"),
    }
    for index, (bad, reason) in cases.items():
        lines = list(good)
        lines[index] = bad
        with pytest.raises(CodinGameError, match=reason):
            cg.read_turn(source(lines))
    with pytest.raises(EOFError):
        cg.read_turn(source(good[:30]))
    lines = list(good)
    lines[21] = "77 1 2 3 OO"
    with pytest.raises(CodinGameError, match="unknown patch"):
        cg.state_from_view(cg.read_turn(source(lines)), 0)
    ahead = cg.turn_lines(state.apply(pw.Advance()), [])
    swapped = ahead[10:20] + ahead[:10] + ahead[20:]  # the player ahead reads as "me"
    with pytest.raises(CodinGameError, match="turn"):
        cg.state_from_view(cg.read_turn(source(swapped)), 0)
