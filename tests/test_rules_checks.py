"""The nine "checks every engine must pass" at the end of RULES.md, one named test (or a few)
each, plus the rules around them (turn order, income, special patches, bonus tile, the end)."""

from __future__ import annotations

import random
import statistics

import pytest

import patchwork as pw
from helpers import (
    EMPTY_QUILT,
    FULL_QUILT,
    buys_of,
    circle_starting,
    find_buy,
    load_jsonl,
    position,
    random_plies,
)
from patchwork.engine.tables import MODE_COUNT
from reference_model import footprints

A = pw.Advance()

# A quilt with only a1 and a2 empty (room for exactly the 1x2 patch 0, upright).
ALL_BUT_A1_A2 = "/".join(["1xxxxxxxx", "1xxxxxxxx", *["xxxxxxxxx"] * 7])
# A quilt with only a1 empty.
ALL_BUT_A1 = "/".join(["1xxxxxxxx", *["xxxxxxxxx"] * 8])


# -- check 1: a fresh game -------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2024])
def test_check_1_fresh_game_offers_the_three_patches_after_patch_0(seed: int) -> None:
    s = pw.new_game(seed=seed)
    circle = s.circle
    assert sorted(circle) == list(range(33))
    assert circle[-1] == 0  # the neutral token stands just after patch 0 ...
    assert s.offered == circle[:3]  # ... so the three after it are offered
    assert 0 not in s.offered
    assert s.current_player == 0
    p0, p1 = s.players
    assert (p0.position, p1.position) == (0, 0)
    assert (p0.buttons, p1.buttons) == (5, 5)
    assert (p0.income, p1.income) == (0, 0)
    assert p0.quilt.empty_squares == p1.quilt.empty_squares == 81
    assert s.bonus_owner is None and s.first_to_finish is None
    assert s.pending_specials == 0 and not s.is_terminal()


def test_check_1_fresh_game_explicit_circle_is_offered_in_order() -> None:
    circle = circle_starting(7, 3, 12)
    s = pw.new_game(circle=circle)
    assert s.circle == tuple(circle)
    assert s.offered == (7, 3, 12)


@pytest.mark.parametrize("first", [0, 1])
def test_check_1_start_player_moves_first_and_time_1_buy_hands_over(first: int) -> None:
    # Patch 2 costs 3 buttons and 1 time.
    s = pw.new_game(circle=circle_starting(2, 3, 4), first_player=first)
    assert s.current_player == first
    assert s.on_top == first
    after = s.apply(buys_of(s, 2)[0])
    me, other = after.players[first], after.players[1 - first]
    assert (me.position, me.buttons) == (1, 2)
    assert other.position == 0
    assert after.current_player == 1 - first  # on 0, behind: moves next
    assert after.offered == (3, 4, 1)  # the neutral token moved onto patch 2's place


def test_check_1_advance_from_the_start_goes_one_past_the_opponent() -> None:
    s = pw.new_game(seed=3).apply(A)
    assert s.players[0].position == 1
    assert s.players[0].buttons == 6
    assert s.current_player == 1


# -- check 2: sharing a space -----------------------------------------------------------------


def test_check_2_second_to_arrive_is_on_top_and_moves_again() -> None:
    # Patches 1 (cost 1) and 20 (cost 2) both take 3 time.
    s = pw.new_game(circle=circle_starting(1, 20, 7))
    s = s.apply(buys_of(s, 1)[0])
    assert s.players[0].position == 3
    assert s.current_player == 1
    assert s.offered == (20, 7, 2)
    s = s.apply(buys_of(s, 20)[0])
    assert s.players[0].position == s.players[1].position == 3
    assert s.on_top == 1
    assert s.current_player == 1  # arrived second, so on top: moves again
    s = s.apply(A)  # to 4, one past the opponent
    assert s.players[1].position == 4
    assert s.current_player == 0


