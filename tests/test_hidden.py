"""What the rules settle about the parts of a position a player's view leaves out
(engine/hidden.py), checked against every state that random play reaches."""

from __future__ import annotations

import patchwork as pw
from helpers import random_plies
from patchwork.engine import hidden

FINAL = pw.engine.data.FINAL_SPACE


def reached_states() -> list[pw.State]:
    states = []
    for seed in range(40):
        rules = pw.Rules("original" if seed % 2 else "revised")
        states += [ply.after for ply in random_plies(seed, rules, first_player=seed % 3 % 2)]
    return states


STATES = reached_states()


def tokens(state: pw.State) -> tuple[int, int]:
    return state.players[0].position, state.players[1].position


def test_random_play_reaches_the_cases_that_matter() -> None:
    to_move = [tokens(s) for s in STATES if s.current_player is not None]
    assert any(a == b for a, b in to_move)
    assert any(FINAL in t for t in to_move)
    assert any(t == (FINAL, FINAL) for t in map(tokens, STATES))


def test_a_player_with_a_special_patch_to_place_never_shares_a_space() -> None:
    # The fact both functions lean on.
    holding = [s for s in STATES if s.pending_specials]
    assert holding
    for state in holding:
        a, b = tokens(state)
        assert a != b
        assert tokens(state)[state.current_player] > tokens(state)[1 - state.current_player]


def test_what_the_rules_settle_is_what_play_gives() -> None:
    for state in STATES:
        me = state.current_player
        if me is None:
            assert hidden.first_to_finish(tokens(state), me) is None
            continue
        top = hidden.on_top(tokens(state), me)
        assert (top is None) == (tokens(state)[0] != tokens(state)[1])
        assert top in (None, state.on_top)
        assert hidden.first_to_finish(tokens(state), me) == state.first_to_finish
