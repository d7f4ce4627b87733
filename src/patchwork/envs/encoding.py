"""The fixed action ids and the observation vector every adapter shares (see docs/envs.md).

Actions (``NUM_ACTIONS`` = 2,026 integer ids):

    0                       advance (action A)
    1 + square              place a special patch on ``square`` (= 9*row + col), ids 1-81
    82 + (8*slot + o)*81 + square
                            buy the patch in offered slot 0-2 (clockwise from the neutral
                            token), in orientation ``o`` (0-7, as in the engine), its
                            bounding box's top-left on ``square``: ids 82-2025

An id *names* a move (or nothing, where the slot is empty or the patch would stick out of
the quilt board); whether that move is legal is the engine's word. Several ids can name one
move (a square patch turned 90 degrees covers the same squares), so the legality mask keeps
exactly one id per distinct legal move: the one built from the orientation the engine lists
for that footprint (the orientation of the ``Buy`` objects ``State.legal_moves()`` returns).
The conversions go through numpy tables, never a Python loop per move.

The observation is one float32 vector of ``OBS_SIZE`` values, seen by one player (the
*observer*; "opponent" is the other player). ``OBS_SECTIONS`` gives each section's offset
and shape and ``split_observation`` returns named views; docs/envs.md lists every value.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt
from numba import njit

from ..engine import Buy, Move, Rules, State, data, new_game
from ..engine import kernels as K
from ..engine import layout as L
from ..engine.errors import InvalidMoveError, PatchworkError
from ..engine.moves import move_from_code
from ..engine.tables import (
    CANONICAL,
    ORIENTATIONS,
    PATCH_BUTTONS,
    PATCH_INCOME,
    PATCH_TIME,
    PAYDAYS_AHEAD,
    PL_COL,
    PL_ORIENT,
    PL_PATCH,
    PL_ROW,
    PLACEMENT_INDEX,
)

I64 = npt.NDArray[np.int64]
I8 = npt.NDArray[np.int8]
F32 = npt.NDArray[np.float32]

# -- actions ------------------------------------------------------------------------------

BOARD: Final = data.BOARD_SIZE
SQUARES: Final = BOARD * BOARD
SLOTS: Final = data.OFFERED_PATCHES
ADVANCE_ACTION: Final = 0
SPECIAL_ACTION_BASE: Final = 1
BUY_ACTION_BASE: Final = SPECIAL_ACTION_BASE + SQUARES  # 82
ACTIONS_PER_SLOT: Final = ORIENTATIONS * SQUARES  # 648
NUM_ACTIONS: Final = BUY_ACTION_BASE + SLOTS * ACTIONS_PER_SLOT  # 2026

# The engine's codes for advancing and placing a special patch are the ids themselves.
assert K.ADVANCE == ADVANCE_ACTION and K.SPECIAL_BASE == SPECIAL_ACTION_BASE
assert K.BUY_BASE == BUY_ACTION_BASE

# Global placement k -> its id within a slot: orientation * 81 + anchor square.
_PL_LOCAL: I64 = PL_ORIENT * SQUARES + PL_ROW * BOARD + PL_COL
_PLACEMENTS_FLAT: I64 = PLACEMENT_INDEX.reshape(data.NUM_PATCHES, ACTIONS_PER_SLOT)
_NO_PATCH = data.NUM_PATCHES  # index of an all-(-1) row appended to per-patch tables
_PLACEMENTS_PADDED: I64 = np.vstack(
    [_PLACEMENTS_FLAT, np.full((1, ACTIONS_PER_SLOT), -1, dtype=np.int64)]
)


def _offered(v: I64) -> I64:
    """The patches in the three offered slots, ``_NO_PATCH`` where a slot is empty."""
    offered = v[L.CIRCLE : L.CIRCLE + SLOTS].copy()
    offered[offered < 0] = _NO_PATCH
    return offered


def buy_action(slot: int, orientation: int, row: int, col: int) -> int:
    """The id of buying the patch in ``slot`` in ``orientation`` at anchor (row, col)."""
    if not (0 <= slot < SLOTS and 0 <= orientation < ORIENTATIONS):
        raise InvalidMoveError(f"no buy action for slot {slot}, orientation {orientation}")
    if not (0 <= row < BOARD and 0 <= col < BOARD):
        raise InvalidMoveError(f"square ({row}, {col}) is off the quilt board")
    return BUY_ACTION_BASE + slot * ACTIONS_PER_SLOT + orientation * SQUARES + row * BOARD + col


def decode_action(action: int) -> tuple[str, int, int, int, int]:
    """What an id says, without a position: ``("advance", 0, 0, 0, 0)``,
    ``("special", 0, 0, row, col)`` or ``("buy", slot, orientation, row, col)``."""
    a = int(action)
    if not 0 <= a < NUM_ACTIONS:
        raise InvalidMoveError(f"action {action!r} is not an id 0-{NUM_ACTIONS - 1}")
    if a == ADVANCE_ACTION:
        return ("advance", 0, 0, 0, 0)
    if a < BUY_ACTION_BASE:
        row, col = divmod(a - SPECIAL_ACTION_BASE, BOARD)
        return ("special", 0, 0, row, col)
    slot, rest = divmod(a - BUY_ACTION_BASE, ACTIONS_PER_SLOT)
    orientation, square = divmod(rest, SQUARES)
    row, col = divmod(square, BOARD)
    return ("buy", slot, orientation, row, col)


@njit(cache=True)
def _codes_to_actions(v: I64, codes: I64, out: I64) -> None:
    offered = min(SLOTS, v[L.CIRCLE_LEN])
    for i in range(len(codes)):
        c = codes[i]
        if c < BUY_ACTION_BASE:
            out[i] = c
            continue
        k = c - BUY_ACTION_BASE
        out[i] = -1
        for slot in range(offered):
            if v[L.CIRCLE + slot] == PL_PATCH[k]:
                out[i] = BUY_ACTION_BASE + slot * ACTIONS_PER_SLOT + _PL_LOCAL[k]


@njit(cache=True)
def _legal(v: I64, ids: I64, mask: I8) -> int:
    """Write the legal ids into ``ids`` (size >= K.MAX_MOVES) and, when ``mask`` is not
    empty, 1 at each into ``mask`` (zeroed first); return how many."""
    codes = np.empty(K.MAX_MOVES, dtype=np.int64)
    n = K.legal_moves(v, codes)
    _codes_to_actions(v, codes[:n], ids)
    if len(mask):
        mask[:] = 0
        for i in range(n):
            mask[ids[i]] = 1
    return n


_NO_MASK = np.zeros(0, dtype=np.int8)


def codes_to_actions(state: State, codes: npt.ArrayLike) -> I64:
    """The ids of kernel move codes (as ``State.legal_move_codes()`` returns them); -1 for
    a buy whose patch is not offered."""
    c = np.ascontiguousarray(codes, dtype=np.int64).ravel()
    out = np.empty(len(c), dtype=np.int64)
    _codes_to_actions(state.vector, c, out)
    return out


def actions_to_codes(state: State, actions: npt.ArrayLike) -> I64:
    """The kernel codes of the moves ids name, -1 for an id naming no move here (an empty
    slot, a patch sticking out of the board, an orientation these rules forbid). An id
    listed under another orientation gets the code of the same move (the mask lists only
    one of them: see :func:`legal_action_mask`). Says nothing about legality."""
    a = np.asarray(actions, dtype=np.int64)
    v = state.vector
    rest = np.maximum(a - BUY_ACTION_BASE, 0)
    slot = np.minimum(rest // ACTIONS_PER_SLOT, SLOTS - 1)
    patch = _offered(v)[slot]
    k = _PLACEMENTS_PADDED[patch, rest % ACTIONS_PER_SLOT]
    canon = np.where(k >= 0, CANONICAL[int(v[L.MODE]), np.maximum(k, 0)], -1)
    buy = np.where(canon >= 0, BUY_ACTION_BASE + canon, -1)
    valid = (a >= 0) & (a < NUM_ACTIONS)
    out = np.where(a < BUY_ACTION_BASE, a, buy)
    return np.where(valid, out, -1).astype(np.int64, copy=False)


def legal_actions(state: State) -> I64:
    """The legal ids in ascending order: one per distinct legal move."""
    ids = np.empty(K.MAX_MOVES, dtype=np.int64)
    n = _legal(state.vector, ids, _NO_MASK)
    return np.sort(ids[:n])


def legal_action_mask(state: State, out: I8 | None = None) -> I8:
    """A 0/1 int8 vector of ``NUM_ACTIONS``: 1 exactly at the ids of ``legal_actions``
    (written into ``out`` when given)."""
    mask = np.empty(NUM_ACTIONS, dtype=np.int8) if out is None else out
    _legal(state.vector, np.empty(K.MAX_MOVES, dtype=np.int64), mask)
    return mask


def action_to_code(state: State, action: int) -> int:
    """The kernel code of the move an id names here, or -1 (see :func:`actions_to_codes`)."""
    a = int(action)
    if not 0 <= a < NUM_ACTIONS:
        return -1
    if a < BUY_ACTION_BASE:
        return a
    v = state.vector
    slot, rest = divmod(a - BUY_ACTION_BASE, ACTIONS_PER_SLOT)
    if slot >= v[L.CIRCLE_LEN]:
        return -1
    k = int(_PLACEMENTS_FLAT[v[L.CIRCLE + slot], rest])
    if k < 0:
        return -1
    canon = int(CANONICAL[v[L.MODE], k])
    return -1 if canon < 0 else BUY_ACTION_BASE + canon


def is_legal_action(state: State, action: int) -> bool:
    """Whether the mask holds ``action`` here: it names a legal move, under the listed
    orientation."""
    code = action_to_code(state, action)
    if code < 0 or not K.is_legal(state.vector, code):
        return False
    if code < BUY_ACTION_BASE:
        return True
    rest = (int(action) - BUY_ACTION_BASE) % ACTIONS_PER_SLOT
    return bool(_PL_LOCAL[code - BUY_ACTION_BASE] == rest)


def action_to_move(state: State, action: int) -> Move:
    """The engine move an id names in ``state`` (legal or not); a PatchworkError if it names
    none (InvalidMoveError: no such slot or square; IllegalMoveError: an orientation these
    rules forbid). A buy keeps the id's orientation (``Buy`` objects covering the same
    squares are equal)."""
    kind, slot, orientation, row, col = decode_action(action)
    if kind != "buy":
        return move_from_code(int(action))
    offered = state.offered
    if slot >= len(offered):
        raise InvalidMoveError(f"action {action}: no patch is offered in slot {slot}")
    move = Buy(offered[slot], orientation, row, col)
    move.code(state.rules.mode)  # raises when these rules forbid the orientation
    return move


def move_to_action(state: State, move: Move) -> int:
    """The id the mask uses for ``move`` in ``state`` (a buy under any orientation maps to
    the listed one); InvalidMoveError when the move's patch is not offered."""
    code = move.code(state.rules.mode)
    action = int(codes_to_actions(state, np.array([code], dtype=np.int64))[0])
    if action < 0:
        raise InvalidMoveError(f"{move}: its patch is not among the offered {state.offered}")
    return action


