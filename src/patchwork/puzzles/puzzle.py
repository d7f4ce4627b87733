"""A puzzle: a position, the moves that solve it and the proof, and the verdict on an answer.

A puzzle asks the player to move at ``position``. Its ``answers`` are the moves that do best
there, proved in one of two ways (``proof``):

- ``exact``, near the end: by the exact endgame search. With best play after it, each answer
  wins by ``margin`` points, and every other move ends at least ``gap`` points worse. An
  answer is judged by proving it again, so a wrong one comes with the line that refutes it
  and a right one with the line that wins.
- ``search``, earlier: by a large search that finds the answers clearly ahead of every other
  move (``search_proof``); ``margin`` and ``gap`` are then its expected margin, rounded, and
  ``search`` keeps its figures for every move it rated, which judge an answer without
  searching again.
"""

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
from .search_proof import Estimate, SearchProof, choice

DATA = Path(__file__).with_name("data")
STARTER = DATA / "starter.jsonl"
DAILY_SEED = 20261204  # the shuffle the daily puzzle follows
# The first shipped set is asked in its shuffled order from DAILY_EPOCH, a day whose ordinal is
# a multiple of FIRST_SET: the days since keep the puzzles they had before puzzles were added.
# The puzzles added since follow the first set's, in a shuffled order of their own.
FIRST_SET = 586
DAILY_EPOCH = date(2025, 10, 8)
# What a puzzle is about, marked for the catalogs (a person reads them).
THEMES: dict[str, str] = {
    "endgame": N_("endgame"),
    "middlegame": N_("middle game"),
    "bonus": N_("the 7×7 bonus"),
    "timing": N_("timing"),
    "packing": N_("packing"),
    "income": N_("income"),
}
Theme = Literal["endgame", "middlegame", "bonus", "timing", "packing", "income"]


@dataclass(frozen=True)
class Puzzle:
    id: str
    position: str  # the position text (docs/notation.md)
    answers: tuple[str, ...]  # every move that solves it
    line: tuple[str, ...]  # the first answer, then best play to the end
    margin: int  # the final margin of that line, for the player to move
    gap: int  # points every other move ends behind, at least
    proof: Literal["exact", "search"]
    themes: tuple[Theme, ...]
    difficulty: int  # 1 (the AI's weakest level finds it) .. 5 (none of its levels does)
    moves: int  # legal moves in the position
    source: str = ""
    # The game it comes from: its start and the moves that led here (so a table can show
    # the patches as they were sewn on, not only the squares they cover).
    start: str = ""
    before: tuple[str, ...] = ()
    search: SearchProof | None = None  # the figures of a search-proved puzzle

    def state(self) -> State:
        return State.from_text(self.position)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        for key in ("answers", "line", "themes", "before"):
            d[key] = list(d[key])
        if self.search is None:
            del d["search"]
        else:
            d["search"] = self.search.to_dict()
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
            search=SearchProof.from_dict(d["search"]) if d.get("search") else None,
        )

    def judge(self, answer: str) -> Verdict:
        """The verdict on ``answer`` (move text); one that is not a legal move here raises
        PatchworkError saying why (InvalidMoveError, IllegalMoveError)."""
        state = self.state()
        text = str(Move.parse(answer, state))  # legal, or the engine says why not
        right = text in self.answers
        if self.search is None:
            return Verdict(right, text, outcome=self._proved(state, text))
        own = self.search.moves.get(text)
        if own is not None:
            return Verdict(right, text, estimate=own)
        # A placement the search did not try: its patch's best, unless it is the answers'.
        elsewhere = choice(text) == choice(self.answers[0])
        return Verdict(
            False, text, estimate=None if elsewhere else self.search.of_choice(text), tried=False
        )

    def line_after(self, verdict: Verdict) -> tuple[str, ...]:
        """What a search-proved puzzle shows after ``verdict``'s move: the proved line when
        the move is the one it starts with, else the move alone."""
        return self.line if verdict.right and verdict.move == self.line[0] else (verdict.move,)

    def _proved(self, state: State, move: str) -> Outcome:
        found = outcome(state, move)
        if found is None:  # the generator proved every move: only a changed solver gets here
            raise PatchworkError(N_("the proof of this puzzle could not be redone"))
        return found


@dataclass(frozen=True)
class Verdict:
    """An answer judged: ``right``, and what it comes to. A puzzle proved exactly: best play
    after it (``outcome``). One proved by search: the proving search's figures (``estimate``),
    the move's own; for a placement the search did not try (``tried`` False), the best it
    gives the move's patch, or None when that is the answers' patch (sewn on elsewhere)."""

    right: bool
    move: str
    outcome: Outcome | None = None
    estimate: Estimate | None = None
    tried: bool = True


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


@cache
def by_id() -> dict[str, Puzzle]:
    """The shipped puzzles by number."""
    return {p.id: p for p in starter()}


def matching(puzzles: Iterable[Puzzle], theme: str | None, difficulty: int | None) -> list[Puzzle]:
    """The puzzles of that theme and difficulty (None: any), in order."""
    return [p for p in puzzles if theme in (None, *p.themes) and difficulty in (None, p.difficulty)]


@cache
def daily_order(n: int) -> tuple[int, ...]:
    """The order ``n`` shipped puzzles are asked in, one a day from ``DAILY_EPOCH``: the first
    set's in its shuffled order, then the later ones' in theirs (adding puzzles changes no
    day of the first set's cycle)."""
    first = min(n, FIRST_SET)
    later = random.Random(DAILY_SEED + 1).sample(range(first, n), n - first)
    return tuple(random.Random(DAILY_SEED).sample(range(first), first) + later)


def daily(day: date) -> Puzzle:
    """The puzzle of ``day``: the same for everyone that day, never the same two days
    running (the shipped puzzles in a fixed shuffled order, one a day)."""
    puzzles = starter()
    return puzzles[daily_order(len(puzzles))[(day - DAILY_EPOCH).days % len(puzzles)]]
