"""The PettingZoo AEC environment: PettingZoo's API and seed tests, turn order from the time
board, masks in the observation, rewards."""

from __future__ import annotations

import gc
import warnings
from itertools import pairwise

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import patchwork as pw
from patchwork.envs import encoding as E
from patchwork.envs.pettingzoo import env, raw_env

# Warnings the classic board games raise too (their names are on api_test's own lists).
CLASSIC_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


def test_pettingzoo_api_test() -> None:
    gc.collect()  # an earlier test's garbage finalized here would warn in this test's name
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(render_mode="ansi"), num_cycles=200)
    # (A ResourceWarning comes from a finalizer, whichever object the collector found.)
    messages = {str(w.message) for w in caught if not issubclass(w.category, ResourceWarning)}
    assert not [m for m in messages if not m.startswith(CLASSIC_WARNINGS)], messages


def test_pettingzoo_seed_test() -> None:
    seed_test(env, num_cycles=200)
    seed_test(lambda: raw_env(margin_shaping=0.1), num_cycles=200)


def test_turns_follow_the_time_board() -> None:
    game = raw_env()
    rng = np.random.default_rng(0)
    game.reset(seed=3)
    order = []
    for agent in game.agent_iter():
        obs, reward, terminated, truncated, info = game.last()
        if terminated or truncated:
            assert not obs["action_mask"].any()
            assert info["winner"] == game.state.winner()
            assert reward == (1.0 if agent == f"player_{game.state.winner()}" else -1.0)
            game.step(None)
            continue
        state = game.state
        assert agent == f"player_{state.current_player}"
        assert (obs["action_mask"] == E.legal_action_mask(state)).all()
        assert (obs["observation"] == E.encode_observation(state, int(agent[-1]))).all()
        other = game.observe(f"player_{1 - int(agent[-1])}")
        assert not other["action_mask"].any()  # only the player to move has actions
        assert reward == 0.0
        order.append(agent)
        legal = np.flatnonzero(obs["action_mask"])
        game.step(int(legal[rng.integers(len(legal))]))
    assert game.agents == []
    assert any(a == b for a, b in pairwise(order))  # no alternation


def test_rewards_with_margin_shaping_are_zero_sum() -> None:
    game = raw_env(margin_shaping=0.5)
    game.reset(seed=1)
    rng = np.random.default_rng(1)
    totals = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        obs, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        game.step(int(legal[rng.integers(len(legal))]))
        assert sum(game.rewards.values()) == pytest.approx(0.0)
        for a, r in game.rewards.items():
            totals[a] += r
        del agent
    scores = game.state.scores()
    win = 1.0 if game.state.winner() == 0 else -1.0
    assert totals["player_0"] == pytest.approx(win + 0.5 * (scores[0] - scores[1]))
    assert totals["player_1"] == pytest.approx(-totals["player_0"])


def test_illegal_actions() -> None:
    raw = raw_env()
    raw.reset(seed=0)
    illegal = int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[-1])
    with pytest.raises(pw.IllegalMoveError):
        raw.step(illegal)
    wrapped = env()
    wrapped.reset(seed=0)
    mover = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the wrapper warns about the illegal move
        wrapped.step(illegal)
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[mover] == -1


def test_reset_options_render_and_spaces() -> None:
    game = raw_env(rules=pw.Rules(rotation=False, flip=False), render_mode="ansi")
    circle = [0, *range(1, 33)]
    game.reset(options={"circle": circle})
    assert game.state.offered == (0, 1, 2) and game.agent_selection == "player_0"
    obs = game.observe("player_0")
    assert game.observation_space("player_0").contains(obs)
    assert game.action_space("player_1") == gym.spaces.Discrete(E.NUM_ACTIONS)
    text = game.render()
    assert isinstance(text, str) and "player_0" in text and "offered:" in text
    pictured = raw_env(render_mode="rgb_array")
    pictured.reset(options={"circle": circle})
    image = pictured.render()
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8 and image.shape[2] == 3
    start = pw.new_game(seed=2).apply(pw.parse_move("A"))
    game.reset(options={"state": start})
    assert game.agent_selection == "player_1"
