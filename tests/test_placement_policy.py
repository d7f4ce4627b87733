"""The placement policy's features, checked against a plain reading of the quilt."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from patchwork.ai import MCTSAgent, get_agent, policy, train, train_placements
from patchwork.engine.data import BOARD_SIZE, BONUS_SIZE
from patchwork.engine.errors import PatchworkError
from patchwork.engine.tables import PL_HI, PL_LO, bits_of, squares_of

Square = tuple[int, int]
MARGIN = (BOARD_SIZE - BONUS_SIZE) // 2


def neighbours(sq: Square) -> list[Square]:
    r, c = sq
    near = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
    return [(a, b) for a, b in near if 0 <= a < BOARD_SIZE and 0 <= b < BOARD_SIZE]


def pocket_size(start: Square, filled: frozenset[Square]) -> int:
    seen = {start}
    todo = [start]
    while todo:
        for n in neighbours(todo.pop()):
            if n not in filled and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen)


def expected_terms(quilt: frozenset[Square], k: int, bonus_open: bool) -> list[float]:
    """The features as PLACEMENT_FEATURES describes them, by sets and a flood fill."""
    patch = squares_of(int(PL_LO[k]), int(PL_HI[k]))
    filled = quilt | patch
    around = {n for sq in patch for n in neighbours(sq)} - patch
    empty_next = [sq for sq in around if sq not in filled]
    sizes = [pocket_size(sq, filled) for sq in empty_next]
    edge = sum(4 - len(neighbours(sq)) for sq in patch)
    central = {
        (r, c)
        for r in range(MARGIN, MARGIN + BONUS_SIZE)
        for c in range(MARGIN, MARGIN + BONUS_SIZE)
    }
    return [
        float(len(around & quilt)),
        float(edge),
        float(sum(n == 1 for n in sizes)),
        float(sum(2 <= n <= 3 for n in sizes)),
        float(len(empty_next)),
        float(sum(4 <= n <= 5 for n in sizes)),
        float(len(patch & central)) if bonus_open else 0.0,
    ]


def random_quilt(rng: random.Random) -> frozenset[Square]:
    share = rng.choice([0.0, 0.2, 0.5, 0.7, 0.9])
    return frozenset(
        (r, c) for r in range(BOARD_SIZE) for c in range(BOARD_SIZE) if rng.random() < share
    )


def test_features_match_a_plain_reading_of_the_quilt() -> None:
    rng = random.Random(7)
    checked = 0
    f = np.zeros(policy.N_PLACEMENT_FEATURES)
    while checked < 400:
        quilt = random_quilt(rng)
        k = rng.randrange(len(PL_LO))
        patch = squares_of(int(PL_LO[k]), int(PL_HI[k]))
        if patch & quilt:
            continue  # not a placement that fits
        lo, hi = bits_of(quilt)
        bonus_open = rng.random() < 0.5
        policy.placement_features(lo, hi, k, bonus_open, f)
        assert list(f) == expected_terms(quilt, k, bonus_open), (sorted(quilt), k)
        checked += 1


def test_the_heuristic_weights_count_contact_and_a_walled_in_square() -> None:
    # A patch laid into a corner of a quilt whose only other patch leaves one square alone.
    k = next(
        k for k in range(len(PL_LO)) if squares_of(int(PL_LO[k]), int(PL_HI[k])) == {(0, 0), (0, 1)}
    )
    quilt = frozenset({(1, 0), (1, 1), (1, 2), (0, 3)})
    lo, hi = bits_of(quilt)
    f = np.zeros(policy.N_PLACEMENT_FEATURES)
    policy.placement_features(lo, hi, k, False, f)
    named = dict(zip(policy.PLACEMENT_FEATURES, f, strict=True))
    assert named["holes"] == 1  # (0, 2) is walled in
    assert named["contact"] == 2 and named["edge"] == 3
    assert policy.placement_score(lo, hi, k, False, policy.HEURISTIC_PLACEMENT) == 2 + 3 - 4


def test_placement_weights_files_are_checked(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"weights": dict.fromkeys(policy.PLACEMENT_FEATURES, 1.5)}))
    assert np.all(policy.load_placement_weights(good) == 1.5)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"weights": {"contact": 1}}))
    with pytest.raises(PatchworkError, match=r"placement weights .* \(missing: edge"):
        policy.load_placement_weights(bad)


def test_the_fit_recovers_the_weights_that_made_the_values() -> None:
    """Only differences within a purchase count: each purchase's own offset is ignored."""
    rng = np.random.default_rng(3)
    true = rng.normal(size=policy.N_PLACEMENT_FEATURES)
    purchases = []
    for _ in range(300):
        rows = rng.normal(size=(int(rng.integers(2, 30)), policy.N_PLACEMENT_FEATURES))
        values = rows @ true + rng.normal() * 10 + rng.normal(size=len(rows)) * 0.1
        purchases.append(train_placements.Purchase(rows, values))
    w = train_placements.fit(purchases)
    assert np.max(np.abs(w - true)) < 0.02
    assert train_placements.regret(purchases, w) < 0.1 < train_placements.regret(purchases, None)


def test_regret_is_the_value_lost_against_the_best_placement() -> None:
    purchase = train_placements.Purchase(np.array([[1.0], [0.0], [2.0]]), np.array([3.0, 5.0, 1.0]))
    assert train_placements.regret([purchase], np.array([1.0])) == 4.0  # picks row 2
    assert train_placements.regret([purchase], np.array([-1.0])) == 0.0  # picks row 1
    assert train_placements.regret([purchase], None) == 2.0  # the mean is 3


def test_a_valued_game_compares_placements_of_each_purchase() -> None:
    purchases = train_placements.value_game((5, 4, True))
    assert len(purchases) > 10
    for p in purchases:
        assert 2 <= len(p.values) <= train_placements.MAX_PLACEMENTS
        assert p.features.shape == (len(p.values), policy.N_PLACEMENT_FEATURES)
    assert any(p.values.std() > 0 for p in purchases)  # placements do not all come out level
    assert (
        train_placements.value_game((5, 4, True))[3].values.tolist() == purchases[3].values.tolist()
    )


def test_train_placements_writes_weights_the_search_can_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "p.json"
    argv = ["--placements", "--games", "2", "--samples", "2", "--seed", "1", "--out", str(out)]
    assert train.main(argv) == 0
    assert "purchases from 2 games" in capsys.readouterr().out
    w = policy.load_placement_weights(out)
    assert w.shape == (policy.N_PLACEMENT_FEATURES,) and np.all(np.isfinite(w))
    agent = get_agent(f"mcts@placement_weights={out}")
    assert isinstance(agent, MCTSAgent)
    assert list(agent.params.placement_weights) == list(w)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--placements", "--iterations", "5"], "--iterations is for the purchase policy"),
        (["--placements", "--samples", "0"], "--samples must be at least 1"),
        (["--samples", "5"], "--samples is for --placements"),
    ],
)
def test_train_placements_refuses_bad_options_with_the_reason(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert train.main(args) == 2
    assert message in capsys.readouterr().err
