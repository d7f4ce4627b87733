"""The learned value (ai/value.py): its inputs, its compiled forward pass, its use in the search."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from patchwork.ai import mcts, value
from patchwork.ai.levels import level
from patchwork.ai.limit import Limit
from patchwork.ai.registry import get_agent
from patchwork.ai.search import MCTSAgent
from patchwork.engine import data
from patchwork.engine import kernels as K
from patchwork.engine.errors import PatchworkError
from patchwork.engine.state import new_game


def _weights(seed: int = 0) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    shapes = ((value.N_INPUTS, 12), 12, (12, 5), 5, (5, 2), 2)
    return tuple(rng.normal(0.0, 0.3, shape) for shape in shapes)


def _inputs(state, p: int) -> np.ndarray:  # type: ignore[no-untyped-def]
    out = np.full(value.N_INPUTS, np.nan)
    value.features(state.vector, p, out)
    return out


def _played(seed: int, moves: int):  # type: ignore[no-untyped-def]
    state = new_game(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        codes = state.legal_move_codes()
        state = state.apply_code(int(codes[rng.integers(len(codes))]))
    return state


def test_the_inputs_see_each_quilt_the_buttons_and_the_circle() -> None:
    state = _played(3, 12)
    x = _inputs(state, 0)
    assert not np.isnan(x).any()
    for p, at in ((0, 0), (1, value.PLAYER_INPUTS)):
        quilt = state.players[p].quilt.squares
        covered = {9 * r + c for r, c in quilt}
        assert {i for i in range(value.SQUARES) if x[at + i] == 1.0} == covered
        assert x[at + value.SQUARES] == pytest.approx(state.players[p].buttons / 30)
    first = state.circle[0]
    at = 2 * value.PLAYER_INPUTS + 2
    assert x[at] == pytest.approx(data.PATCHES[first].buttons / 10)
    assert x[at + 3] == pytest.approx(len(data.PATCHES[first].cells) / 8)


def test_each_side_sees_itself_first() -> None:
    state = _played(5, 9)
    mine, theirs = _inputs(state, 0), _inputs(state, 1)
    n = value.PLAYER_INPUTS
    np.testing.assert_array_equal(mine[:n], theirs[n : 2 * n])
    np.testing.assert_array_equal(mine[n : 2 * n], theirs[:n])


def test_the_compiled_pass_is_the_network_and_speaks_for_player_0() -> None:
    w = _weights()
    for seed, moves in ((1, 4), (2, 7), (4, 15)):
        state = _played(seed, moves)
        v = state.vector
        p = K.current_player(v)
        x = _inputs(state, p)
        h = np.maximum(x @ w[0] + w[1], 0)
        h = np.maximum(h @ w[2] + w[3], 0)
        margin, logit = (h @ w[4] + w[5]) * np.array([value.MARGIN_SCALE, 1.0])
        won = 1 / (1 + np.exp(-logit))
        work = (np.empty(value.N_INPUTS), np.empty(12), np.empty(5))
        got_won, got_margin = value.evaluate(v, w, *work)
        if p == 1:
            won, margin = 1 - won, -margin
        assert got_won == pytest.approx(won)
        assert got_margin == pytest.approx(margin)


def test_weights_round_trip_and_drive_the_search(tmp_path: Path) -> None:
    w = _weights(7)
    path = tmp_path / "value.npz"
    np.savez(path, **dict(zip(value.NAMES, w, strict=True)))
    loaded = value.load(path)
    for a, b in zip(w, loaded, strict=True):
        np.testing.assert_array_equal(a, b)
    state = _played(8, 6)
    agent = get_agent(f"mcts@iterations=400,value_mix=1,value_weights={path}", seed=1)
    move = agent.choose(state)
    assert state.is_legal(move)


def test_with_no_share_the_network_plays_no_part() -> None:
    state = _played(9, 5)

    def stats(mix: float, weights: tuple[np.ndarray, ...]) -> dict[int, tuple[int, float, float]]:
        params = mcts.Params(value_mix=mix, value_weights=weights)
        agent = MCTSAgent(limit=Limit(iterations=600), params=params, seed=4)
        return agent.search(state).move_stats

    assert stats(0.0, _weights(1)) == stats(0.0, _weights(2))
    assert stats(0.75, _weights(1)) != stats(0.75, _weights(2))


def test_the_package_ships_weights_for_this_version() -> None:
    assert mcts.Params().value_weights is value.WEIGHTS
    assert value.WEIGHTS[0].shape[0] == value.N_INPUTS


@pytest.mark.parametrize(
    ("arrays", "says"),
    [
        ({"w1": np.zeros(3)}, "need arrays w1, b1"),
        ({k: np.zeros(2) for k in value.NAMES}, "do not fit this version's"),
    ],
)
def test_a_bad_weights_file_is_refused_with_the_reason(
    tmp_path: Path, arrays: dict[str, np.ndarray], says: str
) -> None:
    path = tmp_path / "bad.npz"
    np.savez(path, **arrays)
    with pytest.raises(PatchworkError, match=says):
        value.load(path)
    text = tmp_path / "text.npz"
    text.write_text("not numbers")
    with pytest.raises(PatchworkError, match=r"not an \.npz file"):
        value.load(text)
    with pytest.raises(PatchworkError, match="cannot read"):
        value.load(tmp_path / "missing.npz")


def test_the_ladder_below_the_top_plays_without_it() -> None:
    below, top = level(12), level(13)
    assert isinstance(below, MCTSAgent) and isinstance(top, MCTSAgent)
    assert below.params.value_mix == 0.0
    assert top.params.value_mix == mcts.VALUE_MIX > 0
