"""The search proof: a position too far from the end for the exact solver is a puzzle when the
searcher finds one move clearly best, twice (docs/puzzles.md, "The search proof").

The searcher (``ai.search``) decides what to do (advance, or which patch) and ranks where a
patch goes by its placement policy, trying the best few placements. Its search of the
position names the moves to rate: its own move for each choice, and each placement of its
chosen patch that it tried often (``RATED``). A search starves the moves it finds bad, so
each of those moves is then rated on its own, as a game review rates a move: the searcher's
value of the position after it (``ai.review.value``, ``VALUE`` iterations). The answers are
the best rated move and the placements of the same patch rated as good (``SAME_WIN``,
``SAME_MARGIN``); every other rated move must trail every answer by ``WIN_GAP`` in win
probability and ``MARGIN_GAP`` points of expected final margin, the answers must win
(``LEAST_WIN``), and the searcher's own move must be one of them. Rated again with twice the
iterations and another seed, the moves must give the same answers' patch, clearly best
again: those figures are kept, so that an answer is judged without searching again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..ai.analysis import analyse
from ..ai.limit import Limit
from ..ai.review import value
from ..ai.search import SearchResult
from ..engine.moves import Buy, Move, move_from_code, parse_move
from ..engine.state import State

SCREEN = 10_000  # a first look: the search of the position must already see the gap
ITERATIONS = 50_000  # the search that names the moves to rate (about 0.7 s on one core)
# Each move rated from the position after it: a game review's search (ai.review.DEFAULT_LIMIT),
# three times AI level 4's a move; the confirmation rates it again with twice as many.
VALUE = 30_000
RATED = 0.01  # a placement of the chosen patch this share of the search tried is rated too
# Every other move gives away more than a review's mistake (10 %, ai.review.MISTAKE), with
# room for the search's noise (a rating's is a few points), and as many points as an exact
# puzzle's gap (find.GAP).
WIN_GAP = 0.15
MARGIN_GAP = 4.0
LEAST_WIN = 0.5  # the answers win, as an exact puzzle's do
# Placements of the answers' patch this close to the best move are answers too.
SAME_WIN = 0.03
SAME_MARGIN = 1.0


@dataclass(frozen=True)
class Estimate:
    """A move as the proving search rates it, for the player who makes it."""

    win: float  # win probability, 0-1
    margin: float  # expected final score margin

    def to_dict(self) -> dict[str, Any]:
        return {"win": self.win, "margin": self.margin}

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> Estimate:
        return Estimate(float(d["win"]), float(d["margin"]))


@dataclass(frozen=True)
class SearchProof:
    """What a search-proved puzzle was proved by: the ``iterations`` each move was rated with
    and the figures of every move rated (move text -> Estimate)."""

    iterations: int
    moves: dict[str, Estimate]

    def to_dict(self) -> dict[str, Any]:
        return {
            "iterations": self.iterations,
            "moves": {m: e.to_dict() for m, e in self.moves.items()},
        }

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> SearchProof:
        moves = {str(m): Estimate.from_dict(e) for m, e in d["moves"].items()}
        return SearchProof(int(d["iterations"]), moves)

    def best(self, answers: Sequence[str]) -> Estimate:
        """The best rated answer's figures."""
        return max((self.moves[a] for a in answers), key=lambda e: (e.win, e.margin))

    def rival(self, answers: Sequence[str]) -> Estimate:
        """The most any other rated move gets: the highest win probability and the highest
        margin (perhaps of two different moves)."""
        others = [e for m, e in self.moves.items() if m not in answers]
        return Estimate(max(e.win for e in others), max(e.margin for e in others))

    def of_choice(self, move: str) -> Estimate:
        """The best rating of ``move``'s choice (advance, or its patch): what a placement
        that was not rated is given."""
        key = choice(move)
        rated = [e for m, e in self.moves.items() if choice(m) == key]
        return max(rated, key=lambda e: (e.win, e.margin))


def choice(move: str | Move) -> str:
    """What a move decides before where it goes: ``A``, ``S`` (a special patch) or the id of
    the patch it buys."""
    m = parse_move(move) if isinstance(move, str) else move
    return str(m.patch_id) if isinstance(m, Buy) else str(m)[0]


def _search(state: State, iterations: int, seed: int) -> SearchResult:
    limit = Limit(iterations=iterations)
    return analyse(state, limit, seed=seed, exact_endgame=False, name="puzzle proof")


def _root(result: SearchResult, share: float) -> dict[str, Estimate]:
    """The search's own figures: its move for each choice, and the placements of its chosen
    patch tried at least ``share`` of the time."""
    chosen = choice(result.best_move)
    shown = {c.move for c in result.candidates}
    least = share * result.iterations
    found = {}
    for code, (visits, win, margin) in result.move_stats.items():
        move = move_from_code(code)
        if move in shown or (choice(move) == chosen and visits >= least):
            found[str(move)] = Estimate(round(win, 4), round(margin, 2))
    return found


def answers_of(rated: Mapping[str, Estimate]) -> tuple[str, ...] | None:
    """The answers if a move is clearly best among the ``rated`` (see the module's
    docstring), else None."""
    best_move = max(rated, key=lambda m: (rated[m].win, rated[m].margin))
    b = rated[best_move]
    answers = tuple(
        sorted(
            m
            for m, e in rated.items()
            if choice(m) == choice(best_move)
            and e.win >= b.win - SAME_WIN
            and e.margin >= b.margin - SAME_MARGIN
        )
    )
    others = [e for m, e in rated.items() if m not in answers]
    least = Estimate(min(rated[a].win for a in answers), min(rated[a].margin for a in answers))
    if not others or least.win < LEAST_WIN:
        return None
    if any(least.win - e.win < WIN_GAP or least.margin - e.margin < MARGIN_GAP for e in others):
        return None
    return answers


def rate(
    state: State, moves: Sequence[str], iterations: int, seed: int
) -> dict[str, Estimate] | None:
    """Each move rated as a review rates it: the value of the position after it, for the
    player who makes it. None as soon as a move of another choice comes within the gaps of
    the first (the searcher's own move, which must be an answer): no puzzle then."""
    mover = state.current_player
    assert mover is not None
    rated: dict[str, Estimate] = {}
    for i, move in enumerate(moves):
        v = value(state.apply(parse_move(move)), Limit(iterations=iterations), seed + i)
        e = rated[move] = Estimate(round(v.win(mover), 4), round(v.margin(mover), 2))
        first = rated[moves[0]]
        if choice(move) != choice(moves[0]) and (
            e.win > first.win - WIN_GAP or e.margin > first.margin - MARGIN_GAP
        ):
            return None
    return rated


def prove(state: State, seed: int) -> tuple[tuple[str, ...], SearchProof, tuple[str, ...]] | None:
    """The answers of ``state``, the proof and the searcher's line, if a move is clearly best
    (see the module's docstring); else None. Most positions cost only the first look."""
    if answers_of(_root(_search(state, SCREEN, seed), 0.0)) is None:
        return None
    found = _search(state, ITERATIONS, seed + 1)
    line = tuple(map(str, found.principal_line))
    # The searcher's move first, then the other choices', then its other placements.
    moves = sorted(_root(found, RATED), key=lambda m: (m != line[0], choice(m) == choice(line[0])))
    proved = None
    for n, iterations in enumerate((VALUE, 2 * VALUE)):  # the second's figures are kept
        rated = rate(state, moves, iterations, seed + 100 * (n + 1))
        answers = None if rated is None else answers_of(rated)
        if rated is None or answers is None or line[0] not in answers:
            return None
        proved = answers, SearchProof(iterations, rated), line
    return proved
