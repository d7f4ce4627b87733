"""Properties of random legal games (hypothesis): every rules combination, both start players,
any seed and any sequence of choices among the legal moves."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import patchwork as pw
from helpers import Ply, random_plies
from patchwork.engine import kernels

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

rules_st = st.builds(
    pw.Rules,
    edition=st.sampled_from(["revised", "original"]),
    rotation=st.booleans(),
    flip=st.booleans(),
)


class Plies(list[Ply]):
    """The plies of one random game, shown briefly when hypothesis reports a failure."""

    def __repr__(self) -> str:
        start = self[0].before.to_text() if self else "-"
        moves = " ".join(str(p.move) for p in self)
        return f"<{len(self)} plies from {start!r}: {moves}>"


@st.composite
def games(draw: st.DrawFn) -> Plies:
    """The plies of a random legal game, played to the end or cut short."""
    seed = draw(st.integers(0, 2**32 - 1))
    rules = draw(rules_st)
    first = draw(st.sampled_from([0, 1]))
    rng = draw(st.randoms(use_true_random=False))
    max_plies = draw(st.one_of(st.none(), st.integers(0, 60)))
    return Plies(random_plies(seed, rules, first, rng=rng, max_plies=max_plies))


def states_of(plies: list[Ply]) -> list[pw.State]:
    return [plies[0].before, *(p.after for p in plies)] if plies else []


@SETTINGS
@given(games())
def test_apply_never_mutates_its_input(plies: list[Ply]) -> None:
    for ply in plies:
        before = ply.before
        vector = before.vector.copy()
        text = before.to_text()
        players = before.players
        again = before.apply(ply.move)
        assert np.array_equal(before.vector, vector)
        assert before.to_text() == text
        assert before.players == players
        assert again == ply.after  # apply is a function of the state and the move
        assert again is not before
        assert not before.vector.flags.writeable


def test_state_vector_is_read_only() -> None:
    s = pw.new_game(seed=1)
    with pytest.raises(ValueError):
        s.vector[0] = 1


@SETTINGS
@given(games())
def test_no_overlap_and_only_the_mover_s_quilt_changes(plies: list[Ply]) -> None:
    for ply in plies:
        p = ply.before.current_player
        assert p is not None
        mine_before = ply.before.players[p].quilt.squares
        mine_after = ply.after.players[p].quilt.squares
        covered = ply.move.squares
        assert not covered & mine_before, f"{ply.move} overlaps"
        assert mine_after == mine_before | covered
        assert len(mine_after) == len(mine_before) + len(covered)
        assert ply.after.players[1 - p].quilt == ply.before.players[1 - p].quilt


@SETTINGS
@given(games())
def test_buttons_never_negative_and_tokens_only_move_forward(plies: list[Ply]) -> None:
    for ply in plies:
        p = ply.before.current_player
        assert p is not None
        for q in (0, 1):
            after, before = ply.after.players[q], ply.before.players[q]
            assert after.buttons >= 0
            assert before.position <= after.position <= 53
            assert after.income >= before.income
        assert ply.after.players[1 - p] == ply.before.players[1 - p]
        if isinstance(ply.move, pw.PlaceSpecial):
            assert ply.after.players[p].position == ply.before.players[p].position
            assert ply.after.players[p].buttons == ply.before.players[p].buttons
        else:
            assert ply.after.players[p].position > ply.before.players[p].position


@SETTINGS
@given(games())
def test_score_formula_for_both_players(plies: list[Ply]) -> None:
    for s in states_of(plies):
        expected = tuple(
            pl.buttons + (7 if s.bonus_owner == p else 0) - 2 * pl.quilt.empty_squares
            for p, pl in enumerate(s.players)
        )
        assert s.scores() == expected
        if s.is_terminal():
            a, b = expected
            assert s.winner() == (0 if a > b else 1 if b > a else s.first_to_finish)
        else:
            assert s.winner() is None


@SETTINGS
@given(games())
def test_turn_order_follows_the_time_board(plies: list[Ply]) -> None:
    for s in states_of(plies):
        a, b = (p.position for p in s.players)
        if s.pending_specials:
            continue
        if a == b == 53:
            assert s.current_player is None and s.is_terminal()
        elif a != b:
            assert s.current_player == (0 if a < b else 1)
        else:
            assert s.current_player == s.on_top


@SETTINGS
@given(games())
def test_moves_again_says_who_moves_after_a_move(plies: list[Ply]) -> None:
    """The kernel the playouts ask before a move agrees with the turn after it."""
    for ply in plies:
        before, after = ply.before, ply.after
        p = before.current_player
        if before.pending_specials or after.pending_specials or p is None:
            continue
        target = after.players[p].position
        assert kernels.moves_again(before.vector, p, target) == (after.current_player == p)


@SETTINGS
@given(games())
def test_next_offer_says_what_is_offered_after_a_move(plies: list[Ply]) -> None:
    """The kernel the playouts ask before a move agrees with the offer after it."""
    for ply in plies:
        before = ply.before
        if before.pending_specials:
            continue
        patch = getattr(ply.move, "patch_id", None)
        slot = -1 if patch is None else kernels.offered_slot(before.vector, patch)
        assert kernels.offer_size(before.vector) == len(before.offered)
        size = kernels.next_offer_size(before.vector, slot)
        offer = tuple(kernels.next_offer(before.vector, slot, k) for k in range(size))
        assert offer == ply.after.offered


@SETTINGS
@given(games())
def test_position_text_round_trips(plies: list[Ply]) -> None:
    for s in states_of(plies):
        text = s.to_text()
        back = pw.State.from_text(text)
        assert back.to_text() == text
        assert back == s, text
        assert hash(back) == hash(s)


def test_position_text_round_trips_after_player_1_placed_a_special_patch() -> None:
    empty = "9/9/9/9/9/9/9/9/9"
    s = pw.State.from_text(f"revised:rf 1,2,3 20,5,0,{empty} 26,5,0,{empty} 0 - - 1@1 32,38,44,50")
    s = s.apply(pw.PlaceSpecial(0, 0))
    assert s.pending_specials == 0
    text = s.to_text()
    assert pw.State.from_text(text).to_text() == text
    # Equal position texts must mean equal states (and equal hashes, for transposition tables).
    assert pw.State.from_text(text) == s


@SETTINGS
@given(games(), st.randoms(use_true_random=False))
def test_move_notation_round_trips(plies: list[Ply], rng: random.Random) -> None:
    states = [s for s in states_of(plies) if not s.is_terminal()]
    for s in rng.sample(states, min(3, len(states))):
        for move in s.legal_moves():
            text = str(move)
            assert pw.Move.parse(text, s) == move
            assert pw.parse_move(text) == move
            assert str(pw.parse_move(text)) == text  # the canonical name comes back


@SETTINGS
@given(games())
def test_legal_moves_are_distinct_footprints_and_all_legal(plies: list[Ply]) -> None:
    for s in states_of(plies)[::4]:
        moves = s.legal_moves()
        assert len(set(moves)) == len(moves)
        keys = {(type(m), getattr(m, "patch_id", None), m.squares) for m in moves}
        assert len(keys) == len(moves)
        assert len(s.legal_move_codes()) == len(moves)
        assert all(s.is_legal(m) for m in moves)
        if s.is_terminal():
            assert moves == []
        elif s.pending_specials:
            assert all(isinstance(m, pw.PlaceSpecial) for m in moves)
        else:
            assert moves[0] == pw.Advance()
            assert {m.patch_id for m in moves if isinstance(m, pw.Buy)} <= set(s.offered)


@SETTINGS
@given(games())
def test_every_legal_buy_uses_an_allowed_orientation(plies: list[Ply]) -> None:
    for s in states_of(plies)[::3]:
        rules = s.rules
        for m in s.legal_moves():
            if isinstance(m, pw.Buy):
                turned = m.orientation % 4 != 0
                flipped = m.orientation >= 4
                assert rules.rotation or not turned, m
                assert rules.flip or not flipped, m
                assert str(m)[len(str(m.patch_id))] in ("rf" if rules.flip else "r")


@SETTINGS
@given(games())
def test_replaying_a_record_gives_the_same_game(plies: list[Ply]) -> None:
    if not plies:
        return
    game = pw.Game(plies[0].before)
    for ply in plies:
        game.push(ply.move)
    record = game.to_record(players=("a", "b"), date="2026-01-01")
    for form in (record.to_json(), record.to_text()):
        back = pw.Record.parse(form)
        replayed = back.replay()
        assert replayed.state == game.state
        assert replayed.moves == game.moves
        assert [str(m) for m in replayed.moves] == record.moves
        assert back.rules == game.state.rules
        assert pw.Game.from_record(form).state == game.state
    if game.state.is_terminal():
        assert record.result is not None
        assert record.result["winner"] == game.state.winner()
        assert record.result["scores"] == list(game.state.scores())
    else:
        assert record.result is None


@SETTINGS
@given(games())
def test_game_pop_walks_back_through_every_state(plies: list[Ply]) -> None:
    if not plies:
        return
    game = pw.Game(plies[0].before)
    for ply in plies:
        game.push(ply.move)
    for ply in reversed(plies):
        assert game.state == ply.after
        assert game.pop() == ply.move
    assert game.state == plies[0].before
    assert len(game) == 0