def action_to_string(state: State, action: int) -> str:
    """The move an id names, in the engine's notation (``A``, ``S@e5``, ``17r90@c4``)."""
    try:
        return str(action_to_move(state, action))
    except PatchworkError:
        kind, slot, orientation, row, col = decode_action(action)
        return f"{kind}(slot {slot}, orientation {orientation}, square {row},{col})"


# -- observations ---------------------------------------------------------------------------

FINAL: Final = data.FINAL_SPACE
SPACES: Final = FINAL + 1
NUM_PATCHES: Final = data.NUM_PATCHES
NEXT_PATCHES: Final = 6  # patches of the circle described in detail (slots 0-2 are offered)
PATCH_FEATURES: Final = NUM_PATCHES + 4  # one-hot id, buttons, time, income, squares
PLAYER_FEATURES: Final = (
    "buttons",  # / 100
    "income",  # / 10
    "position",  # / 53
    "score",  # / 100: buttons + 7 with the bonus tile - 2 per empty square (engine's)
    "empty_squares",  # / 81
    "income_marks_ahead",  # / 9
    "bonus_tile",  # 1 if this player holds the 7x7 bonus tile
    "finished_first",  # 1 if this player reached the final space first (the tie-break)
    "to_move",  # 1 if this player is to move
)
GAME_FEATURES: Final = (
    "pending_specials",  # special patches the player to move must place first, / 5
    "observer_on_top",  # 1 if the observer's time token is on top (moves first on a tie)
    "circle_left",  # patches left in the circle / 33
    "bonus_open",  # 1 while nobody holds the bonus tile
)
# scales of the player features (what each raw value is divided by)
BUTTON_SCALE: Final = 100.0
INCOME_SCALE: Final = 10.0
SCORE_SCALE: Final = 100.0

