"""Weights files: a JSON object ``{"weights": {feature: number}}`` that ``patchwork train``
writes, read back in a fixed feature order with a clear error for any file that does not fit."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from ..engine.errors import PatchworkError


def load(path: Path | str, features: tuple[str, ...], what: str) -> np.ndarray:
    """The weights in the file at ``path``, in ``features`` order; ``what`` names them in
    errors ("the rollout weights")."""
    path = Path(path)
    try:
        doc: Any = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise PatchworkError(f"cannot read {what} {path}: {e.strerror}") from e
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise PatchworkError(f"{what} {path} are not JSON: {e}") from e
    if not isinstance(doc, dict) or not isinstance(doc.get("weights"), dict):
        raise PatchworkError(f"{what} {path} need an object with 'weights': {{feature: number}}")
    weights = doc["weights"]
    missing = [name for name in features if name not in weights]
    unknown = sorted(set(weights) - set(features))
    if missing or unknown:
        raise PatchworkError(
            f"{what} {path} do not match this version's features"
            f" (missing: {', '.join(missing) or 'none'}; unknown: {', '.join(unknown) or 'none'})"
        )
    values = [weights[name] for name in features]
    if not all(
        isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in values
    ):
        raise PatchworkError(f"{what} {path} must all be finite numbers")
    return np.array(values, dtype=np.float64)
