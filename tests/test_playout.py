"""Random playout kernels and the benchmark command."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import patchwork as pw
from patchwork import bench
from patchwork.engine import kernels as K
from patchwork.engine import layout as L
from patchwork.engine import playout as P
from patchwork.engine.state import make_state
from patchwork.engine.tables import FULL_HI, FULL_LO, PL_PATCH, bits_of

SEEDS = st.integers(0, 2**31 - 1)


def legal_codes(v: np.ndarray) -> set[int]:
    out = np.empty(K.MAX_MOVES, dtype=np.int64)
    n = K.legal_moves(v, out)
    return {int(c) for c in out[:n]}


def crowded_state(pending: int = 0) -> pw.State:
    """Player 0 to move, 20 buttons, a quilt board full but for a 2x3 hole at a1-c2; offered:
    patch 0 (1x2, fits 7 ways in the hole), 12 (1x4) and 13 (1x5), which fit nowhere."""
    hole_lo, hole_hi = bits_of((r, c) for r in range(2) for c in range(3))
    board = (FULL_LO & ~hole_lo, FULL_HI & ~hole_hi)
    circle = [0, 12, 13, *range(1, 12), *range(14, 33)]
    return make_state(pw.Rules(), circle, buttons=(20, 20), boards=(board, (0, 0)), pending=pending)


def draw(picker: str, v: np.ndarray, n: int, seed: int) -> Counter[int]:
    P.set_seed(seed)
    scratch = np.empty(P.SCRATCH_SIZE, dtype=np.int64)
    if picker == "uniform":
        return Counter(P.uniform_move(v, scratch) for _ in range(n))
    return Counter(P.piece_first_move(v) for _ in range(n))


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, setup=SEEDS)
def test_playouts_end_in_terminal_states_and_leave_the_input_alone(seed: int, setup: int) -> None:
    start = pw.new_game(seed=setup)
    before = np.array(start.vector)
    for playout, plies in (
        (P.uniform_playout, P.uniform_plies),
        (P.piece_first_playout, P.piece_first_plies),
    ):
        end = playout(start.vector, seed)
        assert K.is_terminal(end)
        assert K.current_player(end) == -1
        assert end[L.POSITION] == end[L.POSITION + 1] == K.FINAL
        assert end[L.BUTTONS] >= 0 and end[L.BUTTONS + 1] >= 0
        assert K.winner(end) in (0, 1)
        assert 20 <= plies(start.vector, seed) <= 120
        np.testing.assert_array_equal(start.vector, before)


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, setup=SEEDS)
def test_playouts_are_reproducible_from_a_seed(seed: int, setup: int) -> None:
    v = pw.new_game(seed=setup).vector
    for playout in (P.uniform_playout, P.piece_first_playout):
        np.testing.assert_array_equal(playout(v, seed), playout(v, seed))
    finals = {P.uniform_playout(v, seed + k).tobytes() for k in range(8)}
    assert len(finals) > 1  # and the seed matters


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, setup=SEEDS, picker=st.sampled_from(["uniform", "piece_first"]))
def test_every_picked_move_is_legal(seed: int, setup: int, picker: str) -> None:
    # Play a whole game with the picker, checking each move against the rules kernel.
    v = np.array(pw.new_game(seed=setup).vector)
    scratch = np.empty(P.SCRATCH_SIZE, dtype=np.int64)
    P.set_seed(seed)
    plies = 0
    while not K.is_terminal(v):
        code = P.uniform_move(v, scratch) if picker == "uniform" else P.piece_first_move(v)
        assert code in legal_codes(v)
        K.apply_move(v, code)
        plies += 1
    assert P.uniform_move(v, scratch) == P.piece_first_move(v) == -1
    assert 20 <= plies <= 120


def test_mean_game_length_of_uniform_random_play() -> None:
    # RULES.md: random play from a standard setup lasts about 43 plies on average.
    starts = np.stack([pw.new_game(seed=i).vector for i in range(200)])
    mean = P.uniform_games(starts, 200, 12345) / 200
    assert 38 <= mean <= 48
    mean_piece_first = P.piece_first_games(starts, 200, 12345) / 200
    assert 30 <= mean_piece_first <= 60


def test_games_kernels_count_the_plies_of_each_game() -> None:
    start = pw.new_game(seed=7).vector
    one_row = np.array(start)[None, :]
    assert P.uniform_games(one_row, 1, 99) == P.uniform_plies(start, 99)
    assert P.piece_first_games(one_row, 1, 99) == P.piece_first_plies(start, 99)
    assert P.uniform_games(one_row, 0, 99) == 0


def test_uniform_move_is_uniform_over_the_legal_moves() -> None:
    v = crowded_state().vector
    legal = legal_codes(v)
    assert len(legal) == 8  # advance and 7 placements of the 1x2 patch
    counts = draw("uniform", v, 8000, seed=1)
    assert set(counts) == legal
    for code in legal:
        assert 850 <= counts[code] <= 1150, (code, counts[code])


def test_piece_first_picks_the_option_then_the_placement_uniformly() -> None:
    # Options: advance and patch 0 (patches 12 and 13 are affordable but fit nowhere), each
    # half the time; patch 0's 7 placements share its half evenly.
    v = crowded_state().vector
    counts = draw("piece_first", v, 14000, seed=2)
    assert set(counts) == legal_codes(v)
    assert 6700 <= counts[K.ADVANCE] <= 7300
    for code in set(counts) - {K.ADVANCE}:
        assert 850 <= counts[code] <= 1150, (code, counts[code])


def test_piece_first_options_on_an_open_board() -> None:
    # Patches 1, 3 and 5 cost 1, 2 and 2 buttons: with 5 buttons all of them can be bought,
    # so advance and each patch are picked a quarter of the time.
    v = pw.new_game(circle=[1, 3, 5, 0, *range(6, 33), 2, 4]).vector
    counts = draw("piece_first", v, 8000, seed=3)
    by_option: Counter[int] = Counter()
    for code, n in counts.items():
        by_option[-1 if code == K.ADVANCE else int(PL_PATCH[code - K.BUY_BASE])] += n
    assert set(by_option) == {-1, 1, 3, 5}
    for option, n in by_option.items():
        assert 1800 <= n <= 2200, (option, n)


def test_piece_first_places_a_special_patch_on_a_random_empty_square() -> None:
    v = crowded_state(pending=1).vector
    counts = draw("piece_first", v, 6000, seed=4)
    assert set(counts) == legal_codes(v)
    assert len(counts) == 6  # the 6 squares of the hole
    for n in counts.values():
        assert 850 <= n <= 1150


def test_run_bench_measures_every_figure() -> None:
    results = bench.run_bench(seconds=0.05)
    expected = {
        "uniform_games_per_s",
        "piece_first_games_per_s",
        "mean_plies",
        "piece_first_mean_plies",
        "legal_moves_us",
        "apply_us",
        "state_legal_moves_ms",
        "opening_moves",
        "cold_start_s",
        "warm_start_s",
    }
    assert expected <= set(results)
    assert all(results[key] > 0 for key in expected)
    assert results["opening_moves"] == 1 + 3 * 448
    assert 30 <= results["mean_plies"] <= 60
    table = bench.format_table(results)
    assert "uniform random games" in table and "games/s" in table


def test_bench_command_prints_a_table_and_json_last(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = {key: 1.5 for key, _, _, _ in bench.ROWS}
    seen: list[float] = []

    def run_bench(seconds: float, progress: bench.Progress | None = None) -> dict[str, float]:
        seen.append(seconds)
        if progress is not None:
            progress("something")
        return fake

    monkeypatch.setattr(bench, "run_bench", run_bench)
    assert bench.main(["--json", "--seconds", "2.5"]) == 0
    out, err = capsys.readouterr()
    assert seen == [2.5]
    assert json.loads(out.strip().splitlines()[-1]) == fake
    assert "piece-first random games" in out
    assert "something" in err
    assert bench.main([]) == 0
    out, _ = capsys.readouterr()
    assert not out.strip().splitlines()[-1].startswith("{")