@pytest.mark.parametrize("top", [0, 1])
def test_check_2_on_top_decides_on_a_shared_space(top: int) -> None:
    s = position(f"3,5,0,{EMPTY_QUILT}", f"3,5,0,{EMPTY_QUILT}", top=top)
    assert s.current_player == top


def test_check_2_buying_onto_the_opponents_space_puts_the_buyer_on_top() -> None:
    # Player 1 on 1 (behind player 0 on 3), buys patch 5 (time 2) and lands on 3.
    s = position(f"3,5,0,{EMPTY_QUILT}", f"1,5,0,{EMPTY_QUILT}", top=0, circle="5,3,4,0")
    assert s.current_player == 1
    s = s.apply(buys_of(s, 5)[0])
    assert s.on_top == 1 and s.current_player == 1


# -- check 3: an advance that crosses two income marks -----------------------------------------


def test_check_3_advance_crosses_two_income_marks() -> None:
    s = position(f"4,5,3,{EMPTY_QUILT}", f"10,8,1,{EMPTY_QUILT}")
    assert s.current_player == 0
    after = s.apply(A)
    me = after.players[0]
    assert me.position == 11
    assert me.buttons == 5 + 7 + 2 * 3  # 7 spaces, then income at 5 and at 11
    assert after.players[1] == s.players[1]
    assert after.current_player == 1


def test_check_3_marks_fire_only_when_crossed_not_when_left() -> None:
    # From 5 (a mark already passed) to 10: no mark in (5, 10].
    s = position(f"5,0,4,{EMPTY_QUILT}", f"9,0,0,{EMPTY_QUILT}")
    after = s.apply(A)
    assert after.players[0].position == 10
    assert after.players[0].buttons == 5
    # From 10 to 11 lands on a mark: it fires.
    s = position(f"10,0,4,{EMPTY_QUILT}", f"10,0,0,{EMPTY_QUILT}", top=0)
    assert s.apply(A).players[0].buttons == 1 + 4


# -- check 4: two special patches from one move -------------------------------------------------


def test_check_4_original_edition_advance_across_20_and_26_places_two_specials() -> None:
    """RULES.md check 4 as written: specials at 20 and 26 both still there, me on 19, the
    opponent on 25; my advance to 26 crosses both spaces, so I place two special patches.

    The position is built from text because no play reaches it (the opponent's token passed 20
    without taking the special there)."""
    s = position(
        f"19,5,0,{EMPTY_QUILT}",
        f"25,5,0,{EMPTY_QUILT}",
        rules="original:rf",
        specials="20,26,32,44,50",
    )
    assert s.current_player == 0
    s = s.apply(A)
    assert s.players[0].position == 26
    assert s.pending_specials == 2
    assert s.current_player == 0


def test_check_4_two_pending_specials_are_placed_back_to_back() -> None:
    # Player 0 (ahead, on 26) has two specials to place: both before anyone else moves.
    s = position(
        f"26,12,0,{EMPTY_QUILT}", f"25,5,0,{EMPTY_QUILT}", rules="original:rf", pending="2@0"
    )
    assert s.current_player == 0
    moves = s.legal_moves()
    assert len(moves) == 81 and all(isinstance(m, pw.PlaceSpecial) for m in moves)
    s = s.apply(pw.PlaceSpecial(0, 0))
    assert s.pending_specials == 1 and s.current_player == 0
    assert pw.PlaceSpecial(0, 0) not in s.legal_moves()
    s = s.apply(pw.PlaceSpecial(8, 8))
    assert s.pending_specials == 0
    assert s.current_player == 1  # now the token further behind moves
    assert s.players[0].quilt.squares == {(0, 0), (8, 8)}
    assert s.players[0].buttons == 12 and s.players[0].position == 26


def test_check_4_special_patch_is_placed_before_the_next_turn() -> None:
    # Player 0 on 24 buys patch 3 (time 2) to 26, the special's space: places it at once,
    # even though player 1 (on 25) is now behind.
    s = position(f"24,5,0,{EMPTY_QUILT}", f"25,5,0,{EMPTY_QUILT}", circle="3,4,5,0")
    assert s.current_player == 0
    s = s.apply(buys_of(s, 3)[0])
    assert s.players[0].position == 26
    assert s.pending_specials == 1
    assert s.current_player == 0
    assert s.special_spaces_left == (32, 38, 44, 50)


