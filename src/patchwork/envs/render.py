"""What the adapters' ``render()`` returns: the position as text (``"ansi"``) or as a
picture (``"rgb_array"``, which stable-baselines3's ``make_vec_env`` asks for).

The picture is drawn with numpy alone (no plotting library to install) from player 0's
observation vector, so it shows what the encoding holds and nothing that a second reading of
the state could get wrong. Player 0 is on the left in blue, player 1 on the right in orange,
whoever observes; the layout is described in docs/envs.md ("Rendering").
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from ..engine import State
from ..engine.errors import PatchworkError
from . import encoding as E

RGB = npt.NDArray[np.uint8]
RENDER_MODES: Final = ("ansi", "rgb_array")

CELL: Final = 16  # pixels a quilt square
OFFER_CELL: Final = 8  # pixels a square of a patch on offer
SPACE: Final = 5  # pixels a time-board space
MARGIN: Final = 8
QUILT: Final = E.BOARD * CELL
WIDTH: Final = 2 * MARGIN + 2 * QUILT + 2 * MARGIN
TRACK_TOP: Final = MARGIN
QUILT_TOP: Final = TRACK_TOP + 16 + MARGIN
BARS_TOP: Final = QUILT_TOP + QUILT + MARGIN
OFFER_TOP: Final = BARS_TOP + 12 + MARGIN
OFFER_SIZE: Final = 5  # the widest patch spans five squares
HEIGHT: Final = OFFER_TOP + OFFER_SIZE * OFFER_CELL + MARGIN

BACKGROUND: Final = (250, 246, 238)
GRID: Final = (190, 184, 172)
TRACK: Final = (232, 226, 214)
EMPTY: Final = (255, 255, 255)
PLAYERS: Final = ((52, 120, 220), (232, 128, 32))
SPECIAL: Final = (140, 90, 40)
INCOME: Final = (60, 160, 80)
BUTTONS: Final = (230, 190, 40)
BONUS: Final = (212, 160, 0)
OFFER: Final = (120, 120, 120)


def _box(img: RGB, top: int, left: int, height: int, width: int, colour: tuple[int, ...]) -> None:
    img[top : top + height, left : left + width] = colour


def _grid(covered: npt.NDArray[np.floating], cell: int, colour: tuple[int, ...]) -> RGB:
    """Squares ``cell`` pixels wide, ``colour`` where covered, with grid lines."""
    squares = np.where(covered[..., None] > 0, colour, EMPTY).astype(np.uint8)
    block = squares.repeat(cell, axis=0).repeat(cell, axis=1)
    block[::cell, :] = block[-1, :] = GRID
    block[:, ::cell] = block[:, -1] = GRID
    return block


def _marked(
    marks: npt.NDArray[np.floating], colour: tuple[int, ...], other: RGB | tuple[int, ...]
) -> RGB:
    """Per time-board space, ``colour`` where ``marks`` is set and ``other`` elsewhere."""
    return np.where(marks[:, None] > 0, np.array(colour), np.array(other)).astype(np.uint8)


def _strip(spaces: RGB, height: int) -> RGB:
    """A row of time-board spaces, ``height`` pixels high."""
    return np.repeat(spaces[None], height, axis=0).repeat(SPACE, axis=1)


def render_rgb(state: State) -> RGB:
    """The position as a ``HEIGHT x WIDTH x 3`` uint8 image (the same size for every state)."""
    parts = E.split_observation(E.encode_observation(state, 0))
    planes, players, board = parts["planes"], parts["players"], parts["time_board"]
    img = np.empty((HEIGHT, WIDTH, 3), dtype=np.uint8)
    img[:] = BACKGROUND
    left, right = (WIDTH - E.SPACES * SPACE) // 2, (WIDTH + E.SPACES * SPACE) // 2
    marks = _marked(board[2], SPECIAL, _marked(board[3], INCOME, TRACK))
    img[TRACK_TOP : TRACK_TOP + 4, left:right] = _strip(marks, 4)
    for p in (0, 1):
        top = TRACK_TOP + 5 + 6 * p
        img[top : top + 5, left:right] = _strip(_marked(board[p], PLAYERS[p], TRACK), 5)
        x = MARGIN + p * (QUILT + 2 * MARGIN)
        frame = 4 if players[p, E.PLAYER_FEATURES.index("to_move")] else 1
        _box(img, QUILT_TOP - frame, x - frame, QUILT + 2 * frame, QUILT + 2 * frame, PLAYERS[p])
        img[QUILT_TOP : QUILT_TOP + QUILT, x : x + QUILT] = _grid(planes[p], CELL, PLAYERS[p])
        buttons = round(float(players[p, 0]) * E.BUTTON_SCALE)
        income = round(float(players[p, 1]) * E.INCOME_SCALE)
        bar = QUILT - 16  # room for the bonus tile
        _box(img, BARS_TOP, x, 6, min(2 * buttons, bar), BUTTONS)
        _box(img, BARS_TOP + 8, x, 4, min(4 * income, bar), INCOME)
        if players[p, E.PLAYER_FEATURES.index("bonus_tile")]:
            _box(img, BARS_TOP, x + QUILT - 12, 12, 12, BONUS)
    size = OFFER_SIZE * OFFER_CELL
    for slot in range(3):
        x = MARGIN + slot * (size + 2 * MARGIN)
        shape = planes[2 + slot, :OFFER_SIZE, :OFFER_SIZE]
        if shape.any():
            img[OFFER_TOP : OFFER_TOP + size, x : x + size] = _grid(shape, OFFER_CELL, OFFER)
    return img


def check_render_mode(mode: str | None) -> None:
    if mode is not None and mode not in RENDER_MODES:
        allowed = ", ".join(repr(m) for m in RENDER_MODES)
        raise PatchworkError(f"render_mode must be None, {allowed}, not {mode!r}")


def render(state: State, mode: str, names: tuple[str, str]) -> str | RGB:
    """``state`` in a render mode: the text of both quilt boards, or the picture."""
    return render_rgb(state) if mode == "rgb_array" else E.render_text(state, names)
