"""The result files: JSON (settings, summary, games) or CSV (one row per game), refused
before the games are played when they could not be written."""

from __future__ import annotations

import csv
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from ..engine import PatchworkError

FORMAT = "patchwork-tournament"
VERSION = 1
OUT_SUFFIXES = (".json", ".csv")


CSV_FIELDS = ("index", "setup", "player0", "player1", "circle_seed", "score0", "score1", "winner",
               "winner_name", "plies", "seconds0", "seconds1", "agent_seed0", "agent_seed1",
               "circle", "moves", "forfeit")  # fmt: skip


def write_text(path: Path, text: str) -> None:
    """Write ``text`` (the JSON document) to ``path``."""
    _write(path, lambda f: f.write(text))


def write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    """Write ``rows`` (one per game, with the keys of ``CSV_FIELDS``) as CSV."""

    def fill(f: TextIO) -> None:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        writer.writeheader()
        writer.writerows(rows)

    _write(path, fill, newline="")


def _write(path: Path, fill: Callable[[TextIO], object], newline: str | None = None) -> None:
    try:
        with path.open("w", newline=newline, encoding="utf-8") as f:
            fill(f)
    except OSError as e:
        raise PatchworkError(f"cannot write {path}: {e.strerror or e}") from None


def finite(x: Any) -> Any:
    """JSON has no infinities or NaN: an unbounded or missing value becomes null."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: finite(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [finite(v) for v in x]
    return x


def check_out_path(path: str | Path) -> None:
    """Refuse an output path before hours of games are played, not after."""
    p = Path(path)
    if p.suffix.lower() not in OUT_SUFFIXES:
        raise PatchworkError(f"the output file must end in .json or .csv, not {str(p)!r}")
    if p.is_dir():
        raise PatchworkError(f"{str(p)!r} is a folder, not a file")
    parent = p.parent
    if not parent.is_dir():
        raise PatchworkError(f"cannot write {str(p)!r}: folder {str(parent)!r} does not exist")
    try:
        # Opening for append checks permissions without truncating an existing file.
        existed = p.exists()
        with p.open("a", encoding="utf-8"):
            pass
        if not existed:
            p.unlink()
    except OSError as e:
        raise PatchworkError(f"cannot write {str(p)!r}: {e.strerror or e}") from None
