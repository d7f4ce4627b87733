"""Game clocks: Fischer (a starting time plus an increment per move) or correspondence (a
number of days for each move). Pure functions over what the games table stores.

Patchwork turns do not alternate, so a clock runs for whoever is to move, for as many moves
in a row as they make; an AI seat's clock never runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

DAY_MS = 86_400_000


@dataclass(frozen=True, slots=True)
class ClockSpec:
    kind: Literal["fischer", "correspondence"]
    initial_ms: int = 0
    increment_ms: int = 0
    days: int = 0

    @property
    def allowance_ms(self) -> int:
        """The time each seat starts with (correspondence: the time for one move)."""
        return self.initial_ms if self.kind == "fischer" else self.days * DAY_MS

    def to_json(self) -> dict[str, Any]:
        if self.kind == "fischer":
            return {
                "kind": "fischer",
                "initial_ms": self.initial_ms,
                "increment_ms": self.increment_ms,
            }
        return {"kind": "correspondence", "days": self.days}

    @classmethod
    def from_json(cls, d: dict[str, Any] | None) -> ClockSpec | None:
        if d is None:
            return None
        if d["kind"] == "fischer":
            return cls(
                "fischer", initial_ms=int(d["initial_ms"]), increment_ms=int(d["increment_ms"])
            )
        return cls("correspondence", days=int(d["days"]))


def flag_time(remaining_ms: int, turn_started: float) -> float:
    """The wall-clock time (epoch seconds) at which the running clock reaches zero."""
    return turn_started + remaining_ms / 1000.0


def elapsed_ms(turn_started: float, now: float) -> int:
    return max(0, round((now - turn_started) * 1000))


def is_flagged(remaining_ms: int, turn_started: float, now: float) -> bool:
    return now >= flag_time(remaining_ms, turn_started)


def after_move(spec: ClockSpec, remaining_ms: int, turn_started: float, now: float) -> int:
    """The mover's time after a move made at ``now`` (the caller checked the flag first)."""
    if spec.kind == "correspondence":
        return spec.allowance_ms
    return max(0, remaining_ms - elapsed_ms(turn_started, now)) + spec.increment_ms


def remaining_now(remaining_ms: int, turn_started: float | None, now: float) -> int:
    """What a running clock shows at ``now`` (a stopped one shows what it stores)."""
    if turn_started is None:
        return remaining_ms
    return max(0, remaining_ms - elapsed_ms(turn_started, now))
