"""The result files: JSON (settings, summary, games) or CSV (one row per game)."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine import PatchworkError

if TYPE_CHECKING:
    from .results import TournamentResult

FORMAT = "patchwork-tournament"
VERSION = 1
OUT_SUFFIXES = (".json", ".csv")


def to_dict(result: TournamentResult) -> dict[str, Any]:
    labels = result.labels
    out: dict[str, Any] = _finite(
        {
            "format": FORMAT,
            "version": VERSION,
            "settings": result.settings(),
            "summary": result.summary().to_dict(),
            "games": [g.to_dict(labels) for g in result.games],
        }
    )
    return out


def to_json(result: TournamentResult) -> str:
    return json.dumps(to_dict(result), indent=1, allow_nan=False)


def csv_rows(result: TournamentResult) -> list[dict[str, Any]]:
    labels = result.labels
    rows = []
    for g in result.games:
        s = g.spec
        rows.append(
            {
                "index": s.index,
                "setup": s.setup,
                "player0": labels[s.seats[0]],
                "player1": labels[s.seats[1]],
                "circle_seed": s.circle_seed,
                "score0": g.scores[0],
                "score1": g.scores[1],
                "winner": g.winner,
                "winner_name": labels[g.winner_player],
                "plies": g.plies,
                "seconds0": round(g.seconds[0], 4),
                "seconds1": round(g.seconds[1], 4),
                "agent_seed0": s.agent_seeds[0],
                "agent_seed1": s.agent_seeds[1],
                "circle": " ".join(str(x) for x in s.circle),
                "moves": " ".join(g.moves),
            }
        )
    return rows


def write(result: TournamentResult, path: str | Path) -> None:
    """Write JSON ({settings, summary, games}) or CSV (one row per game) by the suffix."""
    p = Path(path)
    check_out_path(p)
    try:
        if p.suffix.lower() == ".json":
            p.write_text(to_json(result) + "\n", "utf-8")
        else:
            rows = csv_rows(result)
            with p.open("w", newline="", encoding="utf-8") as f:
                writer = csv.DictWriter(f, fieldnames=_CSV_FIELDS)
                writer.writeheader()
                writer.writerows(rows)
    except OSError as e:
        raise PatchworkError(f"cannot write {p}: {e.strerror or e}") from None


_CSV_FIELDS = ("index", "setup", "player0", "player1", "circle_seed", "score0", "score1", "winner",
               "winner_name", "plies", "seconds0", "seconds1", "agent_seed0", "agent_seed1",
               "circle", "moves")  # fmt: skip


def _finite(x: Any) -> Any:
    """JSON has no infinities or NaN: an unbounded or missing value becomes null."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_finite(v) for v in x]
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
