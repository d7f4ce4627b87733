"""The learned solo value (ai/solo_value.py): its inputs are what the person knows, its
compiled pass is the network, and the searcher uses it without peeking at Automa's deck."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import patchwork as pw
from patchwork.ai import mcts, solo, solo_value, value
from patchwork.ai.limit import Limit
from patchwork.ai.registry import get_agent
from patchwork.ai.search import MCTSAgent
from patchwork.engine import automa as A
from patchwork.engine.automa import Automa
from patchwork.engine.errors import PatchworkError
from patchwork.engine.state import State


def _weights(seed: int = 0) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    shapes = ((solo_value.N_INPUTS, 12), 12, (12, 5), 5, (5, 2), 2)
    return tuple(rng.normal(0.0, 0.3, shape) for shape in shapes)


def _played(level: int, deck: str, seed: int, moves: int) -> State:
    state = pw.new_game(seed=seed, rules=pw.Rules(solo=Automa(level, deck)))
    rng = random.Random(seed)
    for _ in range(moves):
        state = state.apply_code(rng.choice(list(state.legal_move_codes())))
    return state


def _inputs(state: State, world: solo.Worlds) -> np.ndarray:
    return solo_value.inputs(state, world, np.full(solo_value.N_INPUTS, np.nan))


@pytest.mark.parametrize("deck", ["normal", "tactical"])
def test_the_inputs_are_the_same_in_every_world_the_person_cannot_tell_apart(deck: str) -> None:
    state = _played(5, deck, 11, 9)
    rng = random.Random(3)
    real = _inputs(state, solo.world_of(state, A.hidden_part(state)))  # type: ignore[arg-type]
    assert not np.isnan(real).any()
    for _ in range(12):
        np.testing.assert_array_equal(_inputs(state, solo.sample_worlds(state, rng, 1)), real)
    at = value.N_INPUTS
    shows = deck == "tactical"
    assert real[at + 8] == float(shows)
    assert state.automa is not None
    budget = state.automa.next_budget
    assert real[at + 9] == pytest.approx(budget / 10 if shows and budget is not None else 0.0)


def test_the_inputs_hold_automas_points_by_its_level() -> None:
    state = _played(5, "normal", 12, 14)
    x = _inputs(state, solo.sample_worlds(state, random.Random(1), 1))
    assert state.automa is not None
    points = sum(n for _name, n in state.automa.score_parts)
    at = value.N_INPUTS
    assert x[at] * 50 == pytest.approx(points)
    assert x[at + 1] * 10 == pytest.approx(len(state.automa.with_buttons))
    np.testing.assert_array_equal(x[: value.N_INPUTS], _two_player_view(state))


def _two_player_view(state: State) -> np.ndarray:
    out = np.empty(value.N_INPUTS)
    value.features(state.vector, 0, out)
    return out


def test_the_compiled_pass_is_the_network() -> None:
    w = _weights()
    for seed, moves in ((1, 3), (2, 8), (4, 16)):
        state = _played(4, "tactical", seed, moves)
        world = solo.sample_worlds(state, random.Random(seed), 1)
        x = _inputs(state, world)
        h = np.maximum(x @ w[0] + w[1], 0)
        h = np.maximum(h @ w[2] + w[3], 0)
        margin, logit = (h @ w[4] + w[5]) * np.array([value.MARGIN_SCALE, 1.0])
        settings, cards = world.arrays
        run = np.zeros(3, dtype=np.int64)
        solo.start_run(settings, run)
        work = (np.empty(solo_value.N_INPUTS), np.empty(12), np.empty(5))
        won, got_margin = solo_value.evaluate(state.vector, settings, cards[0], run, w, *work)
        assert won == pytest.approx(1 / (1 + np.exp(-logit)))
        assert got_margin == pytest.approx(margin)


def test_with_no_share_the_network_plays_no_part_and_with_one_it_does() -> None:
    state = _played(5, "normal", 9, 4)

    def stats(mix: float, weights: tuple[np.ndarray, ...]) -> object:
        params = mcts.Params(solo_value_mix=mix, solo_value_weights=weights)
        return MCTSAgent(limit=Limit(iterations=600), params=params, seed=4).search(state)

    assert stats(0.0, _weights(1)).move_stats == stats(0.0, _weights(2)).move_stats  # type: ignore[attr-defined]
    assert stats(0.75, _weights(1)).move_stats != stats(0.75, _weights(2)).move_stats  # type: ignore[attr-defined]


def test_with_the_network_alone_the_search_still_never_peeks_at_the_deck() -> None:
    state = _played(5, "tactical", 21, 6)
    assert state.automa is not None
    other = A.sample_hidden(state.automa, random.Random(5))
    twin = State(state.vector, state.rules, other)
    assert twin.automa == state.automa and twin != state
    params = mcts.Params(solo_value_mix=1.0)
    a = MCTSAgent(limit=Limit(iterations=500), params=params, seed=2, reuse=False).search(state)
    b = MCTSAgent(limit=Limit(iterations=500), params=params, seed=2, reuse=False).search(twin)
    assert a.move_stats == b.move_stats and a.best_move == b.best_move


def test_weights_round_trip_and_drive_a_solo_search(tmp_path: Path) -> None:
    w = _weights(7)
    path = tmp_path / "solo.npz"
    np.savez(path, **dict(zip(value.NAMES, w, strict=True)))
    for a, b in zip(w, solo_value.load(path), strict=True):
        np.testing.assert_array_equal(a, b)
    state = _played(3, "normal", 8, 5)
    agent = get_agent(f"mcts@iterations=300,solo_value_mix=1,solo_value_weights={path}", seed=1)
    assert state.is_legal(agent.choose(state))


def test_the_package_ships_solo_weights_and_refuses_two_player_ones() -> None:
    assert mcts.Params().solo_value_weights is solo_value.WEIGHTS
    assert solo_value.WEIGHTS[0].shape[0] == solo_value.N_INPUTS
    with pytest.raises(PatchworkError, match=f"do not fit this version's {solo_value.N_INPUTS}"):
        solo_value.load(value.WEIGHTS_FILE)