OBS_SECTIONS: Final[dict[str, tuple[int, tuple[int, ...]]]] = {}
_offset = 0
for _name, _shape in (
    ("planes", (5, BOARD, BOARD)),
    ("players", (2, len(PLAYER_FEATURES))),
    ("game", (len(GAME_FEATURES),)),
    ("time_board", (4, SPACES)),
    ("next_patches", (NEXT_PATCHES, PATCH_FEATURES)),
    ("circle", (NUM_PATCHES, 2)),
):
    OBS_SECTIONS[_name] = (_offset, _shape)
    _offset += int(np.prod(_shape))
OBS_SIZE: Final = _offset
OBS_SHAPE: Final = (OBS_SIZE,)


def section(name: str) -> slice:
    """Where a section lies in the flat observation."""
    offset, shape = OBS_SECTIONS[name]
    return slice(offset, offset + int(np.prod(shape)))


def split_observation(obs: npt.NDArray[np.floating]) -> dict[str, npt.NDArray[np.floating]]:
    """Named views into a flat observation, each in its documented shape."""
    return {
        name: obs[..., offset : offset + int(np.prod(shape))].reshape(*obs.shape[:-1], *shape)
        for name, (offset, shape) in OBS_SECTIONS.items()
    }


def _bounds() -> tuple[F32, F32]:
    low = np.zeros(OBS_SIZE, dtype=np.float32)
    high = np.ones(OBS_SIZE, dtype=np.float32)
    # Buttons: 5 to start, at most 53 from advancing, at most the income of every patch
    # at each income mark; the score adds the bonus tile and can fall to -2 per square.
    total_income = sum(p.income for p in data.PATCHES)
    max_buttons = data.STARTING_BUTTONS + FINAL + len(data.INCOME_SPACES) * total_income
    players = split_observation(low)["players"]
    players_high = split_observation(high)["players"]
    for name, lo, hi in (
        ("buttons", 0.0, max_buttons / BUTTON_SCALE),
        ("income", 0.0, total_income / INCOME_SCALE),
        (
            "score",
            -data.EMPTY_PENALTY * SQUARES / SCORE_SCALE,
            (max_buttons + data.BONUS_POINTS) / SCORE_SCALE,
        ),
    ):
        j = PLAYER_FEATURES.index(name)
        players[:, j] = lo
        players_high[:, j] = hi
    return low, high


