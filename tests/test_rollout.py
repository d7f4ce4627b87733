"""The playouts' learned purchase policy: its features, its moves, its weights file, its fit."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import patchwork as pw
from helpers import EMPTY_QUILT, circle_starting, position
from patchwork.ai import MCTSAgent, get_agent, mcts, policy, rollout, train
from patchwork.engine import kernels
from patchwork.engine.automa import Automa
from patchwork.engine.data import FINAL_SPACE, PATCHES

F = {name: i for i, name in enumerate(rollout.FEATURES)}


def features(state: pw.State, slot: int) -> np.ndarray:
    f = np.zeros(rollout.N_FEATURES)
    rollout.option_features(state.vector, int(kernels.current_player(state.vector)), slot, f)
    return f


def test_advance_is_described_by_the_spaces_it_moves_and_the_buttons_it_earns() -> None:
    state = position(f"10,3,0,{EMPTY_QUILT}", f"14,5,0,{EMPTY_QUILT}", specials="-")
    f = features(state, -1)
    assert f[F["advance"]] == 1.0
    assert f[F["time"]] == 5  # to the space just past the opponent's token
    assert f[F["buttons_after"]] == pytest.approx((3 + 5) / 10)
    assert f[F["advance_late"]] == pytest.approx(10 / FINAL_SPACE)
    assert f[F["squares_points"]] == f[F["price"]] == f[F["moves_again"]] == 0


def test_a_patch_is_described_by_its_squares_income_price_and_time() -> None:
    patch = PATCHES[1]
    state = position(
        f"0,20,0,{EMPTY_QUILT}",
        f"30,5,0,{EMPTY_QUILT}",
        circle=",".join(map(str, circle_starting(1))),
        specials="-",
    )
    f = features(state, 0)
    assert f[F["advance"]] == 0
    assert f[F["squares_points"]] == 2 * len(patch.cells)
    assert f[F["price"]] == -patch.buttons
    assert f[F["time"]] == patch.time
    assert f[F["income"]] == patch.income
    assert f[F["squares_emptiness"]] == pytest.approx(len(patch.cells))  # the quilt is empty
    assert f[F["rate"]] == pytest.approx(policy.patch_rate(1, 0))
    # Its token stays behind the opponent's at 30: the same player moves again.
    assert f[F["moves_again"]] == 1 and f[F["opponent_offer"]] == 0


def test_a_move_past_the_opponent_counts_what_the_opponent_is_offered_next() -> None:
    state = position(
        f"10,20,0,{EMPTY_QUILT}",
        f"11,0,0,{EMPTY_QUILT}",  # broke: none of the next offer is within reach
        circle=",".join(map(str, circle_starting(1))),
        specials="-",
    )
    assert features(state, 0)[F["moves_again"]] == 0
    assert features(state, 0)[F["opponent_offer"]] == 0


def test_special_patches_on_the_way_are_counted() -> None:
    spaces = pw.Rules().special_spaces
    start = spaces[0] - 1
    state = position(
        f"{start},5,0,{EMPTY_QUILT}",
        f"{start + 3},5,0,{EMPTY_QUILT}",
        specials=",".join(map(str, spaces)),
    )
    assert features(state, -1)[F["specials"]] == 1
    assert (
        features(
            position(f"{start},5,0,{EMPTY_QUILT}", f"{start + 3},5,0,{EMPTY_QUILT}", specials="-"),
            -1,
        )[F["specials"]]
        == 0
    )


def weights(**named: float) -> np.ndarray:
    w = np.zeros(rollout.N_FEATURES)
    for name, value in named.items():
        w[F[name]] = value
    return w


def test_the_policy_follows_its_weights() -> None:
    state = pw.new_game(seed=3)
    v = state.vector
    assert rollout.policy_move(v, weights(advance=100.0), 0.0, 8) == kernels.ADVANCE
    code = int(rollout.policy_move(v, weights(advance=-100.0, squares_points=1.0), 0.0, 8))
    bought = pw.engine.tables.PL_PATCH[code - kernels.BUY_BASE]
    offered = [p for p in state.offered if PATCHES[p].buttons <= 5]
    assert bought == max(offered, key=lambda p: len(PATCHES[p].cells))


def test_playouts_by_the_shipped_weights_play_only_legal_moves_to_the_end() -> None:
    for seed in range(20):
        policy.seed(seed)
        v = pw.new_game(seed=seed).vector.copy()
        moves = 0
        while not kernels.is_terminal(v):
            code = rollout.policy_move(v, rollout.WEIGHTS, 1.0, 8)
            assert kernels.is_legal(v, code)
            kernels.apply_move(v, code)
            moves += 1
        assert moves > 20


def test_the_search_plays_with_either_playout_policy() -> None:
    state = pw.new_game(seed=5)
    for tau in (0.0, 1.0):
        tree = mcts.Tree(5000)
        tree.run(state.vector, 500, mcts.Params(rollout_tau=tau))
        assert tree.visits[0] == 500


def test_the_shipped_weights_load_and_name_every_feature() -> None:
    doc = json.loads(rollout.WEIGHTS_FILE.read_text())
    assert list(doc["weights"]) == list(rollout.FEATURES)
    assert np.array_equal(rollout.load_weights(), rollout.WEIGHTS)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "need an object"),
        ('{"weights": {"advance": 1}}', "missing: advance_late"),
        (
            json.dumps({"weights": {**dict.fromkeys(rollout.FEATURES, 0.0), "extra": 1}}),
            "unknown: extra",
        ),
        (json.dumps({"weights": {**dict.fromkeys(rollout.FEATURES, 0.0), "slot": "x"}}), "finite"),
    ],
)
def test_a_bad_weights_file_is_refused_with_the_reason(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "w.json"
    path.write_text(content)
    with pytest.raises(pw.PatchworkError, match=message):
        rollout.load_weights(path)
    with pytest.raises(pw.PatchworkError, match="cannot read"):
        rollout.load_weights(tmp_path / "missing.json")


def test_the_fit_recovers_the_weights_that_made_the_choices() -> None:
    rng = np.random.default_rng(7)
    true = rng.normal(size=rollout.N_FEATURES)
    decisions = []
    for _ in range(6000):
        rows = rng.normal(size=(int(rng.integers(2, 5)), rollout.N_FEATURES))
        u = rows @ true
        p = np.exp(u - u.max())
        decisions.append(train.Decision(rows, int(rng.choice(len(rows), p=p / p.sum()))))
    w = train.fit(decisions)
    assert np.max(np.abs(w - true)) < 0.15
    assert train.log_loss(decisions, w) < train.log_loss(decisions, np.zeros_like(w))
    assert train.agreement(decisions, w=w) > 0.6


def test_train_writes_weights_the_search_can_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "w.json"
    assert train.main(["--games", "2", "--iterations", "40", "--seed", "1", "--out", str(out)]) == 0
    assert "decisions from 2 games" in capsys.readouterr().out
    w = rollout.load_weights(out)
    assert w.shape == (rollout.N_FEATURES,) and np.all(np.isfinite(w))
    assert json.loads(out.read_text())["trained"]["games"] == 2


def test_train_solo_fits_the_persons_purchases_against_the_automa(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "solo.json"
    args = ["--solo", "5", "--decks", "tactical", "--games", "2", "--iterations", "60"]
    assert train.main([*args, "--seed", "1", "--out", str(out)]) == 0
    assert "decisions from 2 games" in capsys.readouterr().out
    trained = json.loads(out.read_text())["trained"]
    assert (trained["solo_level"], trained["decks"]) == (5, ["tactical"])
    # Only the person's decisions are recorded: Automa's turns are the rules', not the search's.
    decisions = train.self_play(train.Setup(3, 60, 1.0, Automa(5, "normal")))
    assert decisions and all(len(d.features) > 1 for d in decisions)
    agent = get_agent(f"mcts@solo_weights={out},worlds=4")
    assert isinstance(agent, MCTSAgent) and agent.worlds == 4
    assert np.array_equal(agent.params.solo_weights, rollout.load_weights(out))
    assert np.array_equal(agent.params.rollout_weights, rollout.WEIGHTS)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "1"], "at least 2"),
        (["--out", "w.txt"], "must name a .json file"),
        (["--out", "no/such/folder/w.json"], "no such folder"),
    ],
)
def test_train_refuses_bad_options_with_the_reason(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert train.main(args) == 2
    assert message in capsys.readouterr().err


def test_an_agent_name_can_name_a_weights_file(tmp_path: Path) -> None:
    """So a match can set weights from ``patchwork train`` against the shipped ones."""
    weights = dict(zip(rollout.FEATURES, range(rollout.N_FEATURES), strict=True))
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"weights": weights}))
    agent = get_agent(f"mcts@rollout_weights={path}")
    assert isinstance(agent, MCTSAgent)
    assert list(agent.params.rollout_weights) == list(range(rollout.N_FEATURES))
    with pytest.raises(pw.PatchworkError, match=r"bad value for rollout_weights.*cannot read"):
        get_agent(f"mcts@rollout_weights={tmp_path / 'missing.json'}")


def test_an_option_is_drawn_from_the_softmax_of_its_utilities() -> None:
    policy.seed(4)
    utility = np.array([0.3, -np.inf, 1.0, -0.5])
    odds = np.empty(4)
    draws = np.bincount([rollout._sample(utility, 0.7, odds) for _ in range(40_000)], minlength=4)
    expected = np.exp(utility / 0.7) / np.exp(utility / 0.7).sum()
    assert draws[1] == 0
    assert np.allclose(draws / draws.sum(), expected, atol=0.01)
    assert rollout._sample(utility, 0.0, odds) == 2
