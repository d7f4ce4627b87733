"""The component numbers of the game, read once from the shipped ``patches.json``.

This is the only place the numbers come from: patches, the time board and the constants.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any


@dataclass(frozen=True, slots=True)
class Patch:
    """One patch of the circle, as printed (``cells`` in its printed orientation)."""

    id: int
    cells: tuple[tuple[int, int], ...]
    buttons: int
    time: int
    income: int
    codingame_id: int

    @property
    def shape(self) -> tuple[str, ...]:
        """The printed shape as rows of ``#`` (covered) and ``.`` (empty)."""
        height = 1 + max(r for r, _ in self.cells)
        width = 1 + max(c for _, c in self.cells)
        return tuple(
            "".join("#" if (r, c) in self.cells else "." for c in range(width))
            for r in range(height)
        )


def _load() -> dict[str, Any]:
    text = resources.files("patchwork.engine").joinpath("data", "patches.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


_DATA = _load()

PATCHES: tuple[Patch, ...] = tuple(
    Patch(
        id=p["id"],
        cells=tuple((r, c) for r, c in p["cells"]),
        buttons=p["buttons"],
        time=p["time"],
        income=p["income"],
        codingame_id=p["codingame_id"],
    )
    for p in sorted(_DATA["patches"], key=lambda p: p["id"])
)
NUM_PATCHES: int = len(PATCHES)
STARTING_PATCH: int = 0

_BOARD = _DATA["time_board"]
FINAL_SPACE: int = _BOARD["final_space"]
INCOME_SPACES: tuple[int, ...] = tuple(_BOARD["income_spaces"])
SPECIAL_SPACES: dict[str, tuple[int, ...]] = {
    edition: tuple(spaces) for edition, spaces in _BOARD["special_patch_spaces"].items()
}
EDITIONS: tuple[str, ...] = tuple(SPECIAL_SPACES)

_CONST = _DATA["constants"]
BOARD_SIZE: int = _CONST["quilt_board"][0]
STARTING_BUTTONS: int = _CONST["starting_buttons"]
OFFERED_PATCHES: int = _CONST["offered_patches"]
BONUS_SIZE: int = _CONST["bonus_square"]
BONUS_POINTS: int = _CONST["bonus_points"]
EMPTY_PENALTY: int = _CONST["empty_square_penalty"]
SPECIAL_PATCH_COUNT: int = _DATA["special_patch"]["count"]