OBS_LOW, OBS_HIGH = _bounds()

# Lookup tables for the encoder. Player p's square sq: bit SHIFT of v[WORD + p] (see layout).
_SQ = np.arange(SQUARES)
_WORD: I64 = np.where(_SQ < L.SPLIT, L.QUILT_LO, L.QUILT_HI).astype(np.int64)
_SHIFT: I64 = np.where(_SQ < L.SPLIT, _SQ, _SQ - L.SPLIT).astype(np.int64)
# Per patch (row NUM_PATCHES all zeros for "no patch"): printed shape, features.
_SHAPE_PLANE = np.zeros((NUM_PATCHES + 1, SQUARES), dtype=np.float32)
_PATCH_ROW = np.zeros((NUM_PATCHES + 1, PATCH_FEATURES), dtype=np.float32)
for _p in data.PATCHES:
    for _r, _c in _p.cells:
        _SHAPE_PLANE[_p.id, _r * BOARD + _c] = 1.0
    _PATCH_ROW[_p.id, _p.id] = 1.0
    _PATCH_ROW[_p.id, NUM_PATCHES:] = (
        PATCH_BUTTONS[_p.id] / 10.0,
        PATCH_TIME[_p.id] / 6.0,
        PATCH_INCOME[_p.id] / 3.0,
        len(_p.cells) / 8.0,
    )
