"""The guided first game: where a learner stands (``Progress``) and what a move does there.

The learner sits in seat 0 of one game from the tutorial's own setup, against a gentle
opponent (AI level 1, seeded by the ply, so the same moves get the same answers). A lesson
goes on in the learner's own game when its first step can be met there, or waits a few free
moves for its moment. Otherwise it is shown on the prepared game (``data/game.json``, made by
``prepare.py``), at a position its test proves the step can be met, and the learner's game is
set aside meanwhile: the next lesson goes back to it, so the final count and the review at
the end are of the learner's own game. Progress is the lesson, its step and the games' moves:
small, kept by each interface (a file, the browser's storage) and checked again by the
engine when it comes back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from ..ai.levels import former, level
from ..engine import Game, Move, PatchworkError, Record, State, new_game
from ..i18n import N_
from .lessons import LESSONS, Lesson, Step

DATA = Path(__file__).with_name("data") / "game.json"
LEARNER, OPPONENT = 0, 1
OPPONENT_LEVEL = former(1)  # the beginner the prepared game was played against
MOST_MOVES = 200  # no game of Patchwork is longer: a longer saved progress is not ours
MOVE_TEXT = 20  # characters: the longest move text is "32f270@i9"


@dataclass(frozen=True)
class Prepared:
    """The prepared game: its setup's seed, its moves, and the ply each lesson starts at."""

    seed: int
    line: tuple[str, ...]
    starts: tuple[int, ...]


@cache
def prepared() -> Prepared:
    d = json.loads(DATA.read_text("utf-8"))
    return Prepared(int(d["seed"]), tuple(d["line"]), tuple(d["starts"][x.id] for x in LESSONS))


def setup() -> State:
    """The tutorial game's first position (the same circle every time)."""
    return new_game(seed=prepared().seed)


def replay(moves: tuple[str, ...] | list[str]) -> Game:
    """The tutorial game after ``moves``; a move that is not legal there raises, saying why."""
    game = Game(setup())
    for text in moves:
        game.push(text)
    return game


@dataclass(frozen=True)
class Progress:
    """Lesson ``lesson`` (an index of LESSONS; len(LESSONS): the course is over), its step
    ``step`` and the moves of the game on the table. ``free``: the step cannot be met in
    this position yet, so any move will do while the lesson waits (``waited`` moves so far).
    ``jumped``: the lesson is shown on the prepared game, and ``own`` holds the learner's game
    (its moves) until the next lesson goes back to it (``back``)."""

    lesson: int
    step: int
    moves: tuple[str, ...]
    free: bool = False
    waited: int = 0
    own: tuple[str, ...] | None = None
    back: bool = False

    @property
    def jumped(self) -> bool:
        return self.own is not None

    @property
    def finished(self) -> bool:
        return self.lesson >= len(LESSONS)

    @property
    def current(self) -> Lesson:
        return LESSONS[min(self.lesson, len(LESSONS) - 1)]

    @property
    def number(self) -> int:
        """The lesson's number as shown, from 1 (the last one's once the course is over)."""
        return min(self.lesson, len(LESSONS) - 1) + 1

    @property
    def task(self) -> Step:
        return self.current.steps[self.step]

    def to_dict(self) -> dict[str, Any]:
        own = None if self.own is None else list(self.own)
        return {"lesson": self.lesson, "step": self.step, "moves": list(self.moves),
                "waited": self.waited, "own": own, "back": self.back}  # fmt: skip

    @staticmethod
    def from_dict(d: object) -> Progress:
        """Progress kept earlier, checked: its lesson and step exist and its moves replay to
        a position where the learner is to move (or the game's end, the course over); else
        PatchworkError saying what is wrong."""
        if not isinstance(d, dict):
            raise PatchworkError(N_("the saved lesson is not a JSON object"))
        lesson, step, moves = d.get("lesson"), d.get("step", 0), d.get("moves")
        waited, own, back = d.get("waited", 0), d.get("own"), d.get("back", False)
        if not (isinstance(lesson, int) and 0 <= lesson <= len(LESSONS)):
            raise PatchworkError(N_("the saved lesson number is not one of the lessons"))
        steps = len(LESSONS[lesson].steps) if lesson < len(LESSONS) else 1
        if not (isinstance(step, int) and 0 <= step < steps):
            raise PatchworkError(N_("the saved lesson's step is not one of its steps"))
        if not (isinstance(waited, int) and 0 <= waited <= MOST_MOVES):
            raise PatchworkError(N_("the saved lesson's count of moves is not a number of moves"))
        table = tuple(_moves(moves))
        state = replay(table).state
        kept = None if own is None else tuple(_moves(own))
        if kept is not None and replay(kept).state.current_player != LEARNER:
            raise PatchworkError(N_("the saved lesson's game is not at the learner's move"))
        if lesson == len(LESSONS):
            if not state.is_terminal() or kept is not None:
                raise PatchworkError(N_("the saved lessons are over, but their game is not"))
            return Progress(lesson, 0, table)
        if state.current_player != LEARNER:
            raise PatchworkError(N_("the saved lesson's game is not at the learner's move"))
        free = not can_meet(LESSONS[lesson].steps[step], state)
        return Progress(lesson, step, table, free, waited, kept, bool(back))


