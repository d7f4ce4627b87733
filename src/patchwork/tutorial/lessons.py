"""The lessons of the guided first game, in their order, each a few steps.

A step asks for a move and says which moves meet it (``goal``). Goals only read what the
engine says of a move and of the positions before and after it (whose turn it is, the
buttons, the special patches waiting, the bonus tile's owner, the end): no rule of the game
is written here again. The texts are English, marked for the catalogs; each interface shows
them in its reader's language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..engine import PATCHES, Advance, Buy, Move, PlaceSpecial, State
from ..engine.moves import Square
from ..i18n import N_

Goal = Callable[[State, Move, State], bool]  # (before, move, after) -> the move meets the step


@dataclass(frozen=True)
class Step:
    """One thing a lesson asks for: ``task`` says it, ``hint`` answers a legal move that does
    not meet it, ``done`` follows a move that does. ``until``: the step goes on (move after
    move, the opponent answering) until the position after a move meets it."""

    task: str
    hint: str
    done: str
    goal: Goal
    until: Callable[[State], bool] = lambda after: True


@dataclass(frozen=True)
class Lesson:
    """A chapter of the guided game: its ``title``, what it teaches (``text``) and its steps."""

    id: str
    title: str
    text: str
    steps: tuple[Step, ...]
    patience: int = 4  # free moves the lesson waits for its first step (then: prepared game)
    still_possible: Callable[[State], bool] = lambda state: True


# Said by every lesson, whichever it is.
WAITING = N_("You cannot do this yet in this game. Make any move: the lesson waits for its moment.")
JUMPED = N_(
    "Your game has not come to this yet, so this lesson is shown on a prepared game. Your own "
    "game waits and goes on after it."
)
BACK = N_("Back to your own game, where you left it.")
COUNTING = N_(
    "Each player scores their buttons, plus 7 for the bonus tile, minus 2 for each empty "
    "square of their quilt."
)


# -- what the goals read ----------------------------------------------------------------------


def _mover(before: State) -> int:
    player = before.current_player
    assert player is not None  # a move was made there
    return player


def _shape(squares: frozenset[Square] | tuple[Square, ...]) -> frozenset[Square]:
    """Squares moved to the top-left corner: the shape, wherever it lies."""
    top = min(r for r, _ in squares)
    left = min(c for _, c in squares)
    return frozenset((r - top, c - left) for r, c in squares)


def turned(move: Move) -> bool:
    """A patch sewn on turned or flipped: its shape on the quilt is not the printed one."""
    return isinstance(move, Buy) and _shape(move.squares) != _shape(PATCHES[move.patch_id].cells)


def beside(before: State, move: Move) -> bool:
    """A patch laid against the quilt board's edge or against a patch already sewn on (advice
    for a compact quilt, not a rule: any free squares would do)."""
    if not isinstance(move, Buy):
        return False
    sewn = before.players[_mover(before)].quilt.squares
    last = 8
    for r, c in move.squares:
        if r in (0, last) or c in (0, last):
            return True
        if {(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)} & sewn:
            return True
    return False


def moves_again(before: State, after: State) -> bool:
    """Still behind (or on top of the same space) after moving: the same player goes again."""
    return after.current_player == _mover(before)


def pays_income(move: Move) -> bool:
    return isinstance(move, Buy) and PATCHES[move.patch_id].income > 0


def gets_special(before: State, after: State) -> bool:
    """The move passed a special patch: its player now has one to sew on."""
    return after.pending_specials > 0 and after.current_player == _mover(before)


def leather_ahead(state: State) -> bool:
    """A special patch still lies ahead of the learner's time token (seat 0)."""
    here = state.players[0].position
    return any(space > here for space in state.special_spaces_left)


def wins_bonus(before: State, after: State) -> bool:
    return before.bonus_owner is None and after.bonus_owner == _mover(before)


