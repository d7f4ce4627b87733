"""A puzzle: a position, the moves that solve it and the proof, and the verdict on an answer.

A puzzle asks the player to move at ``position``. Its ``answers`` are the moves that do best
there, proved with the exact endgame search (``proof`` "exact"): with best play after it,
each answer wins by ``margin`` points, and every other move ends at least ``gap`` points
worse. An answer is judged by proving it again, so a
wrong one comes with the line that refutes it and a right one with the line that wins."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any, Literal

from ..engine.errors import PatchworkError
from ..engine.moves import Move
from ..engine.state import State
from ..i18n import N_
from .proof import Outcome, outcome

DATA = Path(__file__).with_name("data")
STARTER = DATA / "starter.jsonl"
DAILY_SEED = 20261204  # the shuffle the daily puzzle follows
# What a puzzle is about, marked for the catalogs (a person reads them).
THEMES: dict[str, str] = {
    "endgame": N_("endgame"),
    "bonus": N_("the 7×7 bonus"),
    "timing": N_("timing"),
    "packing": N_("packing"),
    "income": N_("income"),
}
Theme = Literal["endgame", "bonus", "timing", "packing", "income"]


@dataclass(frozen=True)
class Puzzle:
    id: str
    position: str  # the position text (docs/notation.md)
    answers: tuple[str, ...]  # every move that solves it
    line: tuple[str, ...]  # the first answer, then best play to the end
    margin: int  # the final margin of that line, for the player to move
    gap: int  # points every other move ends behind, at least
    proof: Literal["exact"]
    themes: tuple[Theme, ...]
    difficulty: int  # 1 (the AI's weakest level finds it) .. 5 (none of its levels does)
    moves: int  # legal moves in the position
    source: str = ""
    # The game it comes from: its start and the moves that led here (so a table can show
    # the patches as they were sewn on, not only the squares they cover).
    start: str = ""
    before: tuple[str, ...] = ()

    def state(self) -> State:
        return State.from_text(self.position)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        for key in ("answers", "line", "themes", "before"):
            d[key] = list(d[key])
        return d

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Puzzle:
        return Puzzle(
            id=str(d["id"]),
            position=str(d["position"]),
            answers=tuple(d["answers"]),
            line=tuple(d["line"]),
            margin=int(d["margin"]),
            gap=int(d["gap"]),
            proof=d["proof"],
            themes=tuple(d["themes"]),
            difficulty=int(d["difficulty"]),
            moves=int(d["moves"]),
            source=str(d.get("source", "")),
            start=str(d.get("start", "")),
            before=tuple(d.get("before", ())),
        )

    def judge(self, answer: str) -> Verdict:
        """The verdict on ``answer`` (move text); one that is not a legal move here raises
        PatchworkError saying why (InvalidMoveError, IllegalMoveError)."""
        state = self.state()
        move = Move.parse(answer.strip(), state)
        state.check_legal(move)
        text = str(move)
        return Verdict(text in self.answers, text, self._proved(state, text))

    def _proved(self, state: State, move: str) -> Outcome:
        found = outcome(state, move)
        if found is None:  # the generator proved every move: only a changed solver gets here
            raise PatchworkError(N_("the proof of this puzzle could not be redone"))
        return found


@dataclass(frozen=True)
class Verdict:
    """An answer judged: ``right``, and what best play after it comes to (``outcome``)."""

    right: bool
    move: str
    outcome: Outcome


def dump(puzzles: Iterable[Puzzle], path: Path) -> None:
    with path.open("w", encoding="utf-8") as f:
        for p in puzzles:
            f.write(json.dumps(p.to_dict(), ensure_ascii=False) + "\n")


def load(path: Path | str) -> list[Puzzle]:
    """The puzzles of a JSON-lines file, in order."""
    with Path(path).open(encoding="utf-8") as f:
        return [Puzzle.from_dict(json.loads(line)) for line in f if line.strip()]


@cache
def starter() -> tuple[Puzzle, ...]:
    """The puzzles that ship with the game."""
    return tuple(load(STARTER))


def daily(day: date) -> Puzzle:
    """The puzzle of ``day``: the same for everyone that day, never the same two days
    running (the shipped puzzles in a fixed shuffled order, one a day)."""
    puzzles = starter()
    order = random.Random(DAILY_SEED).sample(range(len(puzzles)), len(puzzles))
    return puzzles[order[day.toordinal() % len(puzzles)]]
