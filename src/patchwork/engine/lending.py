"""What a module lends to one below it, which must not import it back.

The core (``state``, ``moves``) never imports its satellites (the position text, the game
history, records), the way ``chess.Board`` never imports ``chess.pgn``. Where the core still
offers a satellite's service as a method (``State.to_text``, ``Game.to_record``), the
satellite lends the function when it loads, so every import runs satellite -> core.
"""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class Lent(Generic[T]):
    """A slot that the module named by ``lender`` fills when it loads."""

    def __init__(self, lender: str) -> None:
        self._lender = lender
        self._value: T | None = None

    def lend(self, value: T) -> None:
        self._value = value

    def __call__(self) -> T:
        if self._value is None:
            raise RuntimeError(f"{self._lender} is not loaded: import it first")
        return self._value
