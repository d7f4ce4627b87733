"""The shared action ids and observation: ids round-trip to moves, the mask is the engine's
legal moves (one id each), the observation says what the state says."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import patchwork as pw
from helpers import ALL_RULES, random_plies
from patchwork.engine import PatchworkError, data
from patchwork.engine import kernels as K
from patchwork.envs import encoding as E

# The opening with the most legal moves: 1 advance + 3 patches x 448 placements.
WIDEST_OPENING = [5, 18, 26, *[i for i in range(1, 33) if i not in (5, 18, 26)], 0]


@pytest.fixture(scope="module")
def positions() -> list[pw.State]:
    """Non-terminal positions of random games under every rules combination."""
    out: list[pw.State] = []
    for i, rules in enumerate(ALL_RULES):
        out += [ply.before for ply in random_plies(seed=100 + i, rules=rules)]
    return out


def expected_id(state: pw.State, move: pw.Move) -> int:
    """The id a move should get, built from the description in docs/envs.md."""
    if isinstance(move, pw.Advance):
        return 0
    if isinstance(move, pw.PlaceSpecial):
        return 1 + 9 * move.row + move.col
    assert isinstance(move, pw.Buy)
    slot = state.offered.index(move.patch_id)
    return 82 + (8 * slot + move.orientation) * 81 + 9 * move.row + move.col


def test_action_count_and_layout() -> None:
    assert E.NUM_ACTIONS == 1 + 81 + 3 * 8 * 81 == 2026
    assert E.buy_action(0, 0, 0, 0) == 82
    assert E.buy_action(2, 7, 8, 8) == E.NUM_ACTIONS - 1
    for a in range(E.NUM_ACTIONS):
        kind, slot, orientation, row, col = E.decode_action(a)
        if kind == "buy":
            assert E.buy_action(slot, orientation, row, col) == a
        elif kind == "special":
            assert a == 1 + 9 * row + col
        else:
            assert a == 0
    with pytest.raises(PatchworkError):
        E.decode_action(E.NUM_ACTIONS)


def test_mask_is_the_engines_legal_moves(positions: list[pw.State]) -> None:
    assert len(positions) > 150
    for state in positions:
        moves = state.legal_moves()
        mask = E.legal_action_mask(state)
        assert mask.dtype == np.int8 and mask.shape == (E.NUM_ACTIONS,)
        want = sorted(expected_id(state, m) for m in moves)
        assert len(set(want)) == len(moves)  # one id per distinct legal move
        assert np.flatnonzero(mask).tolist() == want
        assert E.legal_actions(state).tolist() == want
        codes = state.legal_move_codes()
        ids = E.codes_to_actions(state, codes)
        assert sorted(ids.tolist()) == want
        assert (E.actions_to_codes(state, ids) == codes).all()


def test_ids_round_trip_to_moves(positions: list[pw.State]) -> None:
    for state in positions[::3]:
        for move in state.legal_moves():
            action = E.move_to_action(state, move)
            back = E.action_to_move(state, action)
            assert back == move and str(back) == str(move)
            assert E.is_legal_action(state, action)
            assert state.apply(back) == state.apply(move)


def test_every_other_id_is_rejected(positions: list[pw.State]) -> None:
    everything = np.arange(E.NUM_ACTIONS)
    other_orientations = 0
    for state in positions[::7]:
        mask = E.legal_action_mask(state)
        codes = E.actions_to_codes(state, everything)
        for a in range(E.NUM_ACTIONS):
            assert E.is_legal_action(state, a) == bool(mask[a])
            assert E.action_to_code(state, a) == codes[a]
            if mask[a] or codes[a] < 0:
                continue
            # Names a move that is illegal here, or a legal move under another orientation.
            v = state.vector
            if K.is_legal(v, int(codes[a])):
                listed = int(E.codes_to_actions(state, [codes[a]])[0])
                assert listed != a and mask[listed]
                assert E.action_to_move(state, a) == E.action_to_move(state, listed)
                other_orientations += 1
    assert other_orientations > 100


def test_symmetric_orientations_share_one_id() -> None:
    state = pw.new_game(circle=WIDEST_OPENING)
    mask = E.legal_action_mask(state)
    assert mask.sum() == 1 + 3 * 448  # the largest turn of the game (RULES.md check 9)
    # Patch 0's 1x2 shape: turned 180 degrees it covers the same squares as unturned.
    state = pw.new_game(circle=[0, *range(1, 33)])
    assert state.offered[0] == 0
    straight = E.buy_action(0, 0, 0, 0)
    turned = E.buy_action(0, 2, 0, 0)
    assert mask_of(state)[straight] == 1 and mask_of(state)[turned] == 0
    assert E.action_to_move(state, turned) == E.action_to_move(state, straight)
    assert E.move_to_action(state, E.action_to_move(state, turned)) == straight


def mask_of(state: pw.State) -> np.ndarray:
    return E.legal_action_mask(state)


def test_ids_that_name_nothing() -> None:
    plain = pw.new_game(seed=3, rules=pw.Rules(rotation=False, flip=False))
    with pytest.raises(PatchworkError):  # turning is not allowed under these rules
        E.action_to_move(plain, E.buy_action(0, 1, 0, 0))
    assert E.action_to_code(plain, E.buy_action(0, 1, 0, 0)) == -1
    assert not E.is_legal_action(plain, E.buy_action(0, 1, 0, 0))
    assert E.action_to_string(plain, E.buy_action(0, 1, 0, 0)).startswith("buy(slot 0")
    state = pw.new_game(seed=3)
    with pytest.raises(PatchworkError):  # sticks out of the quilt board
        E.action_to_move(state, E.buy_action(0, 0, 8, 8))
    assert E.action_to_code(state, -1) == E.action_to_code(state, E.NUM_ACTIONS) == -1
    not_offered = next(i for i in range(1, 33) if i not in state.offered)
    move = pw.Buy(not_offered, 0, 0, 0)
    with pytest.raises(PatchworkError):
        E.move_to_action(state, move)
    # Late in a game fewer than three patches are offered: the empty slots name nothing.
    end = pw.new_game(circle=[1, 2, *range(3, 33), 0])
    short = pw.State.from_text(end.to_text().replace(end.to_text().split()[1], "7,8", 1))
    assert short.offered == (7, 8)
    with pytest.raises(PatchworkError):
        E.action_to_move(short, E.buy_action(2, 0, 0, 0))
    assert E.action_to_string(short, E.buy_action(2, 0, 0, 0)).startswith("buy(slot 2")


def test_special_patches_use_the_square_ids() -> None:
    seen = 0
    for i in range(6):
        for ply in random_plies(seed=200 + i):
            state = ply.before
            if not state.pending_specials:
                continue
            seen += 1
            mask = E.legal_action_mask(state)
            me = state.players[state.current_player or 0]
            empty = [1 + 9 * r + c for r in range(9) for c in range(9) if (r, c) not in me.quilt]
            assert np.flatnonzero(mask).tolist() == empty
    assert seen > 0


def test_observation_says_what_the_state_says(positions: list[pw.State]) -> None:
    for state in positions[::5]:
        for observer in (0, 1):
            obs = E.encode_observation(state, observer)
            assert obs.dtype == np.float32 and obs.shape == (E.OBS_SIZE,)
            assert ((obs >= E.OBS_LOW) & (obs <= E.OBS_HIGH)).all()
            view = E.split_observation(obs)
            me, them = state.players[observer], state.players[1 - observer]
            for plane, player in ((0, me), (1, them)):
                covered = {(int(r), int(c)) for r, c in np.argwhere(view["planes"][plane])}
                assert covered == set(player.quilt.squares)
            for slot in range(3):
                shape = view["planes"][2 + slot]
                if slot < len(state.offered):
                    cells = data.PATCHES[state.offered[slot]].cells
                    assert {(int(r), int(c)) for r, c in np.argwhere(shape)} == set(cells)
                else:
                    assert not shape.any()
            scores = state.scores()
            for row, p in ((0, observer), (1, 1 - observer)):
                f = dict(zip(E.PLAYER_FEATURES, view["players"][row], strict=True))
                player = state.players[p]
                assert f["buttons"] == pytest.approx(player.buttons / 100)
                assert f["income"] == pytest.approx(player.income / 10)
                assert f["position"] == pytest.approx(player.position / 53)
                assert f["score"] == pytest.approx(scores[p] / 100)
                assert f["empty_squares"] == pytest.approx(player.quilt.empty_squares / 81)
                assert f["bonus_tile"] == (state.bonus_owner == p)
                assert f["to_move"] == (state.current_player == p)
            game = dict(zip(E.GAME_FEATURES, view["game"], strict=True))
            assert game["pending_specials"] == pytest.approx(state.pending_specials / 5)
            assert game["circle_left"] == pytest.approx(len(state.circle) / 33)
            time_board = view["time_board"]
            assert np.flatnonzero(time_board[0]).tolist() == [me.position]
            assert np.flatnonzero(time_board[1]).tolist() == [them.position]
            assert np.flatnonzero(time_board[2]).tolist() == list(state.special_spaces_left)
            assert np.flatnonzero(time_board[3]).tolist() == list(data.INCOME_SPACES)
            nxt = view["next_patches"]
            for j in range(E.NEXT_PATCHES):
                ids = np.flatnonzero(nxt[j, : data.NUM_PATCHES]).tolist()
                assert ids == ([state.circle[j]] if j < len(state.circle) else [])
            where = view["circle"]
            assert np.flatnonzero(where[:, 0]).tolist() == sorted(state.circle)
            for j, patch in enumerate(state.circle):
                assert where[patch, 1] == pytest.approx((j + 1) / 33)


def test_observers_see_the_same_game_from_both_sides(positions: list[pw.State]) -> None:
    for state in positions[::11]:
        a = E.split_observation(E.encode_observation(state, 0))
        b = E.split_observation(E.encode_observation(state, 1))
        assert (a["planes"][:2] == b["planes"][1::-1]).all()
        assert (a["players"] == b["players"][::-1]).all()
        assert (a["time_board"][:2] == b["time_board"][1::-1]).all()
        out = np.full(E.OBS_SIZE, 7.0, dtype=np.float32)
        assert E.encode_observation(state, 1, out=out) is out
        assert (out == E.encode_observation(state, 1)).all()


def test_final_observation_and_text() -> None:
    *_, last = random_plies(seed=5)
    final = last.after
    assert final.is_terminal()
    assert not E.legal_action_mask(final).any()
    view = E.split_observation(E.encode_observation(final, 0))
    assert not view["players"][:, E.PLAYER_FEATURES.index("to_move")].any()
    text = E.render_text(final)
    assert "game over" in text and "score" in text


def test_core_package_does_not_import_the_frameworks() -> None:
    code = (
        "import sys, patchwork, patchwork.envs, patchwork.envs.encoding;"
        "bad = [m for m in ('gymnasium', 'pettingzoo', 'pyspiel') if m in sys.modules];"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize(
    ("module", "framework", "extra"),
    [
        ("gymnasium", "gymnasium", "rl"),
        ("pettingzoo", "pettingzoo", "rl"),
        ("openspiel", "pyspiel", "openspiel"),
    ],
)
def test_a_missing_framework_names_the_extra(module: str, framework: str, extra: str) -> None:
    code = (
        f"import sys; sys.modules[{framework!r}] = None\n"
        "from patchwork.envs import MissingExtraError\n"
        "try:\n"
        f"    import patchwork.envs.{module}\n"
        "except MissingExtraError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert f"patchwork-game[{extra}]" in out.stdout
