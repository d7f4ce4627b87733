"""Game review: every move of a game judged by the searcher, as lichess does for chess.

Each position of the game is valued once, for both players at once (player 0's win
probability and expected final margin, under the best play the searcher finds; the exact
solver's verdict near the end, a finished game's own result at the end). A move's value
*before* is its position's value for the player who moved; its value *after* is the next
position's value for that same player (turns do not alternate in Patchwork, so the next
position may be theirs again). The difference, never below zero, is what the move gave away.

Classes and accuracy (chosen so that they mean something at the table):

- the searcher's own move is ``best`` (it gives nothing away by the searcher's lights: any
  difference between its two values is sampling noise, so its losses are reported as 0);
- otherwise the move's *weight* is the larger of the win probability given away and the
  points given away at ``POINTS_PER_UNIT`` points for a whole win probability (so 5 points
  weigh as much as 10 %: once a game is decided, its win probability no longer moves, but
  points still tell a good move from a bad one);
- weight below ``INACCURACY`` is ``good``, then ``inaccuracy``, ``mistake`` (``MISTAKE``),
  ``blunder`` (``BLUNDER``);
- a move's accuracy is ``103.17 exp(-4.354 weight) - 3.17``, clipped to 0-100 (lichess's
  curve, where a 10 % loss scores about 64), and a player's accuracy is the mean over their
  moves (a forced move, the only one legal, is left out of both).

The same record, limit and seed give the same review on any number of workers: positions
are searched with an iteration limit by default, each with its own seed.
"""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import numpy as np

from ..engine.errors import PatchworkError
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.record import Record
from ..engine.state import State
from .limit import Limit
from .search import MCTSAgent

Class = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
CLASSES: tuple[Class, ...] = ("best", "good", "inaccuracy", "mistake", "blunder")
INACCURACY = 0.05
MISTAKE = 0.10
BLUNDER = 0.20
POINTS_PER_UNIT = 50.0  # points that weigh as much as a whole win probability
DEFAULT_LIMIT = Limit(iterations=30_000)  # about 0.8 s a position on one core
DEFAULT_SEED = 0
WORST_SHOWN = 3

Progress = Callable[[int, int], None]  # (positions valued, positions in all)


@dataclass(frozen=True)
class Value:
    """A position's value for player 0 and the searcher's move there (None at the end)."""

    win0: float
    margin0: float
    best_move: str | None
    exact: bool

    def win(self, seat: int) -> float:
        return self.win0 if seat == 0 else 1.0 - self.win0

    def margin(self, seat: int) -> float:
        return self.margin0 if seat == 0 else -self.margin0


@dataclass(frozen=True)
class PlyReview:
    """One move judged: values before and after for the player who moved (``seat``)."""

    ply: int  # 1 for the first move; the position before it is the game's ply - 1
    seat: int
    move: str
    best_move: str
    win_probability_before: float
    win_probability_after: float
    margin_before: float
    margin_after: float
    loss: float  # win probability given away, 0-1
    margin_loss: float  # points given away
    klass: Class
    exact: bool  # both values exact (the solver's or the game's own result)
    forced: bool  # the only legal move

    @property
    def accuracy(self) -> float:
        return move_accuracy(_weight(self.loss, self.margin_loss))

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["class"] = d.pop("klass")
        return d


@dataclass(frozen=True)
class PlayerReview:
    seat: int
    name: str
    accuracy: float | None  # None when the player made no move of their own choosing
    counts: dict[Class, int]
    worst: list[int] = field(default_factory=list)  # plies, worst first

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "accuracy": self.accuracy,
            "inaccuracies": self.counts["inaccuracy"],
            "mistakes": self.counts["mistake"],
            "blunders": self.counts["blunder"],
            "counts": dict(self.counts),
            "worst": list(self.worst),
        }


@dataclass(frozen=True)
class Review:
    plies: list[PlyReview]
    players: list[PlayerReview]
    limit: str
    seed: int
    finished: bool  # the record reaches the end of the game

    def ply(self, n: int) -> PlyReview:
        return self.plies[n - 1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "plies": [p.to_dict() for p in self.plies],
            "players": [p.to_dict() for p in self.players],
            "limit": self.limit,
            "seed": self.seed,
            "finished": self.finished,
            "thresholds": {
                "inaccuracy": INACCURACY,
                "mistake": MISTAKE,
                "blunder": BLUNDER,
                "points_per_unit": POINTS_PER_UNIT,
            },
        }


# -- judging ----------------------------------------------------------------------------------


def _weight(loss: float, margin_loss: float) -> float:
    return max(loss, margin_loss / POINTS_PER_UNIT)


def classify(loss: float, margin_loss: float, best: bool = False) -> Class:
    """The class of a move that gave away ``loss`` win probability and ``margin_loss`` points."""
    if best:
        return "best"
    weight = _weight(loss, margin_loss)
    if weight >= BLUNDER:
        return "blunder"
    if weight >= MISTAKE:
        return "mistake"
    if weight >= INACCURACY:
        return "inaccuracy"
    return "good"


def move_accuracy(weight: float) -> float:
    """0-100: 100 for a move that gives nothing away, about 64 for one that gives 10 %."""
    return min(100.0, max(0.0, 103.1668 * math.exp(-4.354 * weight) - 3.1669))


