"""Game review: every move of a game judged by the searcher, as lichess does for chess.

Each position of the game is searched once; then the positions' values are made consistent
with the moves, from the last position back. A move is worth what the position it led to is
worth; the position before it is worth the more of that and of the searcher's own best move
there, win probability and margin each (the searcher's move, the most visited, is the one
whose estimate its search trusts). So a position's value is one number: the value after a
move is the value before the next one, a move never gains for the player who made it, and
what it gave away (its *loss*) is exactly the fall the chart shows: no fall without a move to
blame. Near the end the exact solver's verdict replaces the estimates, and a finished game's
own result values its last position, so a won game thrown away shows the fall on the move
that threw it.

Classes and accuracy (chosen so that they mean something at the table):

- a move that gave nothing away is ``best`` (the searcher knew nothing better);
- otherwise the move's *weight* is the larger of the win probability given away and the
  points given away at ``POINTS_PER_UNIT`` points for a whole win probability (so 6 points
  weigh as much as 10 %: once a game is decided, its win probability no longer moves, but
  points still tell a good move from a bad one);
- weight below ``INACCURACY`` is ``good``, then ``inaccuracy``, ``mistake`` (``MISTAKE``),
  ``blunder`` (``BLUNDER``);
- a move's accuracy is ``103.17 exp(-4.354 weight) - 3.17``, clipped to 0-100 (lichess's
  curve, where a 10 % loss scores about 64), and a player's accuracy is the mean over their
  moves (a forced move, the only one legal, is left out of both).

The same record, limit and seed give the same review on any number of workers (or on Ray): positions
are searched with an iteration limit by default, each with its own seed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

import numpy as np

from ..engine.errors import PatchworkError
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.record import Record
from ..engine.state import State
from ..i18n import N_
from ..parallel import open_executor
from .limit import Limit
from .search import MCTSAgent

Class = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
CLASSES: tuple[Class, ...] = ("best", "good", "inaccuracy", "mistake", "blunder")
FLAWS: tuple[Class, ...] = ("inaccuracy", "mistake", "blunder")  # what a summary counts
# What each class is called where a person reads it (marked for the catalogs).
LABELS: dict[Class, str] = {
    "best": N_("best"),
    "good": N_("good"),
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
}
INACCURACY = 0.05
MISTAKE = 0.10
BLUNDER = 0.20
POINTS_PER_UNIT = 60.0  # points that weigh as much as a whole win probability
DEFAULT_LIMIT = Limit(iterations=30_000)  # about 0.8 s a position on one core
DEFAULT_SEED = 0
WORST_SHOWN = 3

Progress = Callable[[int, int], None]  # (positions valued, positions in all)


@dataclass(frozen=True)
class Value:
    """A position's value for player 0: what the searcher's move there is worth (the
    result at the end, where there is no move: None)."""

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
    worst: list[int] = field(default_factory=list)  # the worst flawed moves' plies, worst first

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
    limit: Limit
    seed: int
    finished: bool  # the record reaches the end of the game
    final: tuple[float, float] = (0.5, 0.0)  # player 0's win and margin at the last position

    def ply(self, n: int) -> PlyReview:
        return self.plies[n - 1]

    def curve(self) -> list[tuple[int, float, float]]:
        """(ply, player 0's win probability, player 0's margin) of each position of the game,
        from the start (ply 0) to the last (its result when the game is over)."""
        points = [
            (
                p.ply - 1,
                _for0(p.seat, p.win_probability_before),
                p.margin_before if p.seat == 0 else -p.margin_before,
            )
            for p in self.plies
        ]
        return [*points, (len(self.plies), round(self.final[0], 4), round(self.final[1], 2))]

    def to_dict(self) -> dict[str, Any]:
        return {
            "plies": [p.to_dict() for p in self.plies],
            "players": [p.to_dict() for p in self.players],
            "limit": str(self.limit),
            "seed": self.seed,
            "finished": self.finished,
            "curve": [
                {"ply": ply, "win_probability": win, "margin": margin}
                for ply, win, margin in self.curve()
            ],
            "thresholds": {
                "inaccuracy": INACCURACY,
                "mistake": MISTAKE,
                "blunder": BLUNDER,
                "points_per_unit": POINTS_PER_UNIT,
            },
        }


def _for0(seat: int, win: float) -> float:
    return win if seat == 0 else round(1.0 - win, 4)


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
    return min(100.0, max(0.0, 103.1668 * math.exp(-4.354 * weight) - 3.1668))


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
    win, margin = result.win_probability, result.margin
    best = result.move_stats.get(result.best_move.code(state.rules.mode))
    if best is not None and not result.exact:  # the move's own figures, not the root's
        _, win, margin = best
    win0, margin0 = (win, margin) if result.player == 0 else (1.0 - win, -margin)
    return Value(win0, margin0, str(result.best_move), result.exact)


def _value_job(job: tuple[int, str, Limit, int]) -> tuple[int, Value]:
    index, text, limit, seed = job
    return index, value(State.from_text(text), limit, seed)


def position_seed(seed: int, index: int) -> int:
    """The search seed of the game's ``index``-th position: independent of the worker count."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0])


