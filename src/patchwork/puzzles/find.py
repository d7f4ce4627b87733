"""A position made a puzzle: proved in its phase's way, its themes and its difficulty.

Near the end (both time tokens within ``NEAR_END`` spaces of it) every move is proved with the
exact endgame search (``proof.outcomes``): the position is a puzzle when the moves that end
best win, are at most a third of the moves (a real choice, not a free one), and end at least
``GAP`` points ahead of every other move. Earlier, in the middle game, a large search proves
it (``search_proof``). Its themes are read off the right and wrong moves, and its difficulty
off which of the AI levels 1-4 find an answer (1: level 1 does, .. 5: none does).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from typing import Literal

from ..ai import endgame
from ..ai.levels import former, level
from ..engine import PATCHES, Buy, Game, Move, State
from . import search_proof
from .proof import Outcome, outcomes
from .puzzle import Puzzle, Theme
from .search_proof import SearchProof

NEAR_END = 20  # spaces to the end (both tokens) from which positions are proved exactly
MOST_ANSWERS = 1 / 3  # a puzzle's answers are at most this share of its legal moves
GAP = 4  # points an answer ends ahead of every other move, at least
# The levels that set a puzzle's difficulty, weakest first: the ladder's former levels 1-4
# (the difficulties of the shipped puzzles were measured with them).
FINDERS = tuple(former(n) for n in (1, 2, 3, 4))
Phase = Literal["endgame", "middlegame"]
PHASES: tuple[Phase, ...] = ("endgame", "middlegame")


def phase_of(state: State) -> Phase:
    return "endgame" if endgame.near_end(state, NEAR_END) else "middlegame"


def candidate(state: State, phases: Collection[Phase]) -> bool:
    """Whether to prove ``state``: a choice to make, in a phase asked for."""
    return len(state.legal_move_codes()) > 1 and phase_of(state) in phases


def prove(game: Game, ply: int, seed: int, source: str) -> Puzzle | None:
    """The puzzle the position before ``game``'s move ``ply`` makes, proved in its phase's
    way (a middle-game search from ``seed``), or None: no move is clearly best."""
    state = game.states[ply]
    if phase_of(state) == "middlegame":
        found = search_proof.prove(state, seed)
        return None if found is None else searched(game, ply, *found, source=source)
    proved = outcomes(state)
    return None if proved is None else puzzle_of(game, ply, proved, source)


def puzzle_of(game: Game, ply: int, proved: dict[str, Outcome], source: str) -> Puzzle | None:
    """The puzzle given every move's proved end, or None: its answers are the moves that end
    best; they must win, be at most a third of the moves, and end at least ``GAP`` points
    better than any other move."""
    best = max(o.margin for o in proved.values())
    answers = sorted(m for m, o in proved.items() if o.margin == best)
    others = [o.margin for o in proved.values() if o.margin < best]
    if not proved[answers[0]].wins or not others or len(answers) > MOST_ANSWERS * len(proved):
        return None
    if best - max(others) < GAP:
        return None
    wrong = [m for m in proved if m not in answers]
    line = proved[answers[0]].line
    return _puzzle(game, ply, tuple(answers), wrong, line, best, best - max(others), source)


def searched(
    game: Game,
    ply: int,
    answers: tuple[str, ...],
    proof: SearchProof,
    line: tuple[str, ...],
    source: str,
) -> Puzzle:
    """The puzzle a search proved: its margin the searcher's expected margin (rounded), its
    gap the points every other move it rated trails every answer by (rounded down)."""
    rated = proof.moves
    wrong = [m for m in rated if m not in answers]
    gap = min(rated[a].margin for a in answers) - max(rated[m].margin for m in wrong)
    margin = round(rated[line[0]].margin)
    return _puzzle(game, ply, answers, wrong, line, margin, math.floor(gap), source, proof)


def _puzzle(
    game: Game,
    ply: int,
    answers: tuple[str, ...],
    wrong: Iterable[str],
    line: tuple[str, ...],
    margin: int,
    gap: int,
    source: str,
    search: SearchProof | None = None,
) -> Puzzle:
    state = game.states[ply]
    return Puzzle(
        id="",
        position=state.to_text(),
        answers=answers,
        line=line,
        margin=margin,
        gap=gap,
        proof="exact" if search is None else "search",
        themes=themes(state, set(answers), wrong),
        difficulty=difficulty(state, set(answers)),
        moves=len(state.legal_move_codes()),
        source=source,
        start=game.start.to_text(),
        before=tuple(map(str, game.moves[:ply])),
        search=search,
    )


def themes(state: State, answers: set[str], wrong: Iterable[str]) -> tuple[Theme, ...]:
    """What the puzzle turns on, read off its right moves and those proved wrong."""
    right = [Move.parse(m, state) for m in answers]
    wrong_moves = [Move.parse(m, state) for m in wrong]
    found: list[Theme] = [phase_of(state)]
    mover = state.current_player
    if state.bonus_owner is None and all(state.apply(m).bonus_owner == mover for m in right):
        found.append("bonus")
    if all(str(m) == "A" for m in right) or (
        any(str(m) == "A" for m in wrong_moves) and all(isinstance(m, Buy) for m in right)
    ):
        found.append("timing")
    right_patches = {m.patch_id for m in right if isinstance(m, Buy)}
    if any(isinstance(m, Buy) and m.patch_id in right_patches for m in wrong_moves):
        found.append("packing")  # the right patch, sewn on the wrong way, loses
    wrong_buys = [m.patch_id for m in wrong_moves if isinstance(m, Buy)]
    pays = right_patches and all(PATCHES[p].income > 0 for p in right_patches)
    if pays and wrong_buys and all(PATCHES[p].income == 0 for p in wrong_buys):
        found.append("income")  # the patch that pays, against those that do not
    return tuple(found)


def difficulty(state: State, answers: set[str], seed: int = 0) -> int:
    """1 when the weakest finder finds an answer, .. 4 when only the strongest does, 5 when
    none does."""
    for d, n in enumerate(FINDERS, start=1):
        if str(level(n, seed=seed).choose(state)) in answers:
            return d
    return len(FINDERS) + 1