# -- the lessons --------------------------------------------------------------------------------

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "buy",
        N_("Buying a patch"),
        N_(
            "You and your opponent each sew a quilt on a 9×9 board. The patches lie in a "
            "circle, and you may buy one of the three that follow the neutral token. A patch "
            "costs the buttons printed on it, and its hourglass says how far your time token "
            "moves on the time board."
        ),
        (
            Step(
                N_("Buy one of the three patches in front of the neutral token."),
                N_("This lesson asks you to buy a patch: pick one of the three offered."),
                N_(
                    "Well done: you paid its buttons and your time token moved on. The "
                    "neutral token now stands where your patch lay."
                ),
                lambda before, move, after: isinstance(move, Buy),
            ),
        ),
    ),
    Lesson(
        "place",
        N_("Placing a patch"),
        N_(
            "A patch can go anywhere on your quilt where it fits: it may not overlap another "
            "patch or stick out of the board. Every square left empty at the end costs you 2 "
            "points, so keep the quilt compact and leave no holes that nothing fits."
        ),
        (
            Step(
                N_("Buy a patch and lay it against the board's edge or against your first patch."),
                N_("Lay the patch against an edge of the board or beside a patch already sewn on."),
                N_("Neatly done: patches packed together leave room for the big ones later."),
                lambda before, move, after: beside(before, move),
            ),
        ),
    ),
    Lesson(
        "turn",
        N_("Turning and flipping"),
        N_(
            "Before you sew a patch on, you may turn it and flip it over, so that it fits the "
            "gap you have."
        ),
        (
            Step(
                N_("Buy a patch and sew it on turned or flipped."),
                N_(
                    "Turn or flip the patch before you sew it on: its shape "
                    "should differ from the printed one."
                ),
                N_("That is the patch turned: any of its eight ways round is allowed."),
                lambda before, move, after: turned(move),
            ),
        ),
    ),
    Lesson(
        "time",
        N_("Time and who moves next"),
        N_(
            "There are no fixed turns. The player whose time token is furthest behind on the "
            "time board always moves next, so a cheap patch in time can give you several "
            "moves in a row. When both tokens share a space, the one on top moves first."
        ),
        (
            Step(
                N_(
                    "Buy a patch that moves your time token so little that "
                    "you are still behind, and move again."
                ),
                N_(
                    "That move would put you ahead on the time board: look "
                    "for a patch with a smaller hourglass."
                ),
                N_("You are still behind on the time board, so it is your move again."),
                lambda before, move, after: isinstance(move, Buy) and moves_again(before, after),
            ),
        ),
    ),
    Lesson(
        "advance",
        N_("Advancing for buttons"),
        N_(
            "Instead of buying, you may move your time token to the space just past your "
            "opponent's, and take one button for every space you moved. It is how you get "
            "buttons when nothing you can afford is worth its time."
        ),
        (
            Step(
                N_("Advance: move your time token just past your opponent's."),
                N_("This lesson asks you to advance instead of buying."),
                N_("You took a button for every space your time token moved."),
                lambda before, move, after: isinstance(move, Advance),
            ),
        ),
    ),
    Lesson(
        "income",
        N_("Income"),
        N_(
            "Some patches have buttons printed on them. Each time your time token crosses a "
            "button on the time board, you take as many buttons as your quilt shows. A patch "
            "with buttons bought early pays again and again."
        ),
        (
            Step(
                N_("Buy a patch that has buttons printed on it."),
                N_("Pick a patch with buttons on it: those are the ones that pay income."),
                N_(
                    "Your income has grown: you will be paid it at "
                    "every button your time token crosses."
                ),
                lambda before, move, after: pays_income(move),
            ),
        ),
    ),
    Lesson(
        "special",
        N_("Special patches"),
        N_(
            "Five small leather patches lie on the time board. The first player whose time "
            "token passes one takes it and sews it on at once, anywhere it fits: it is free "
            "and fills a hole of one square."
        ),
        (
            Step(
                N_("Make a move that takes your time token past the next leather patch."),
                N_("That move does not reach the leather patch: go further on the time board."),
                N_("You passed the leather patch: it is yours."),
                lambda before, move, after: gets_special(before, after),
            ),
            Step(
                N_("Sew the special patch onto an empty square of your quilt."),
                N_("The special patch must be sewn on first."),
                N_("A hole filled for free: one square less to cost you 2 points."),
                lambda before, move, after: isinstance(move, PlaceSpecial),
            ),
        ),
        patience=30,  # as long as a leather patch lies ahead: the learner's token gets there
        still_possible=leather_ahead,
    ),
    Lesson(
        "bonus",
        N_("The 7×7 bonus"),
        N_(
            "The first player to cover a whole 7×7 square of their quilt, anywhere on it, takes "
            "the bonus tile: 7 points at the end."
        ),
        (
            Step(
                N_("Buy a patch that completes a 7×7 square on your quilt."),
                N_(
                    "That leaves your 7×7 square unfinished: find the "
                    "patch and the place that complete it."
                ),
                N_("The bonus tile is yours: 7 points at the end."),
                lambda before, move, after: wins_bonus(before, after),
            ),
        ),
        patience=0,  # a first quilt rarely gets there: the prepared game's does
    ),
    Lesson(
        "end",
        N_("The final count"),
        N_(
            "The game ends when both time tokens reach the last space. Each player scores "
            "their buttons, 7 points for the bonus tile, and loses 2 points for every empty "
            "square. The higher score wins; on a tie, whoever reached the end first."
        ),
        (
            Step(
                N_("Play the last moves until both time tokens reach the end."),
                N_("Any legal move will do."),
                N_("The game is over. Here is the final count."),
                lambda before, move, after: True,
                until=lambda after: after.is_terminal(),
            ),
        ),
    ),
)
