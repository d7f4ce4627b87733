"""The guided first game: where a learner stands (``Progress``) and what a move does there.

The learner sits in seat 0 of one game from the tutorial's own setup, against a gentle
opponent (AI level 1, seeded by the ply, so the same moves get the same answers). A lesson
goes on in the learner's own game when its first step can be met there; otherwise it starts
from the prepared game (``data/game.json``, made by ``prepare.py``), at a position its test
proves the step can be met. Progress is the lesson, its step and the game's moves: small,
kept by each interface (a file, the browser's storage) and checked again by the engine when
it comes back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..ai.levels import level
from ..engine import Game, Move, PatchworkError, Record, State, new_game
from ..i18n import N_
from .lessons import LESSONS, Lesson, Step

DATA = Path(__file__).with_name("data") / "game.json"
LEARNER, OPPONENT = 0, 1
OPPONENT_LEVEL = 1
MOST_MOVES = 200  # no game of Patchwork is longer: a longer saved progress is not ours


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
    ``step`` and the moves of the learner's game so far. ``free``: the step cannot be met in
    this position yet, so any move will do while the lesson waits (``waited`` moves so far);
    ``jumped``: the lesson started from the prepared game instead of the learner's own."""

    lesson: int
    step: int
    moves: tuple[str, ...]
    free: bool = False
    waited: int = 0
    jumped: bool = False

    @property
    def finished(self) -> bool:
        return self.lesson >= len(LESSONS)

    @property
    def current(self) -> Lesson:
        return LESSONS[min(self.lesson, len(LESSONS) - 1)]

    @property
    def task(self) -> Step:
        return self.current.steps[self.step]

    def to_dict(self) -> dict[str, Any]:
        return {"lesson": self.lesson, "step": self.step, "moves": list(self.moves),
                "waited": self.waited, "jumped": self.jumped}  # fmt: skip

    @staticmethod
    def from_dict(d: object) -> Progress:
        """Progress kept earlier, checked: its lesson and step exist and its moves replay to
        a position where the learner is to move (or the game's end, the course over); else
        PatchworkError saying what is wrong."""
        if not isinstance(d, dict):
            raise PatchworkError(N_("the saved lesson is not a JSON object"))
        lesson, step, moves = d.get("lesson"), d.get("step", 0), d.get("moves")
        waited, jumped = d.get("waited", 0), d.get("jumped", False)
        if not (isinstance(lesson, int) and 0 <= lesson <= len(LESSONS)):
            raise PatchworkError(N_("the saved lesson number is not one of the lessons"))
        if not (isinstance(moves, list) and len(moves) <= MOST_MOVES):
            raise PatchworkError(N_("the saved lesson's moves are not a list of moves"))
        if not all(isinstance(m, str) and len(m) <= 20 for m in moves):
            raise PatchworkError(N_("the saved lesson's moves are not a list of moves"))
        steps = len(LESSONS[lesson].steps) if lesson < len(LESSONS) else 1
        if not (isinstance(step, int) and 0 <= step < steps):
            raise PatchworkError(N_("the saved lesson's step is not one of its steps"))
        if not (isinstance(waited, int) and 0 <= waited <= MOST_MOVES):
            raise PatchworkError(N_("the saved lesson's count of moves is not a number of moves"))
        game = replay(moves)
        state = game.state
        if lesson == len(LESSONS):
            if not state.is_terminal():
                raise PatchworkError(N_("the saved lessons are over, but their game is not"))
            return Progress(lesson, 0, tuple(moves))
        if state.current_player != LEARNER:
            raise PatchworkError(N_("the saved lesson's game is not at the learner's move"))
        step_ = LESSONS[lesson].steps[step]
        return Progress(
            lesson, step, tuple(moves), not can_meet(step_, state), waited, bool(jumped)
        )


@dataclass(frozen=True)
class Attempt:
    """A move tried: ``met`` whether it was played (it meets the step, or the lesson waits
    and any move will do); if not, ``progress`` is unchanged. ``replies``: the opponent's
    answers."""

    met: bool
    progress: Progress
    move: str
    replies: tuple[str, ...] = ()


def meets(step: Step, before: State, move: Move) -> bool:
    return step.goal(before, move, before.apply(move))


def can_meet(step: Step, state: State) -> bool:
    """Whether some legal move of ``state`` meets ``step`` (the learner to move)."""
    if state.current_player != LEARNER:
        return False
    return any(meets(step, state, m) for m in state.legal_moves())


def begin() -> Progress:
    return settle(0, Game(setup()))


def settle(lesson: int, game: Game, waited: int = 0) -> Progress:
    """Lesson ``lesson`` in the learner's game: asking for its first step that some move
    meets; else waiting, any move allowed, while its patience lasts and it can still come in
    this game; else from the prepared game's position for it."""
    moves = tuple(map(str, game.moves))
    if lesson >= len(LESSONS):
        return Progress(lesson, 0, moves)
    this = LESSONS[lesson]
    for i, step in enumerate(this.steps):  # a later step may be ready already (a special
        if can_meet(step, game.state):  # patch passed just before its lesson)
            return Progress(lesson, i, moves, waited=waited)
    learner = game.state.current_player == LEARNER
    if learner and waited < this.patience and this.still_possible(game.state):
        return Progress(lesson, 0, moves, free=True, waited=waited)
    p = prepared()
    return Progress(lesson, 0, p.line[: p.starts[lesson]], jumped=True)


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
        return Attempt(True, Progress(progress.lesson, progress.step, moves), str(move), replies)
    if progress.step + 1 < len(progress.current.steps):
        nxt = Progress(progress.lesson, progress.step + 1, tuple(map(str, game.moves)))
    else:
        nxt = settle(progress.lesson + 1, game)
    return Attempt(True, nxt, str(move), replies)


def record(progress: Progress, names: tuple[str, str]) -> Record:
    """The learner's game as a record (for the review at the end)."""
    return replay(progress.moves).to_record(players=names, event="Patchwork: a first game")