@pytest.mark.parametrize(
    ("edition", "spaces"),
    [("revised", (26, 32, 38, 44, 50)), ("original", (20, 26, 32, 44, 50))],
)
def test_check_4_special_spaces_per_edition(edition: str, spaces: tuple[int, ...]) -> None:
    assert pw.Rules(edition).special_spaces == spaces
    for space in range(1, 54):
        # Both tokens on ``space - 1``, player 0 on top: the advance to ``space`` crosses only
        # that space, where a special patch lies exactly in the edition's special spaces.
        s = position(
            f"{space - 1},0,0,{EMPTY_QUILT}",
            f"{space - 1},0,0,{EMPTY_QUILT}",
            rules=f"{edition}:rf",
            top=0,
        )
        after = s.apply(A)
        assert after.players[0].position == space
        assert after.pending_specials == (1 if space in spaces else 0), space
        assert after.special_spaces_left == tuple(x for x in spaces if x > space)


def test_check_4_second_player_across_a_special_space_gets_nothing() -> None:
    s = position(f"24,5,0,{EMPTY_QUILT}", f"25,5,0,{EMPTY_QUILT}")
    s = s.apply(A)  # player 0 to 26: takes the special
    assert s.pending_specials == 1
    s = s.apply(pw.PlaceSpecial(4, 4))
    assert s.current_player == 1
    s = s.apply(A)  # player 1 to 27, across 26: nothing left there
    assert s.players[1].position == 27
    assert s.pending_specials == 0
    assert s.players[1].quilt.empty_squares == 81


# -- check 5: the end of the time board ---------------------------------------------------------


def test_check_5_advance_to_53_pays_only_the_spaces_moved_and_one_final_income() -> None:
    s = position(f"50,10,2,{EMPTY_QUILT}", f"53,7,0,{EMPTY_QUILT}", first="1")
    assert s.current_player == 0
    after = s.apply(A)
    me = after.players[0]
    assert me.position == 53
    assert me.buttons == 10 + 3 + 2  # 3 spaces (not 4), one income at the mark on 53
    assert after.first_to_finish == 1
    assert after.is_terminal()
    assert after.current_player is None
    assert after.legal_moves() == []


def test_check_5_time_6_patch_bought_from_51_stops_on_53() -> None:
    # Patch 16: 3 buttons, 6 time, income 2.
    s = position(f"51,10,1,{EMPTY_QUILT}", f"53,7,0,{EMPTY_QUILT}", first="1", circle="16,3,0")
    after = s.apply(buys_of(s, 16)[0])
    me = after.players[0]
    assert me.position == 53
    assert me.income == 3
    assert me.buttons == 10 - 3 + 3  # one income (mark 53), with the new patch's income in it
    assert after.is_terminal()


def test_check_5_player_on_53_takes_no_more_turns() -> None:
    s = position(f"53,30,5,{EMPTY_QUILT}", f"44,20,0,{EMPTY_QUILT}", first="0")
    finished = s.players[0]
    while not s.is_terminal():
        assert s.current_player == 1
        buys = [m for m in s.legal_moves() if isinstance(m, pw.Buy)]
        s = s.apply(buys[0] if buys else A)
        assert s.players[0] == finished
    assert s.players[1].position == 53
    assert s.current_player is None
    assert len(s.circle) < len(circle_starting())  # player 1 bought patches on the way


def test_check_5_first_to_reach_53_is_recorded_once() -> None:
    s = position(f"50,0,0,{EMPTY_QUILT}", f"52,0,0,{EMPTY_QUILT}")
    s = s.apply(A)  # player 0 to 53
    assert s.first_to_finish == 0
    s = s.apply(A)  # player 1 to 53 (on top now, game over)
    assert s.first_to_finish == 0
    assert s.on_top == 1
    assert s.is_terminal()


