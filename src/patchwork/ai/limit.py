"""How long an agent may think: seconds, iterations, or both (whichever ends first)."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.errors import PatchworkError


@dataclass(frozen=True, slots=True)
class Limit:
    time: float | None = None
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.time is not None and not self.time > 0:
            raise PatchworkError(f"a time limit must be positive, not {self.time!r}")
        if self.iterations is not None and self.iterations < 1:
            raise PatchworkError(f"an iteration limit must be at least 1, not {self.iterations!r}")

    @classmethod
    def of(cls, limit: Limit | float | int | None, default: Limit) -> Limit:
        """Accept a Limit, a number of seconds, or None for the agent's default."""
        if limit is None:
            return default
        if isinstance(limit, Limit):
            return limit if (limit.time or limit.iterations) else default
        return cls(time=float(limit))

    def __str__(self) -> str:
        parts = []
        if self.time is not None:
            parts.append(f"{self.time:g} s")
        if self.iterations is not None:
            parts.append(f"{self.iterations} iterations")
        return " or ".join(parts) or "no limit"
