"""The searcher in solo games: Automa's turns inside the search are the engine's, and the
search sees only what the person may know (D6)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import patchwork as pw
from patchwork.ai import Limit, analyse
from patchwork.ai import solo as S
from patchwork.ai.search import MCTSAgent
from patchwork.engine import automa as A
from patchwork.engine import kernels as K
from patchwork.engine.automa import Automa
from patchwork.engine.state import State


def solo_game(level: int = 3, deck: str = "normal", seed: int = 4) -> State:
    return pw.new_game(seed=seed, rules=pw.Rules(solo=Automa(level, deck)))


def same_view_other_deck(state: State, seed: int) -> State:
    """The same position as the person sees it, with another hidden deck."""
    assert state.automa is not None
    other = A.sample_hidden(state.automa, random.Random(seed))
    assert other.deck != A.hidden_part(state).deck  # type: ignore[union-attr]
    return State(state.vector, state.rules, other)


@pytest.mark.parametrize(("level", "deck"), [(1, "normal"), (3, "tactical"), (5, "normal")])
def test_automa_inside_the_search_plays_as_the_engine_does(level: int, deck: str) -> None:
    # In the world of the game's real deck, the compiled replies and scores are the engine's.
    rng = random.Random(level)
    state = solo_game(level, deck, seed=10 + level)
    hidden = A.hidden_part(state)
    assert hidden is not None
    world = S.world_of(state, hidden)
    run = np.zeros(3, dtype=np.int64)
    S.start_run(world.settings, run)
    v = state.vector.copy()
    while not state.is_terminal():
        code = int(rng.choice(list(state.legal_move_codes())))
        state = state.apply_code(code)
        K.apply_move(v, code)
        S.automa_turns(v, world.settings, world.cards, run)
        assert np.array_equal(v, state.vector)
    won, margin = S.result(v, world.settings, run)
    person, automa = state.scores()
    assert (won == 1.0, margin) == (state.winner() == 0, person - automa)


def test_a_world_is_the_unseen_cards_then_whole_reshuffles() -> None:
    state = solo_game(2, "tactical").apply(pw.Advance())
    view = state.automa
    assert view is not None
    world = S.sample_world(state, random.Random(0))
    deck = [int(c) for c in world.cards[: view.cards_in_deck]]
    assert not set(deck) & set(view.cards_seen)
    assert A.CARDS[deck[0]].budget == view.next_budget
    rest = [int(c) for c in world.cards[view.cards_in_deck :]]
    for i in range(0, len(rest) - 12, 12):
        assert sorted(rest[i : i + 12]) == sorted(A.deck_cards("tactical"))


def test_the_search_never_peeks_at_the_deck() -> None:
    # Two positions that differ only in the hidden order get the same search, figure for figure.
    state = solo_game(4, "normal", seed=8)
    for move in ("A", "A"):
        state = state.apply(pw.Move.parse(move, state))
    twin = same_view_other_deck(state, 99)
    assert twin.automa == state.automa and twin != state
    a = MCTSAgent(limit=Limit(iterations=600), seed=3, reuse=False).search(state)
    b = MCTSAgent(limit=Limit(iterations=600), seed=3, reuse=False).search(twin)
    assert a.best_move == b.best_move and a.move_stats == b.move_stats
    assert (a.win_probability, a.margin) == (b.win_probability, b.margin)


def test_hints_in_a_solo_game() -> None:
    state = solo_game(3, "tactical")
    report = analyse(state, Limit(iterations=800), seed=1)
    assert state.is_legal(report.best_move)
    assert 0.0 <= report.win_probability <= 1.0 and report.iterations >= 800 - 8
    assert {c.move for c in report.candidates} <= set(state.legal_moves())
    two = analyse(state, Limit(iterations=800), workers=2, seed=1)
    assert state.is_legal(two.best_move) and two.iterations >= 800 - 8


def test_the_searcher_beats_the_intern() -> None:
    # Intern scores 0 or 7 (rule 17): a searcher that plays sensibly wins every game.
    for seed in range(3):
        state = solo_game(1, "normal", seed=seed)
        agent = MCTSAgent(limit=Limit(iterations=1000), seed=seed, reuse=False)
        while not state.is_terminal():
            state = state.apply(agent.choose(state))
        assert state.winner() == 0, state.scores()