# -- check 6: the new patch's income counts at once ---------------------------------------------


def test_check_6_new_income_pays_at_a_mark_crossed_by_the_same_buy() -> None:
    # From the start: patch 18 (4 buttons, 6 time, income 2) takes player 0 across mark 5.
    s = pw.new_game(circle=circle_starting(18, 3, 4))
    after = s.apply(buys_of(s, 18)[0])
    me = after.players[0]
    assert me.position == 6
    assert me.income == 2
    assert me.buttons == 5 - 4 + 2


def test_check_6_new_income_adds_to_the_old_at_the_mark() -> None:
    # Patch 27: 7 buttons, 2 time, income 2; player 0 on 3 with income 1 lands on mark 5.
    s = position(f"3,10,1,{EMPTY_QUILT}", f"8,0,0,{EMPTY_QUILT}", circle="27,3,0")
    after = s.apply(buys_of(s, 27)[0])
    assert after.players[0].position == 5
    assert after.players[0].buttons == 10 - 7 + (1 + 2)


def test_check_6_no_income_without_a_mark() -> None:
    s = position(f"0,10,0,{EMPTY_QUILT}", f"8,0,0,{EMPTY_QUILT}", circle="27,3,0")
    after = s.apply(buys_of(s, 27)[0])  # 0 -> 2
    assert after.players[0].buttons == 3
    assert after.players[0].income == 2


# -- check 7: no room for a special patch -------------------------------------------------------


def test_check_7_full_quilt_discards_the_special_and_the_opponent_cannot_take_it() -> None:
    s = position(f"24,5,10,{FULL_QUILT}", f"25,5,0,{EMPTY_QUILT}")
    assert s.legal_moves() == [A]  # nothing fits on a full quilt
    s = s.apply(A)  # player 0 to 26, across the special: no room
    assert s.players[0].position == 26
    assert s.pending_specials == 0
    assert s.current_player == 1
    assert s.special_spaces_left == (32, 38, 44, 50)
    s = s.apply(A)  # player 1 to 27, across 26: the special is gone
    assert s.players[1].position == 27
    assert s.pending_specials == 0
    assert s.players[1].quilt.empty_squares == 81
    assert s.current_player == 0


def test_check_7_buy_that_fills_the_quilt_discards_the_special_it_crosses() -> None:
    # Player 0 on 25, room only for patch 0 (1x2, time 1): buying it fills the quilt and
    # crosses 26.
    s = position(f"25,5,0,{ALL_BUT_A1_A2}", f"30,5,0,{EMPTY_QUILT}", circle="0,3,4")
    buy = find_buy(s, 0, [(0, 0), (1, 0)])
    after = s.apply(buy)
    assert after.players[0].quilt.empty_squares == 0
    assert after.players[0].position == 26
    assert after.pending_specials == 0
    assert after.current_player == 0  # still behind player 1: an ordinary turn
    assert after.legal_moves() == [A]


def test_check_7_second_special_is_discarded_when_the_first_fills_the_quilt() -> None:
    s = position(
        f"26,5,0,{ALL_BUT_A1}", f"25,5,0,{EMPTY_QUILT}", rules="original:rf", pending="2@0"
    )
    assert s.legal_moves() == [pw.PlaceSpecial(0, 0)]
    s = s.apply(pw.PlaceSpecial(0, 0))
    assert s.players[0].quilt.empty_squares == 0
    assert s.pending_specials == 0
    assert s.current_player == 1


def test_check_7_last_empty_square_takes_the_special() -> None:
    s = position(f"24,5,0,{ALL_BUT_A1}", f"25,5,0,{EMPTY_QUILT}")
    s = s.apply(A)
    assert s.pending_specials == 1
    assert s.legal_moves() == [pw.PlaceSpecial(0, 0)]
    s = s.apply(pw.PlaceSpecial(0, 0))
    assert s.players[0].quilt.empty_squares == 0
    assert s.pending_specials == 0