_MARKS_AHEAD = PAYDAYS_AHEAD[:SPACES].astype(np.float32) / len(data.INCOME_SPACES)
_INCOME_MARKS = np.zeros(SPACES, dtype=np.float32)
_INCOME_MARKS[list(data.INCOME_SPACES)] = 1.0
_DISTANCE = (np.arange(NUM_PATCHES, dtype=np.float32) + 1.0) / NUM_PATCHES


@njit(cache=True)
def _encode(v: I64, me: int, specials: I64, obs: F32) -> None:
    obs[:] = 0.0
    them = 1 - me
    to_move = K.current_player(v)
    n = v[L.CIRCLE_LEN]
    # Planes: the observer's quilt, the opponent's, the printed shapes of the offered patches.
    for i in range(2):
        p = me if i == 0 else them
        for sq in range(SQUARES):
            obs[i * SQUARES + sq] = (v[_WORD[sq] + p] >> _SHIFT[sq]) & 1
    for j in range(min(SLOTS, n)):
        base = (2 + j) * SQUARES
        for sq in range(SQUARES):
            obs[base + sq] = _SHAPE_PLANE[v[L.CIRCLE + j], sq]
    # Per player: the observer, then the opponent.
    for i in range(2):
        p = me if i == 0 else them
        b = _PLAYERS0 + i * _NPF
        pos = v[L.POSITION + p]
        obs[b] = v[L.BUTTONS + p] / BUTTON_SCALE
        obs[b + 1] = v[L.INCOME + p] / INCOME_SCALE
        obs[b + 2] = pos / FINAL
        obs[b + 3] = K.score(v, p) / SCORE_SCALE
        obs[b + 4] = K.empty_squares(v, p) / SQUARES
        obs[b + 5] = _MARKS_AHEAD[pos]
        obs[b + 6] = 1.0 if v[L.BONUS] == p else 0.0
        obs[b + 7] = 1.0 if v[L.FIRST] == p else 0.0
        obs[b + 8] = 1.0 if to_move == p else 0.0
    obs[_GAME0] = v[L.PENDING] / _SPECIALS
    obs[_GAME0 + 1] = 1.0 if v[L.TOP] == me else 0.0
    obs[_GAME0 + 2] = n / NUM_PATCHES
    obs[_GAME0 + 3] = 1.0 if v[L.BONUS] < 0 else 0.0
    # Time board: tokens, the special patches still lying there, the income marks.
    obs[_TIME0 + v[L.POSITION + me]] = 1.0
    obs[_TIME0 + SPACES + v[L.POSITION + them]] = 1.0
    for space in specials:
        obs[_TIME0 + 2 * SPACES + space] = 1.0
    for space in range(SPACES):
        obs[_TIME0 + 3 * SPACES + space] = _INCOME_MARKS[space]
    # The circle: the next patches in detail, then where every patch stands.
    for j in range(min(NEXT_PATCHES, n)):
        base = _NEXT0 + j * PATCH_FEATURES
        for f in range(PATCH_FEATURES):
            obs[base + f] = _PATCH_ROW[v[L.CIRCLE + j], f]
    for j in range(n):
        patch = v[L.CIRCLE + j]
        obs[_CIRCLE0 + 2 * patch] = 1.0
        obs[_CIRCLE0 + 2 * patch + 1] = _DISTANCE[j]