def values(
    states: Sequence[State],
    limit: Limit = DEFAULT_LIMIT,
    seed: int = DEFAULT_SEED,
    workers: int | None = 1,
    on_progress: Progress | None = None,
    ray: str | None = None,
) -> list[Value]:
    """The value of every state, in order; with ``workers > 1`` in that many processes, with
    ``ray`` on the Ray cluster at that address (``patchwork.parallel.open_executor``; a
    cluster that cannot be reached raises PatchworkError before any search). ``on_progress``
    may raise to stop early (the exception comes out of this call)."""
    total = len(states)
    jobs = [(i, s.to_text(), limit, position_seed(seed, i)) for i, s in enumerate(states)]
    if ray is None:
        workers = min(workers or 1, total)
    out: dict[int, Value] = {}
    if on_progress is not None:
        on_progress(0, total)
    with open_executor(workers, ray) as executor:
        for index, v in executor.map_unordered(_value_job, jobs):
            out[index] = v
            if on_progress is not None:
                on_progress(len(out), total)  # may raise to stop: the rest is then dropped
    return [out[i] for i in range(total)]


# -- the review -------------------------------------------------------------------------------


def judge(game: Game, vals: Sequence[Value], names: Sequence[str] = ("", "")) -> Review:
    """The review of ``game`` given the value of each of its states (``vals``, one a state),
    the positions' values made consistent with the moves from the last back (module doc)."""
    states = game.states
    if len(vals) != len(states):
        raise PatchworkError(f"{len(vals)} values for {len(states)} positions")
    last = vals[-1]
    after = _Point(last.win0, last.margin0, last.exact)
    plies = []
    moves = list(zip(game.moves, game.movers(), strict=True))
    for i in reversed(range(len(moves))):
        move, seat = moves[i]
        state = states[i]
        forced = len(state.legal_move_codes()) == 1
        before, best = (after, None) if forced else _before(vals[i], move, seat, state, after)
        loss = round(before.win(seat) - after.win(seat), 4)
        margin_loss = round(before.margin(seat) - after.margin(seat), 2)
        best_text = str(move) if best is None else best
        plies.append(
            PlyReview(
                ply=i + 1,
                seat=seat,
                move=str(move),
                best_move=best_text,
                win_probability_before=before.win(seat),
                win_probability_after=after.win(seat),
                margin_before=before.margin(seat),
                margin_after=after.margin(seat),
                loss=loss,
                margin_loss=margin_loss,
                klass=classify(loss, margin_loss, best is None),
                exact=before.exact and after.exact,
                forced=forced,
            )
        )
        after = before
    plies.reverse()
    players = [_player(seat, names[seat], plies) for seat in (0, 1)]
    return Review(
        plies,
        players,
        DEFAULT_LIMIT,
        DEFAULT_SEED,
        game.state.is_terminal(),
        (round(last.win0, 4), round(last.margin0, 2)),
    )


@dataclass(frozen=True)
class _Point:
    """A position's value on the chart, for player 0 (rounded as shown)."""

    win0: float
    margin0: float
    exact: bool

    def __post_init__(self) -> None:
        object.__setattr__(self, "win0", round(min(1.0, max(0.0, self.win0)), 4))
        object.__setattr__(self, "margin0", round(self.margin0, 2))

    def win(self, seat: int) -> float:
        return self.win0 if seat == 0 else round(1.0 - self.win0, 4)

    def margin(self, seat: int) -> float:
        return self.margin0 if seat == 0 else -self.margin0

    @staticmethod
    def of(seat: int, win: float, margin: float, exact: bool) -> _Point:
        return _Point(win, margin, exact) if seat == 0 else _Point(1.0 - win, -margin, exact)


def _before(
    v: Value, move: Move, seat: int, state: State, after: _Point
) -> tuple[_Point, str | None]:
    """The value of the position before ``move`` (searched: ``v``) given the value after it,
    and the searcher's better move (None when it knew none better than where ``move`` led)."""
    best = v.best_move
    if best is None or _same_move(move, best, state):
        return after, None
    win, margin = v.win(seat), v.margin(seat)  # the searcher's move's (``value``)
    if _weight(win - after.win(seat), margin - after.margin(seat)) <= 0:
        return after, None
    return _Point.of(
        seat,
        max(win, after.win(seat)),
        max(margin, after.margin(seat)),
        v.exact and after.exact,
    ), best


def _same_move(move: Move, text: str, state: State) -> bool:
    return move == Move.parse(text, state)


def _player(seat: int, name: str, plies: Sequence[PlyReview]) -> PlayerReview:
    own = [p for p in plies if p.seat == seat and not p.forced]
    counts: dict[Class, int] = {c: sum(p.klass == c for p in own) for c in CLASSES}
    accuracy = round(sum(p.accuracy for p in own) / len(own), 1) if own else None
    ranked = sorted(
        (p for p in own if p.klass in FLAWS),
        key=lambda p: (-_weight(p.loss, p.margin_loss), p.ply),
    )
    return PlayerReview(seat, name, accuracy, counts, [p.ply for p in ranked[:WORST_SHOWN]])


def review(
    game: Game | Record,
    limit: Limit | None = None,
    seed: int = DEFAULT_SEED,
    workers: int | None = 1,
    on_progress: Progress | None = None,
    names: Sequence[str] | None = None,
    ray: str | None = None,
) -> Review:
    """Review every move of ``game`` (a record is replayed first: one that does not replay
    raises its InvalidRecordError before any search); an unfinished game up to its last move.
    ``names`` default to the record's players; ``workers`` and ``ray`` as for :func:`values`."""
    if isinstance(game, Record):
        names = names or game.players
        game = game.replay()
    names = names or ("", "")
    limit = limit or DEFAULT_LIMIT
    vals = values(game.states, limit, seed, workers, on_progress, ray)
    return replace(judge(game, vals, names), limit=limit, seed=seed)