# -- the 7x7 bonus tile -------------------------------------------------------------------------

# The 7x7 at a1-g7 covered but for a1 (SEVEN_BUT_A1) or a1-a3 (SEVEN_BUT_A1_A3).
SEVEN_BUT_A1 = "/".join(["1xxxxxx2", *["xxxxxxx2"] * 6, "9", "9"])
SEVEN_BUT_A1_A3 = "/".join([*["1xxxxxx2"] * 3, *["xxxxxxx2"] * 4, "9", "9"])


def test_bonus_taken_when_a_special_patch_completes_a_7x7() -> None:
    s = position(f"24,5,0,{SEVEN_BUT_A1}", f"25,5,0,{EMPTY_QUILT}")
    s = s.apply(A)
    assert s.bonus_owner is None
    s = s.apply(pw.PlaceSpecial(8, 8))
    assert s.bonus_owner is None  # i9 is outside every 7x7 that is nearly covered
    s = position(f"24,5,0,{SEVEN_BUT_A1}", f"25,5,0,{EMPTY_QUILT}").apply(A)
    s = s.apply(pw.PlaceSpecial(0, 0))
    assert s.bonus_owner == 0
    assert s.scores()[0] == 5 + 2 + 7 - 2 * (81 - 49)


def test_bonus_taken_when_a_buy_completes_a_7x7() -> None:
    s = position(f"0,5,0,{SEVEN_BUT_A1_A3}", f"3,5,0,{EMPTY_QUILT}", circle="3,4,5,0")
    elsewhere = find_buy(s, 3, [(0, 8), (1, 8), (2, 8)])
    assert s.apply(elsewhere).bonus_owner is None
    after = s.apply(find_buy(s, 3, [(0, 0), (1, 0), (2, 0)]))
    assert after.bonus_owner == 0


def test_bonus_goes_to_the_first_and_is_never_lost() -> None:
    seven = "/".join(["xxxxxxx2"] * 7 + ["9", "9"])
    s = position(f"0,5,0,{SEVEN_BUT_A1_A3}", f"3,5,0,{seven}", circle="3,4,5,0", bonus="1")
    after = s.apply(find_buy(s, 3, [(0, 0), (1, 0), (2, 0)]))
    assert after.bonus_owner == 1
    assert after.scores()[1] == 5 + 7 - 2 * 32


@pytest.mark.parametrize(("row", "col"), [(r, c) for r in range(3) for c in range(3)])
def test_bonus_counts_any_of_the_nine_7x7_squares(row: int, col: int) -> None:
    covered = {(row + r, col + c) for r in range(7) for c in range(7)} - {(row, col)}
    quilt = "/".join("".join("x" if (r, c) in covered else "1" for c in range(9)) for r in range(9))
    quilt = "/".join(_compress(r) for r in quilt.split("/"))
    s = position(f"24,5,0,{quilt}", f"25,5,0,{EMPTY_QUILT}").apply(A)
    assert s.apply(pw.PlaceSpecial(row, col)).bonus_owner == 0


def _compress(row: str) -> str:
    out, run = "", 0
    for ch in row:
        if ch == "x":
            out += (str(run) if run else "") + "x"
            run = 0
        else:
            run += 1
    return out + (str(run) if run else "")


# -- check 8: the tie-break ---------------------------------------------------------------------


@pytest.mark.parametrize("first", [0, 1])
def test_check_8_equal_scores_go_to_the_first_to_reach_53(first: int) -> None:
    last = 1 - first
    sides = {first: f"53,10,0,{EMPTY_QUILT}", last: f"52,9,0,{EMPTY_QUILT}"}
    s = position(sides[0], sides[1], first=str(first))
    assert s.current_player == last
    s = s.apply(A)  # the last player reaches 53 with +1 button: 10 each
    assert s.is_terminal()
    assert s.scores()[0] == s.scores()[1] == 10 - 2 * 81
    assert s.on_top == last  # arrived last ...
    assert s.winner() == first  # ... but the first to finish takes the tie


