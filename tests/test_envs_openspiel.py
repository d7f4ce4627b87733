"""The OpenSpiel game: OpenSpiel's own random simulation test (with serialisation), the chance
setup, turn order, utilities, observation tensors, round trips."""

from __future__ import annotations

import pickle
from itertools import pairwise

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.observation import make_observation

import patchwork as pw
from patchwork.envs import encoding as E
from patchwork.envs.openspiel import SHORT_NAME, PatchworkState


@pytest.mark.parametrize(
    "name",
    [
        "python_patchwork",
        "python_patchwork(seed=3)",
        "python_patchwork(edition=original,rotation=False,seed=-1)",
        "python_patchwork(flip=False,rotation=False,seed=5)",
    ],
)
def test_openspiel_random_sim_test(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_type_and_info() -> None:
    game = pyspiel.load_game(SHORT_NAME)
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_distinct_actions() == E.NUM_ACTIONS == 2026
    assert game.observation_tensor_shape() == [E.OBS_SIZE]
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    fixed = pyspiel.load_game(f"{SHORT_NAME}(seed=4)")
    assert fixed.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert not fixed.new_initial_state().is_chance_node()


def test_the_setup_is_drawn_by_chance() -> None:
    state = pyspiel.load_game(SHORT_NAME).new_initial_state()
    rng = np.random.default_rng(0)
    drawn = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert 0 not in [a for a, _ in outcomes]
        action = outcomes[rng.integers(len(outcomes))][0]
        drawn.append(action)
        state.apply_action(action)
    assert len(drawn) == 32 and sorted(drawn) == list(range(1, 33))
    assert isinstance(state, PatchworkState) and state.engine_state is not None
    assert state.engine_state.circle == (*drawn, 0)
    assert state.current_player() == 0


def test_a_whole_game_follows_the_engine() -> None:
    game = pyspiel.load_game(f"{SHORT_NAME}(seed=12)")
    state = game.new_initial_state()
    engine = pw.new_game(seed=12)
    rng = np.random.default_rng(2)
    players = []
    while not state.is_terminal():
        assert str(state) == engine.to_text()
        assert state.current_player() == engine.current_player
        legal = state.legal_actions()
        assert legal == E.legal_actions(engine).tolist()
        assert state.legal_actions(1 - state.current_player()) == []
        for p in (0, 1):
            assert state.observation_tensor(p) == pytest.approx(
                E.encode_observation(engine, p).tolist()
            )
        action = legal[rng.integers(len(legal))]
        assert state.action_to_string(state.current_player(), action) == str(
            E.action_to_move(engine, action)
        )
        players.append(state.current_player())
        state.apply_action(action)
        engine = engine.apply(E.action_to_move(engine, action))
    assert engine.is_terminal()
    winner = engine.winner()
    assert state.returns() == ([1.0, -1.0] if winner == 0 else [-1.0, 1.0])
    assert any(a == b for a, b in pairwise(players))  # no alternation
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions() == [] and state.legal_actions(0) == []


def test_serialisation_and_pickle_round_trip() -> None:
    game = pyspiel.load_game(SHORT_NAME)
    state = game.new_initial_state()
    rng = np.random.default_rng(4)
    for _ in range(50):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and str(state2) == str(state)
    assert state2.history() == state.history()
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state) and copy.legal_actions() == state.legal_actions()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert str(clone) != str(state)


def test_an_illegal_action_is_refused() -> None:
    state = pyspiel.load_game(f"{SHORT_NAME}(seed=1)").new_initial_state()
    illegal = next(a for a in range(E.NUM_ACTIONS) if a not in set(state.legal_actions()))
    with pytest.raises(pyspiel.SpielError):
        state.apply_action_with_legality_check(illegal)
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(illegal)


def test_observer_views_and_rl_environment() -> None:
    game = pyspiel.load_game(f"{SHORT_NAME}(seed=2)")
    observation = make_observation(game)
    state = game.new_initial_state()
    observation.set_from(state, 1)
    assert observation.dict["planes"].shape == (5, 9, 9)
    assert observation.dict["players"][0, E.PLAYER_FEATURES.index("to_move")] == 0.0
    assert observation.dict["players"][1, E.PLAYER_FEATURES.index("to_move")] == 1.0
    assert "observer 1" in observation.string_from(state, 1)
    env = rl_environment.Environment(f"{SHORT_NAME}(seed=2)")
    step = env.reset()
    moves = 0
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([step.observations["legal_actions"][player][0]])  # always advance
        moves += 1
    assert sorted(step.rewards) == [-1.0, 1.0] and moves > 0
