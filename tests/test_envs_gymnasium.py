"""The Gymnasium environment: Gymnasium's own checker, whole games against every kind of
opponent, rewards, masks, reproducibility."""

from __future__ import annotations

import warnings
from itertools import pairwise
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import patchwork as pw
from patchwork.ai import GreedyAgent
from patchwork.envs import encoding as E
from patchwork.envs import render as R
from patchwork.envs.gymnasium import ENV_ID, PatchworkEnv


def play(
    env: gym.Env[Any, Any], seed: int, rng: np.random.Generator, **reset: Any
) -> list[tuple[Any, ...]]:
    """A whole episode of uniformly random masked actions: (obs, reward, term, info) per step."""
    obs, info = env.reset(seed=seed, **reset)
    steps: list[tuple[Any, ...]] = [(obs, 0.0, False, info)]
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(legal[rng.integers(len(legal))])
        assert not truncated
        done = terminated
        steps.append((obs, reward, terminated, info))
    return steps


@pytest.mark.parametrize("opponent", ["greedy", "self"])
def test_gymnasium_check_env(opponent: str) -> None:
    env = gym.make(ENV_ID, opponent=opponent, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings count as failures here
        check_env(env.unwrapped)
    env.close()


def test_registered_and_loadable_by_module_path() -> None:
    assert ENV_ID in gym.registry
    env = gym.make("patchwork.envs.gymnasium:Patchwork-v0", opponent="random")
    assert isinstance(env.unwrapped, PatchworkEnv)
    _, info = env.reset(seed=0)
    # Through gym.make's wrappers, as sb3-contrib finds it.
    assert (env.get_wrapper_attr("action_masks")() == info["action_mask"]).all()
    env.close()


def test_episodes_against_random() -> None:
    env = PatchworkEnv(opponent="random")
    rng = np.random.default_rng(0)
    wins = set()
    for seed in range(12):
        steps = play(env, seed, rng)
        for obs, _, _, info in steps:
            assert env.observation_space.contains(obs)
            assert info["player"] == env.player
        *_, (obs, reward, terminated, info) = steps
        state = env.state
        assert terminated and state.is_terminal()
        assert info["winner"] == state.winner() and info["scores"] == state.scores()
        assert reward == (1.0 if state.winner() == env.player else -1.0)
        assert all(r == 0.0 for _, r, _, _ in steps[:-1])
        assert not info["action_mask"].any() and not env.action_masks().any()
        wins.add(reward)
        with pytest.raises(pw.PatchworkError):
            env.step(0)
    assert wins == {1.0, -1.0}


def test_mask_in_info_and_action_masks_agree_with_the_engine() -> None:
    env = PatchworkEnv(opponent="greedy", agent_player=1)
    obs, info = env.reset(seed=4)
    assert env.player == 1
    # Player 0 (the opponent) starts: its first moves ran inside reset.
    assert env.state.players[0].position > 0
    rng = np.random.default_rng(1)
    while True:
        state = env.state
        assert state.current_player == 1
        mask = E.legal_action_mask(state)
        assert (info["action_mask"] == mask).all() and (env.action_masks() == mask).all()
        assert (obs == E.encode_observation(state, 1)).all()
        legal = np.flatnonzero(mask)
        obs, _, terminated, _, info = env.step(int(legal[rng.integers(len(legal))]))
        if terminated:
            break


def test_margin_shaping_sums_to_the_final_margin() -> None:
    env = PatchworkEnv(opponent="greedy", agent_player=0, margin_shaping=0.01)
    steps = play(env, 8, np.random.default_rng(2))
    total = sum(r for _, r, _, _ in steps)
    scores = env.state.scores()
    win = 1.0 if env.state.winner() == 0 else -1.0
    assert total == pytest.approx(win + 0.01 * (scores[0] - scores[1]))
    assert any(r != 0.0 for _, r, _, _ in steps[1:-1])


def test_illegal_actions_lose_or_raise() -> None:
    env = PatchworkEnv(opponent="random", agent_player=0)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[-1])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] and not info["action_mask"].any()
    assert env.observation_space.contains(obs)
    strict = PatchworkEnv(opponent="random", illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(pw.IllegalMoveError):
        strict.step(E.NUM_ACTIONS)


def test_seeded_episodes_repeat() -> None:
    a = PatchworkEnv(opponent="greedy")
    b = PatchworkEnv(opponent="greedy")
    one = play(a, 11, np.random.default_rng(5))
    two = play(b, 11, np.random.default_rng(5))
    assert len(one) == len(two)
    for x, y in zip(one, two, strict=True):
        assert (x[0] == y[0]).all() and x[1:3] == y[1:3]
    assert a.state == b.state


def test_opponents_of_every_kind() -> None:
    greedy = GreedyAgent(seed=3)

    def by_id(state: pw.State) -> int:
        return int(E.legal_actions(state)[0])  # always the lowest id: advance

    def by_move(state: pw.State) -> pw.Move:
        return greedy.choose(state)

    for opponent in (greedy, by_id, by_move, "level1"):
        env = PatchworkEnv(opponent=opponent, agent_player=0)
        steps = play(env, 2, np.random.default_rng(0))
        assert steps[-1][2] and env.state.is_terminal()
        env.close()

    def cheat(state: pw.State) -> int:
        return E.NUM_ACTIONS - 1

    env = PatchworkEnv(opponent=cheat, agent_player=1)
    with pytest.raises(pw.IllegalMoveError):
        env.reset(seed=0)
    with pytest.raises(pw.PatchworkError):
        PatchworkEnv(opponent=42)
    with pytest.raises(pw.PatchworkError):
        PatchworkEnv(opponent="nobody")


def test_self_play_follows_the_time_board() -> None:
    env = PatchworkEnv(opponent="self")
    obs, info = env.reset(seed=6)
    rng = np.random.default_rng(3)
    seats = []
    while True:
        state = env.state
        assert info["player"] == state.current_player
        assert (obs == E.encode_observation(state, state.current_player or 0)).all()
        seats.append(info["player"])
        legal = np.flatnonzero(info["action_mask"])
        mover = info["player"]
        obs, reward, terminated, _, info = env.step(int(legal[rng.integers(len(legal))]))
        if terminated:
            assert reward == (1.0 if env.state.winner() == mover else -1.0)
            break
    # turns do not alternate: somebody moved twice in a row
    assert any(a == b for a, b in pairwise(seats))


def test_reset_options_and_rules() -> None:
    rules = pw.Rules("original", rotation=False)
    env = PatchworkEnv(opponent="random", rules=rules, agent_player=0)
    circle = [5, 18, 26, *[i for i in range(1, 33) if i not in (5, 18, 26)], 0]
    _, info = env.reset(seed=0, options={"circle": circle})
    assert env.state.rules == rules and env.state.offered == (5, 18, 26)
    assert info["action_mask"].sum() == len(env.state.legal_moves())
    start = pw.new_game(seed=9)
    _, info = env.reset(options={"state": start, "agent_player": 1})
    assert env.player == 1 and env.state.current_player == 1


def test_render_rgb_array_as_stable_baselines3_asks_for_it() -> None:
    """sb3's ``make_vec_env("Patchwork-v0")`` makes every env with ``render_mode="rgb_array"``;
    Gymnasium's checker then renders it (and every other declared mode) and checks the image."""
    env = gym.make(ENV_ID, opponent="random", agent_player=0, render_mode="rgb_array")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    _, info = env.reset(seed=0)
    first = env.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8
    assert first.ndim == 3 and first.shape[2] == 3 and first.shape[0] > 100
    env.step(np.flatnonzero(info["action_mask"])[-1])  # a buy: a patch on the quilt
    later = env.render()
    assert isinstance(later, np.ndarray) and later.shape == first.shape
    assert (later != first).any()
    env.close()


def test_the_picture_shows_the_quilts_from_the_engine_s_squares() -> None:
    state = pw.new_game(seed=3)
    after = next(  # player 0 covers a1 (row 0, column 0)
        s for s in map(state.apply, state.legal_moves()) if (0, 0) in s.players[0].quilt
    )
    image = R.render_rgb(after)
    assert image.shape == (R.HEIGHT, R.WIDTH, 3)
    centre = R.QUILT_TOP + R.CELL // 2
    left, right = R.MARGIN + R.CELL // 2, R.MARGIN + 2 * R.MARGIN + R.QUILT + R.CELL // 2
    assert tuple(image[centre, left]) == R.PLAYERS[0]
    assert tuple(image[centre, right]) == R.EMPTY  # player 1's a1
    assert tuple(R.render_rgb(state)[centre, left]) == R.EMPTY
    with pytest.raises(pw.PatchworkError, match="'rgb_array'"):
        PatchworkEnv(render_mode="human")


def test_render_ansi() -> None:
    env = PatchworkEnv(opponent="random", agent_player=0, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    assert "you (0)" in text and "opponent (1)" in text and "offered:" in text
    assert text.count(".........") == 18  # two empty quilt boards
    with pytest.warns(UserWarning, match="render_mode"):
        assert PatchworkEnv().render() is None