def test_check_8_higher_score_wins_whoever_finished_first() -> None:
    s = position(f"53,10,0,{EMPTY_QUILT}", f"52,10,0,{EMPTY_QUILT}", first="0")
    s = s.apply(A)
    assert s.scores() == (10 - 162, 11 - 162)
    assert s.winner() == 1


def test_check_8_tie_reached_by_play_from_the_reference_data() -> None:
    (line,) = [d for d in load_jsonl("perft.jsonl") if "equal scores" in d.get("note", "")]
    s = pw.new_game(
        circle=line["circle"], rules=pw.Rules(**line["rules"]), first_player=line["first_player"]
    )
    for kind, *args in line["moves"]:
        if kind == "advance":
            s = s.apply(A)
        elif kind == "special":
            s = s.apply(pw.PlaceSpecial(*args[0]))
        else:
            s = s.apply(find_buy(s, args[0], args[1]))
    assert s.is_terminal()
    a, b = s.scores()
    assert a == b
    assert s.winner() == s.first_to_finish == line["state"]["winner"]


def test_check_8_score_formula_and_bonus() -> None:
    quilt = "/".join(["xxxxxxx2"] * 7 + ["9", "9"])  # a covered 7x7 in the corner
    s = position(f"53,20,0,{quilt}", f"53,30,0,{EMPTY_QUILT}", bonus="0", first="1")
    assert s.is_terminal()
    empty0 = 81 - 49
    assert s.scores() == (20 + 7 - 2 * empty0, 30 - 2 * 81)
    assert s.winner() == 0


def test_check_8_scores_can_be_negative_and_the_game_still_has_a_winner() -> None:
    s = position(f"53,0,0,{EMPTY_QUILT}", f"53,0,0,{EMPTY_QUILT}", first="1")
    assert s.scores() == (-162, -162)
    assert s.winner() == 1


# -- check 9: statistics of random play and of the placement tables -----------------------------


def test_check_9_random_games_last_about_43_plies() -> None:
    lengths = [len(list(random_plies(seed, rng=random.Random(-seed)))) for seed in range(300)]
    mean = statistics.fmean(lengths)
    assert 41.0 <= mean <= 45.0, mean
    assert min(lengths) >= 25 and max(lengths) <= 75


def test_check_9_largest_turn_has_1345_legal_moves() -> None:
    counts = sorted(MODE_COUNT[3], reverse=True)
    assert counts[:4] == [448, 448, 448, 392]
    top = [p for p in range(33) if MODE_COUNT[3, p] == 448]
    assert top == [5, 18, 26]
    s = pw.new_game(circle=circle_starting(*top))
    moves = s.legal_moves()
    assert len(moves) == 1 + 3 * 448 == 1345
    assert len(set(moves)) == 1345


def test_check_9_footprint_totals_match_an_independent_count() -> None:
    assert MODE_COUNT[3].sum() == 7349
    assert sum(len(footprints(p, True, True)) for p in range(33)) == 7349
    for rotation, flip in [(False, False), (False, True), (True, False)]:
        mode = pw.Rules(rotation=rotation, flip=flip).mode
        for p in range(33):
            assert MODE_COUNT[mode, p] == len(footprints(p, rotation, flip)), (mode, p)


@pytest.mark.parametrize("patch", range(33))
def test_check_9_each_patch_has_its_footprints_as_legal_buys_on_an_empty_quilt(patch: int) -> None:
    s = position(f"0,20,0,{EMPTY_QUILT}", f"0,5,0,{EMPTY_QUILT}", circle=str(patch))
    buys = buys_of(s, patch)
    assert {frozenset(b.squares) for b in buys} == {
        frozenset(divmod(i, 9) for i in range(81) if fp >> i & 1)
        for fp in footprints(patch, True, True)
    }
    assert len(buys) == len(footprints(patch, True, True))