# -- valuing positions ------------------------------------------------------------------------


def value(state: State, limit: Limit = DEFAULT_LIMIT, seed: int = DEFAULT_SEED) -> Value:
    """The value of ``state`` for player 0: its result if the game is over, else the searcher's
    verdict on its best move (exact when the endgame solver reaches the end)."""
    if state.is_terminal():
        s0, s1 = state.scores()
        return Value(1.0 if state.winner() == 0 else 0.0, float(s0 - s1), None, True)
    agent = MCTSAgent(limit=limit, seed=seed, reuse=False, name="review")
    try:
        result = agent.search(state, candidates=False)
    finally:
        agent.close()
    seat = result.player
    best = result.candidates[0] if not result.exact else None
    win = result.win_probability if best is None or best.visits == 0 else best.win_probability
    margin = result.margin if best is None or best.visits == 0 else best.margin
    return Value(
        win if seat == 0 else 1.0 - win,
        margin if seat == 0 else -margin,
        str(result.best_move),
        result.exact,
    )


def _value_text(args: tuple[str, Limit, int]) -> Value:
    text, limit, seed = args
    return value(State.from_text(text), limit, seed)


def position_seed(seed: int, index: int) -> int:
    """The search seed of the game's ``index``-th position: independent of the worker count."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0])


def values(
    states: Sequence[State],
    limit: Limit = DEFAULT_LIMIT,
    seed: int = DEFAULT_SEED,
    workers: int = 1,
    on_progress: Progress | None = None,
) -> list[Value]:
    """The value of every state, in order; with ``workers > 1`` in that many processes."""
    total = len(states)
    jobs = [(s.to_text(), limit, position_seed(seed, i)) for i, s in enumerate(states)]
    out: list[Value] = []
    if on_progress is not None:
        on_progress(0, total)
    if workers <= 1 or total <= 1:
        for i, state in enumerate(states):
            out.append(value(state, limit, jobs[i][2]))
            if on_progress is not None:
                on_progress(i + 1, total)
        return out
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(min(workers, total), mp_context=ctx) as pool:
        for i, v in enumerate(pool.map(_value_text, jobs)):
            out.append(v)
            if on_progress is not None:
                on_progress(i + 1, total)
    return out


# -- the review -------------------------------------------------------------------------------


def judge(game: Game, vals: Sequence[Value], names: Sequence[str] = ("", "")) -> Review:
    """The review of ``game`` given the value of each of its states (``vals``, one a state)."""
    states = game.states
    if len(vals) != len(states):
        raise PatchworkError(f"{len(vals)} values for {len(states)} positions")
    plies = []
    for i, (move, seat) in enumerate(zip(game.moves, game.movers(), strict=True)):
        before, after = vals[i], vals[i + 1]
        forced = len(states[i].legal_move_codes()) == 1
        best_text = before.best_move or str(move)
        is_best = forced or _same_move(move, best_text, states[i])
        loss = 0.0 if is_best else max(0.0, before.win(seat) - after.win(seat))
        margin_loss = 0.0 if is_best else max(0.0, before.margin(seat) - after.margin(seat))
        plies.append(
            PlyReview(
                ply=i + 1,
                seat=seat,
                move=str(move),
                best_move=best_text,
                win_probability_before=round(before.win(seat), 4),
                win_probability_after=round(after.win(seat), 4),
                margin_before=round(before.margin(seat), 2),
                margin_after=round(after.margin(seat), 2),
                loss=round(loss, 4),
                margin_loss=round(margin_loss, 2),
                klass=classify(loss, margin_loss, is_best),
                exact=before.exact and after.exact,
                forced=forced,
            )
        )
    players = [_player(seat, names[seat], plies) for seat in (0, 1)]
    return Review(plies, players, "", 0, game.state.is_terminal())


def _same_move(move: Move, text: str, state: State) -> bool:
    return move == Move.parse(text, state)


def _player(seat: int, name: str, plies: Sequence[PlyReview]) -> PlayerReview:
    own = [p for p in plies if p.seat == seat and not p.forced]
    counts: dict[Class, int] = {c: sum(p.klass == c for p in own) for c in CLASSES}
    accuracy = round(sum(p.accuracy for p in own) / len(own), 1) if own else None
    ranked = sorted(
        (p for p in own if p.klass != "best"),
        key=lambda p: (-_weight(p.loss, p.margin_loss), p.ply),
    )
    return PlayerReview(seat, name, accuracy, counts, [p.ply for p in ranked[:WORST_SHOWN]])


def review(
    game: Game | Record,
    limit: Limit | None = None,
    seed: int = DEFAULT_SEED,
    workers: int = 1,
    on_progress: Progress | None = None,
) -> Review:
    """Review every move of ``game`` (a record is replayed first: one that does not replay
    raises its InvalidRecordError before any search); an unfinished game up to its last move."""
    names: tuple[str, str] = ("", "")
    if isinstance(game, Record):
        names = game.players
        game = game.replay()
    limit = limit or DEFAULT_LIMIT
    vals = values(game.states, limit, seed, workers, on_progress)
    judged = judge(game, vals, names)
    return Review(judged.plies, judged.players, str(limit), seed, judged.finished)