def _moves(moves: object) -> list[str]:
    """A saved list of moves, checked for its shape (the engine checks the moves)."""
    if not (isinstance(moves, list) and len(moves) <= MOST_MOVES):
        raise PatchworkError(N_("the saved lesson's moves are not a list of moves"))
    if not all(isinstance(m, str) and len(m) <= MOVE_TEXT for m in moves):
        raise PatchworkError(N_("the saved lesson's moves are not a list of moves"))
    return moves


@dataclass(frozen=True)
class Attempt:
    """A move tried: ``met`` whether it was played (it meets the step, or the lesson waits
    and any move will do); if not, ``progress`` is unchanged. ``replies``: the opponent's
    answers. ``done``: the step is over (its ``done`` words are due; a move while the
    lesson waits, or one the step goes on after, ends none)."""

    met: bool
    progress: Progress
    move: str
    replies: tuple[str, ...] = ()
    done: bool = False


def meets(step: Step, before: State, move: Move) -> bool:
    return step.goal(before, move, before.apply(move))


def can_meet(step: Step, state: State) -> bool:
    """Whether some legal move of ``state`` meets ``step`` (the learner to move)."""
    if state.current_player != LEARNER:
        return False
    return any(meets(step, state, m) for m in state.legal_moves())


def begin() -> Progress:
    return settle(0, Game(setup()))


def settle(lesson: int, game: Game, waited: int = 0, own: Game | None = None) -> Progress:
    """Lesson ``lesson`` in the learner's game (``own`` if set aside, else ``game``): asking
    for its first step that some move meets; else waiting, any move allowed, while its
    patience lasts and it can still come in this game; else shown on the prepared game, the
    learner's set aside."""
    back = own is not None
    mine = own if own is not None else game
    moves = tuple(map(str, mine.moves))
    if lesson >= len(LESSONS):
        return Progress(lesson, 0, moves)
    this = LESSONS[lesson]
    for i, step in enumerate(this.steps):  # a later step may be ready already (a special
        if can_meet(step, mine.state):  # patch passed just before its lesson)
            return Progress(lesson, i, moves, waited=waited, back=back)
    learner = mine.state.current_player == LEARNER
    if learner and waited < this.patience and this.still_possible(mine.state):
        return Progress(lesson, 0, moves, free=True, waited=waited, back=back)
    p = prepared()
    return Progress(lesson, 0, p.line[: p.starts[lesson]], own=moves)


def answer(game: Game) -> list[str]:
    """The gentle opponent's moves until the learner is to move again or the game ends."""
    replies = []
    while game.state.current_player == OPPONENT:
        agent = level(OPPONENT_LEVEL, seed=prepared().seed + len(game))
        move = agent.choose(game.state)
        game.push(move)
        replies.append(str(move))
    return replies


def attempt(progress: Progress, text: str) -> Attempt:
    """Try move ``text`` at ``progress``: an illegal or malformed move raises PatchworkError
    saying why; a legal one that does not meet the step is not played (``met`` False)."""
    if progress.finished:
        raise PatchworkError(N_("the lessons are over: there is no move to make"))
    game = replay(progress.moves)
    state = game.state
    move = Move.parse(text.strip(), state)
    state.check_legal(move)
    step = progress.task
    if not progress.free and not meets(step, state, move):
        return Attempt(False, progress, str(move))
    game.push(move)
    replies = tuple(answer(game))
    if progress.free:  # a move while the lesson waits: is it time now?
        return Attempt(True, settle(progress.lesson, game, progress.waited + 1), str(move), replies)
    if not step.until(game.state):
        moves = tuple(map(str, game.moves))
        return Attempt(True, replace(progress, moves=moves, back=False), str(move), replies)
    if progress.step + 1 < len(progress.current.steps):
        nxt = replace(
            progress, step=progress.step + 1, moves=tuple(map(str, game.moves)), back=False
        )
    else:
        own = None if progress.own is None else replay(progress.own)
        nxt = settle(progress.lesson + 1, game, own=own)
    return Attempt(True, nxt, str(move), replies, done=True)


def record(progress: Progress, names: tuple[str, str]) -> Record:
    """The learner's own game as a record (for the review at the end)."""
    moves = progress.own if progress.own is not None else progress.moves
    return replay(moves).to_record(players=names, event="Patchwork: a first game")