_PLAYERS0 = section("players").start
_NPF = len(PLAYER_FEATURES)
_GAME0 = section("game").start
_TIME0 = section("time_board").start
_NEXT0 = section("next_patches").start
_CIRCLE0 = section("circle").start
_SPECIALS = float(data.SPECIAL_PATCH_COUNT)


def encode_observation(state: State, observer: int, out: F32 | None = None) -> F32:
    """The observation of ``state`` seen by ``observer`` (0 or 1), written into ``out``
    (a float32 vector of ``OBS_SIZE``) when given."""
    if observer not in (0, 1):
        raise ValueError(f"observer must be player 0 or 1, not {observer!r}")
    obs = np.empty(OBS_SIZE, dtype=np.float32) if out is None else out
    specials = np.array(state.special_spaces_left, dtype=np.int64)
    _encode(state.vector, int(observer), specials, obs)
    return obs


def observation_string(state: State, observer: int) -> str:
    """A text view of the same information (the position text, which round-trips)."""
    return f"observer {observer}: {state.to_text()}"


def render_text(state: State, names: tuple[str, str] = ("player 0", "player 1")) -> str:
    """Both quilt boards side by side with buttons, income, time and the offered patches."""
    players = state.players
    head = []
    for p in (0, 1):
        mark = "*" if state.current_player == p else " "
        head.append(f"{mark}{names[p]}"[:20].ljust(20))
    lines = ["  ".join(head)]
    lines.append(
        "  ".join(f" buttons {pl.buttons:<3} inc {pl.income:<2}".ljust(20)[:20] for pl in players)
    )
    lines.append("  ".join(f" time {pl.position:>2}/{FINAL}".ljust(20) for pl in players))
    rows = [pl.quilt.rows() for pl in players]
    cols = " " + "".join("abcdefghi")
    lines.append("  ".join((" " + cols).ljust(20) for _ in players))
    for r in range(BOARD):
        lines.append("  ".join(f" {r + 1} {rows[p][r]}".ljust(20) for p in (0, 1)))
    scores = state.scores()
    lines.append("  ".join(f" score {scores[p]}".ljust(20) for p in (0, 1)))
    offered = []
    for slot, pid in enumerate(state.offered):
        patch = data.PATCHES[pid]
        offered.append(
            f"[{slot}] patch {pid}: {patch.buttons} buttons, {patch.time} time, "
            f"+{patch.income} income"
        )
    lines.append("offered: " + ("; ".join(offered) or "none"))
    if state.is_terminal():
        winner = state.winner()
        lines.append(f"game over: {names[winner] if winner is not None else '?'} wins")
    elif state.pending_specials:
        lines.append(f"{names[state.current_player or 0]} places a special patch")
    return "\n".join(line.rstrip() for line in lines) + "\n"


def start_state(options: dict[str, Any], rules: Rules, rng: np.random.Generator) -> State:
    """The state an episode starts from, as the adapters' ``reset(options=...)`` asks for:
    a given unfinished ``state``, an explicit ``circle``, or a standard setup from ``rng``."""
    if "state" in options:
        state = options["state"]
        if not isinstance(state, State) or state.is_terminal():
            raise PatchworkError("the 'state' option must be an unfinished patchwork.State")
        return state
    if "circle" in options:
        return new_game(circle=options["circle"], rules=rules)
    return new_game(seed=int(rng.integers(2**63)), rules=rules)
