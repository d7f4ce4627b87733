"""``patchwork puzzle``: solve a puzzle in the terminal, line by line.

Without an id it asks today's puzzle; ``--theme`` and ``--difficulty`` pick one at random
among those that match. The position is drawn as the text game draws it; the player types a
move (``moves`` lists them, ``solution`` gives up, ``quit`` leaves). A wrong move is answered
with the best play after it, so the player sees why, and may try again; the right one with
the proved line.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from datetime import date

from .. import i18n
from ..engine import PatchworkError
from ..i18n import _, error_text, fmt, ngettext, number
from ..i18n.commandline import HelpFormatter, parse
from ..puzzles import THEMES, Estimate, Puzzle, Verdict, by_id, choice, daily, matching, starter
from .seats import make_seats
from .text import moves_text, render_state

InputFn = Callable[[str], str]


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="patchwork puzzle",
        formatter_class=HelpFormatter,
        description=_(
            "Find the best move in a position where one is clearly best, proved by the "
            "exact endgame search or a large search. Without an id: today's puzzle."
        ),
    )
    p.add_argument("id", nargs="?", metavar="ID", help=_("a puzzle's number, like 0042"))
    p.add_argument("--theme", choices=sorted(THEMES), help=_("a random puzzle of this theme"))
    p.add_argument(
        "--difficulty", type=int, choices=range(1, 6), metavar="1-5",
        help=_("a random puzzle of this difficulty (1 easiest, 5 hardest)"),
    )  # fmt: skip
    p.add_argument("--lang", choices=i18n.LANGUAGES, help=_("language of the game"))
    return p


def choose(args: argparse.Namespace, today: date, rng: random.Random) -> Puzzle:
    """The puzzle the options ask for; an id that names none raises PatchworkError."""
    puzzles = starter()
    if args.id is not None:
        wanted = i18n.ascii_digits(args.id).zfill(4)  # typed in the language's digits too
        found = by_id().get(wanted)
        if found is None:
            raise PatchworkError(
                fmt(_("there is no puzzle {id}: they are numbered 0001 to {last}"),
                    id=args.id, last=puzzles[-1].id)
            )  # fmt: skip
        return found
    if args.theme is None and args.difficulty is None:
        return daily(today)
    found_all = matching(puzzles, args.theme, args.difficulty)
    if not found_all:
        raise PatchworkError(_("no puzzle has that theme and difficulty"))
    return rng.choice(found_all)


def describe(puzzle: Puzzle) -> str:
    themes = ", ".join(_(THEMES[t]) for t in puzzle.themes)
    return fmt(
        _("Puzzle {id} · difficulty {difficulty} of 5 · {themes}"),
        id=puzzle.id,
        difficulty=puzzle.difficulty,
        themes=themes,
    )


def explain(puzzle: Puzzle, verdict: Verdict) -> str:
    """The verdict in words: the move's end with best play, and its line (a search-proved
    puzzle: what the searcher gives it)."""
    if puzzle.search is not None:
        return estimated(puzzle, verdict)
    o = verdict.outcome
    assert o is not None  # an exact puzzle's verdict is proved
    line = " ".join(o.line[1:9]) + (" …" if len(o.line) > 9 else "")
    if verdict.right:
        head = fmt(
            _("Right: {move} wins by {margin} with best play from both sides."),
            move=verdict.move,
            margin=o.margin,
        )
        others = fmt(
            ngettext(
                "Every other move ends at least {gap} point worse.",
                "Every other move ends at least {gap} points worse.",
                puzzle.gap,
            ),
            gap=puzzle.gap,
        )
        said = [head, others]
        return "\n".join([*said, fmt(_("The line: {line}"), line=line)] if line else said)
    if o.wins:
        head = fmt(
            _("Not the best: {move} wins by only {margin}, where the best move wins by {best}."),
            move=verdict.move, margin=o.margin, best=puzzle.margin,
        )  # fmt: skip
    elif o.margin == 0:
        tie = _(
            "Not this one: after {move} best play ends level on points, and the tie goes "
            "to the opponent."
        )
        head = fmt(tie, move=verdict.move)
    else:
        head = fmt(
            _("Not this one: after {move} best play ends in a loss by {margin}."),
            move=verdict.move, margin=-o.margin,
        )  # fmt: skip
    return "\n".join([head, fmt(_("How it goes on: {line}"), line=line)] if line else [head])


# A search's figures as the browser writes them: its texts are the same (the same catalog).
def chance(e: Estimate) -> str:
    return number(e.win, ".0%")


def points(e: Estimate) -> str:
    return number(e.margin, "+.1f")


def estimated(puzzle: Puzzle, verdict: Verdict) -> str:
    """A search-proved puzzle's verdict in words: the searcher's figures for the move, against
    the best move's (right: against every other move's), and the searcher's line."""
    proof = puzzle.search
    assert proof is not None
    e = verdict.estimate
    best, rival = proof.best(puzzle.answers), proof.rival(puzzle.answers)
    if e is None:
        head = _("The right patch, but not there: the searcher sews it on elsewhere.")
    elif verdict.right:
        head = fmt(
            _("Right: the searcher gives {move} {win} and {margin}, every other move at most "
              "{rival_win} and {rival_margin}."),
            move=verdict.move, win=chance(e), margin=points(e),
            rival_win=chance(rival), rival_margin=points(rival),
        )  # fmt: skip
    else:
        figures: dict[str, str | int] = {
            "move": verdict.move, "win": chance(e), "margin": points(e),
            "best_win": chance(best), "best_margin": points(best),
        }  # fmt: skip
        template = _(
            "Not this one: the searcher gives {move} {win} and {margin}, where the best move "
            "has {best_win} and {best_margin}."
        )
        if not verdict.tried:  # a placement it did not rate: what it gave the patch
            template = _(
                "Not this one: the searcher gives patch {patch} at most {win} and {margin}, "
                "where the best move has {best_win} and {best_margin}."
            )
            figures["patch"] = int(choice(verdict.move))
        head = fmt(template, **figures)
    said = [
        head,
        fmt(
            _(
                "Win chance and expected final margin: a search of {iterations} iterations "
                "after each move."
            ),
            iterations=number(proof.iterations, ","),
        ),
    ]
    shown = puzzle.line_after(verdict)
    if len(shown) > 1:
        line = " ".join(shown[1:9]) + (" …" if len(shown) > 9 else "")
        said.append(fmt(_("The line: {line}"), line=line))
    return "\n".join(said)


def solve(puzzle: Puzzle, ask: InputFn, write: Callable[[str], None]) -> bool:
    """Ask ``puzzle`` until it is solved, given up or left; whether it was solved."""
    state = puzzle.state()
    seats = make_seats(["human", "human"])
    write(describe(puzzle))
    write(render_state(state, seats))
    write(_("Find the best move. 'moves' lists them, 'solution' shows it, 'quit' leaves."))
    while True:
        try:
            text = ask(_("Your move: ")).strip()
        except EOFError:
            return False
        if not text:
            continue
        if text in ("quit", "q"):
            return False
        if text == "moves" or text.startswith("moves "):
            write(moves_text(state, text[6:].strip()))
            continue
        if text == "solution":
            write(fmt(_("The solution: {moves}"), moves=", ".join(puzzle.answers)))
            write(fmt(_("The line: {line}"), line=" ".join(puzzle.line)))
            return False
        try:
            verdict = puzzle.judge(text)
        except PatchworkError as e:
            write(fmt(_("That is not a move here: {error}"), error=error_text(e)))
            continue
        write(explain(puzzle, verdict))
        if verdict.right:
            return True
        write(_("Try another move, or 'solution'."))


def main(argv: list[str] | None = None, ask: InputFn = input) -> int:
    """``patchwork puzzle``: 0 solved, 1 not solved, 2 bad arguments."""
    args = parse(build_parser, argv)
    if isinstance(args, int):
        return args
    try:
        puzzle = choose(args, date.today(), random.Random())
    except PatchworkError as e:
        print(fmt(_("patchwork puzzle: {error}"), error=error_text(e)), file=sys.stderr)
        return 2
    return 0 if solve(puzzle, ask, print) else 1
