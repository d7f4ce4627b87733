"""Plain-text terminal play: a person (or two) against an agent, or agents against each other.

A stop-gap until the full-screen Textual app: it reads lines and prints text, so it works in
any terminal and over pipes, and tests drive it through injected ``input_fn`` / ``out``.
Everything it shows comes from the engine (legal moves, the state a move leads to, scores);
it only formats.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Literal, TextIO

from .. import i18n
from ..engine import (
    PATCHES,
    Advance,
    Buy,
    Game,
    Move,
    PatchworkError,
    PlaceSpecial,
    Player,
    Record,
    State,
    new_game,
    square_name,
)
from ..engine.automa import Automa
from ..engine.data import BOARD_SIZE, FINAL_SPACE, INCOME_SPACES
from ..engine.play import Played, play_out
from ..i18n import _, digits, error_text, fmt, ngettext
from ..i18n.cells import pad, wrap
from ..i18n.commandline import HelpFormatter, parse
from ..options import rules_from_args
from . import solo
from .describe import move_sentence, patch_numbers, said, score_lines
from .seats import (
    AUTOMA,
    HUMAN,
    Seat,
    add_game_options,
    game_record,
    kinds_for,
    make_seats,
    seat_kinds,
)

InputFn = Callable[[str], str]
Outcome = Literal["finished", "quit", "interrupted"]
Request = Literal["undo", "quit"]  # what a person may ask for instead of a move

COLUMN_LABELS = " ".join("abcdefghi")
QUILT_WIDTH = 28  # one player's column in the side-by-side view
EXAMPLE_LIMIT = 6  # placements shown per patch in the short ``moves`` listing
FULL_LISTING = 40  # list every legal move when there are at most this many


# -- drawing --------------------------------------------------------------------------------


def _who(seats: Sequence[Seat], p: int) -> str:
    """The seat's name, as the full-screen game says it ("You", "Player 2", "AI level 3")."""
    return seats[p].label(p)


def _side_by_side(columns: Sequence[Sequence[str]], width: int) -> list[str]:
    height = max(len(c) for c in columns)
    return [
        "".join(pad(c[i] if i < len(c) else "", width) for c in columns).rstrip()
        for i in range(height)
    ]


def _next_mark(player: Player) -> str:
    mark = player.next_income_mark
    return digits(mark) if mark is not None else _("none")


def _quilt_block(state: State, seats: Sequence[Seat], p: int) -> list[str]:
    if state.automa is not None and p == 1:
        return solo.automa_block(state)
    me = state.players[p]
    # The score of an empty quilt is only its penalty (-157 at the start): shown once a
    # patch is on it.
    score = "–" if me.quilt.empty_squares == BOARD_SIZE * BOARD_SIZE else state.scores()[p]
    lines = [_who(seats, p), "   " + COLUMN_LABELS]
    lines += [f"{r + 1:>2} " + " ".join(row) for r, row in enumerate(me.quilt.rows())]
    lines += [
        fmt(_("space {space} of {final}"), space=me.position, final=FINAL_SPACE),
        fmt(_("buttons {b}, income {i}"), b=me.buttons, i=me.income),
        fmt(_("next income mark: {mark}"), mark=_next_mark(me)),
        fmt(_("empty squares {n}"), n=me.quilt.empty_squares),
        fmt(_("score now {s}"), s=score),
    ]
    if state.bonus_owner == p:
        lines.append(_("holds the bonus tile"))
    return lines


def _buyable(state: State) -> set[int]:
    """Offered patches the engine has a legal buy for (affordable and fitting somewhere)."""
    return {m.patch_id for m in state.legal_moves() if isinstance(m, Buy)}


def render_offer(state: State) -> list[str]:
    """The offered patches drawn side by side, with cost, time and income."""
    offered = state.offered
    if not offered:
        return [_("No patches left in the circle: the only action is to advance (A).")]
    can_buy = _buyable(state) if not state.pending_specials else set(offered)
    # Shapes start on the same row; the numbers line up below the tallest one.
    tallest = max(len(PATCHES[pid].shape) for pid in offered)
    blocks = []
    for pid in offered:
        patch = PATCHES[pid]
        shape = list(patch.shape) + [""] * (tallest - len(patch.shape))
        block = [fmt(_("patch {id}"), id=pid), *shape, *patch_numbers(pid)]
        if pid not in can_buy:
            block.append("x " + _("can't buy"))
        blocks.append(block)
    rest = state.circle[len(offered) :]
    lines = [_("Offered patches (# covered):")]
    lines += ["  " + line for line in _side_by_side(blocks, 14)]
    if rest:
        lines.append(_("Then, clockwise:") + " " + " ".join(digits(i) for i in rest))
    return lines


def render_state(state: State, seats: Sequence[Seat]) -> str:
    """Everything a player needs to choose a move, as text."""
    lines = _side_by_side([_quilt_block(state, seats, p) for p in (0, 1)], QUILT_WIDTH)
    specials = " ".join(digits(s) for s in state.special_spaces_left) or _("none")
    bonus = state.bonus_owner
    lines += [
        "",
        fmt(
            _("Time board: income marks at {marks}."),
            marks=" ".join(digits(m) for m in INCOME_SPACES),
        ),
        fmt(_("Special patches still lying on spaces: {spaces}."), spaces=specials),
        _("Bonus tile (7x7): unclaimed.")
        if bonus is None
        else fmt(_("Bonus tile (7x7): {name}."), name=_who(seats, bonus)),
        "",
    ]
    p = state.current_player
    if p is None:
        lines.append(_("The game is over."))
        return "\n".join(lines)
    lines += [*render_offer(state), ""]
    if state.pending_specials:
        n = state.pending_specials
        lines.append(
            said(
                seats,
                p,
                ngettext(
                    "You must place a special patch on an empty square, like {move}.",
                    "You must place {n} special patches on empty squares, like {move}.",
                    n,
                ),
                ngettext(
                    "{name} must place a special patch on an empty square, like {move}.",
                    "{name} must place {n} special patches on empty squares, like {move}.",
                    n,
                ),
                n=n,
                move=str(state.legal_moves()[0]),
            )
        )
    else:
        lines.append(
            said(
                seats,
                p,
                _("Your move: buy an offered patch or advance (A)."),
                _("{name} to move: buy an offered patch or advance (A)."),
            )
        )
    return "\n".join(lines)


def _draw_squares(squares: frozenset[tuple[int, int]]) -> list[str]:
    top = min(r for r, _ in squares)
    left = min(c for _, c in squares)
    height = 1 + max(r for r, _ in squares) - top
    width = 1 + max(c for _, c in squares) - left
    return [
        "".join("#" if (top + r, left + c) in squares else "." for c in range(width))
        for r in range(height)
    ]


def help_text(state: State) -> str:
    """The notation and the commands, with an example taken from the current position."""
    lines = [
        _("Type a move or a command."),
        _("Moves:"),
        "  A           "
        + _("advance your time token to just past your opponent's (buttons per space)"),
        "  17r90@c4    " + _("buy patch 17 turned 90 degrees clockwise, the top-left corner"),
        "              " + _("of its bounding box on square c4"),
        "  S@e5        " + _("place a special patch on e5 (only when you have one to place)"),
        _("Squares: columns a-i left to right, rows 1-9 top to bottom (a1 is the top-left)."),
        _("Orientations: r0 r90 r180 r270 turn clockwise; f0 f90 f180 f270 first mirror"),
        _("the patch left-right (as drawn in the offer), then turn it."),
    ]
    legal = state.legal_moves()
    buys = [m for m in legal if isinstance(m, Buy)]
    example: Move | None = next((m for m in buys if m.orientation == 1), None)
    example = example or (buys[0] if buys else None)
    if example is None:
        example = next((m for m in legal if isinstance(m, PlaceSpecial)), None)
    if example is not None:
        covered = " ".join(square_name(r, c) for r, c in sorted(example.squares))
        lines.append(
            fmt(_("Example here: {move} covers {squares}:"), move=str(example), squares=covered)
        )
        lines += ["    " + row for row in _draw_squares(example.squares)]
    lines += [
        _("Commands (typed in English):"),
        "  moves       " + _("list the legal moves (moves 17: every placement of patch 17)"),
        "  undo        " + _("take back your last move (and the opponent's replies)"),
        "  help        " + _("this text"),
        "  quit        " + _("stop the game"),
    ]
    return "\n".join(lines)


def _wrap(words: Sequence[str], indent: str = "  ") -> list[str]:
    return wrap(" ".join(words), 96, indent, indent)


def moves_text(state: State, arg: str = "") -> str:
    """The legal moves: all of them when few, else a summary per patch; ``arg`` picks a patch."""
    legal = state.legal_moves()
    if arg:
        try:
            pid = int(arg)
        except ValueError:
            return fmt(_("'moves {arg}': give a patch number, like 'moves 17'"), arg=arg)
        chosen = [str(m) for m in legal if isinstance(m, Buy) and m.patch_id == pid]
        if not chosen:
            offered = ", ".join(digits(i) for i in state.offered) or _("none")
            return fmt(
                _("No legal move buys patch {id} now (offered: {offered})."),
                id=pid,
                offered=offered,
            )
        header = ngettext(
            "{n} placement of patch {id}:", "{n} placements of patch {id}:", len(chosen)
        )
        return "\n".join([fmt(header, n=len(chosen), id=pid), *_wrap(chosen)])
    lines = [fmt(ngettext("{n} legal move:", "{n} legal moves:", len(legal)), n=len(legal))]
    if len(legal) <= FULL_LISTING:
        return "\n".join(lines + _wrap([str(m) for m in legal]))
    specials = [str(m) for m in legal if isinstance(m, PlaceSpecial)]
    if specials:
        return "\n".join(lines + _wrap(specials))
    if any(isinstance(m, Advance) for m in legal):
        lines.append("  A  " + _("(advance)"))
    for pid in state.offered:
        buys = [str(m) for m in legal if isinstance(m, Buy) and m.patch_id == pid]
        if not buys:
            lines.append("  " + fmt(_("patch {id}: cannot be bought now"), id=pid))
            continue
        more = (
            " " + fmt(_("... ('moves {arg}' lists all)"), arg=str(pid))
            if len(buys) > EXAMPLE_LIMIT
            else ""
        )
        placements = ngettext(
            "patch {id}, {n} placement: {moves}", "patch {id}, {n} placements: {moves}", len(buys)
        )
        lines.append(
            "  " + fmt(placements, id=pid, n=len(buys), moves=" ".join(buys[:EXAMPLE_LIMIT])) + more
        )
    return "\n".join(lines)


def scores_text(state: State, seats: Sequence[Seat]) -> str:
    """The final (or current) scores broken down, and the winner with the tie-break if used."""
    if state.automa is not None:
        return "\n".join(solo.score_lines(state, seats))
    return "\n".join(score_lines(state, seats))


# -- playing --------------------------------------------------------------------------------


def _last_human_move(game: Game, seats: Sequence[Seat]) -> int | None:
    """How many moves came before the last one a person made (None: no person has moved)."""
    humans = [i for i, p in enumerate(game.movers()) if seats[p].agent is None]
    return humans[-1] if humans else None


def _undo(game: Game, seats: Sequence[Seat], write: Callable[[str], None]) -> None:
    """Take back to the last position where a person was to move."""
    back_to = _last_human_move(game, seats)
    assert back_to is not None
    taken = [game.pop() for _i in range(len(game) - back_to)]
    write(fmt(_("Took back: {moves}"), moves=" ".join(str(m) for m in reversed(taken))))


def _human_turn(
    game: Game, seats: Sequence[Seat], input_fn: InputFn, write: Callable[[str], None]
) -> Move | Request:
    """Read commands until the person plays a move, asks to take back (when there is
    something to take back) or quits."""
    state = game.state
    p = state.current_player
    assert p is not None
    while True:
        try:
            prompt = said(seats, p, _("Your move> "), _("{name} move> "))
            text = i18n.ascii_digits(input_fn(prompt))
        except EOFError:
            write("\n" + _("End of input: quitting."))
            return "quit"
        command, _sep, arg = text.strip().partition(" ")
        command = command.lower()
        if not command:
            continue
        if command in ("quit", "exit", "q"):
            return "quit"
        if command in ("help", "?", "h"):
            write(help_text(state))
        elif command == "moves":
            write(moves_text(state, arg.strip()))
        elif command == "undo":
            if _last_human_move(game, seats) is not None:
                return "undo"
            write(_("Nothing to take back yet."))
        else:
            try:
                return Move.parse(text, state)
            except PatchworkError as e:
                hint = _("(type 'help' for the notation, 'moves' for the legal moves)")
                write(f"{error_text(e)}\n{hint}")


def play(
    game: Game,
    seats: Sequence[Seat],
    *,
    input_fn: InputFn = input,
    out: TextIO | None = None,
    limit: float | None = None,
) -> Outcome:
    """Play ``game`` to its end (or until a person quits); the moves are pushed on ``game``."""
    stream = sys.stdout if out is None else out

    def write(text: str) -> None:
        stream.write(text + "\n")
        stream.flush()

    requests: list[Request] = []  # what a person asked for instead of a move

    def ask(state: State) -> Move | None:
        p = state.current_player
        assert p is not None
        agent = seats[p].agent
        if agent is not None:
            return agent.choose(state, limit)
        write("\n" + render_state(state, seats))
        answer = _human_turn(game, seats, input_fn, write)
        if isinstance(answer, str):
            requests.append(answer)
            return None
        return answer

    def played(turn: Played) -> None:
        write(move_sentence(seats, turn.player, turn.move))
        for reply in turn.state.automa_replies(turn.move):  # the engine's own turns, said
            write("\n".join(solo.turn_lines(reply)))

    try:
        while not play_out(game, (ask, ask), on_move=played):
            if requests.pop() == "quit":
                write(_("Game stopped."))
                return "quit"
            _undo(game, seats, write)
    except KeyboardInterrupt:
        write("\n" + _("Interrupted."))
        return "interrupted"
    write("\n" + render_state(game.state, seats))
    write(scores_text(game.state, seats))
    return "finished"


def save_record(game: Game, seats: Sequence[Seat], path: str, outcome: Outcome) -> None:
    termination = None if outcome == "finished" else "abandoned"
    game_record(game, seats, termination).save(path)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        formatter_class=HelpFormatter,
        prog="patchwork play",
        description=_(
            "Play Patchwork in the terminal: against an agent, two people at one "
            "keyboard, or watch two agents. Type 'help' during the game for the move notation."
        ),
    )
    add_game_options(parser, opponent="greedy", watch="greedy random")
    parser.add_argument(
        "--save", metavar="FILE", help=_("write the game record to FILE at the end")
    )
    add_solo_options(parser)
    return parser


def add_solo_options(parser: argparse.ArgumentParser) -> None:
    """``--solo LEVEL`` and ``--deck``: a solo game against the official Automa."""
    parser.add_argument(
        "--solo",
        type=int,
        choices=range(1, 6),
        metavar="LEVEL",
        help=_(
            "play solo against Automa at LEVEL 1-5 (Intern, Apprentice, Fellow, Master, Legend)"
        ),
    )
    parser.add_argument(
        "--deck",
        choices=("normal", "tactical"),
        default="normal",
        help=_("Automa's deck in a solo game (default normal; tactical shows the next budget)"),
    )


def solo_setup(args: argparse.Namespace) -> tuple[Game, tuple[Seat, Seat]]:
    """The game and seats of ``--solo``: you (player 0, first) against Automa (player 1)."""
    refuse_seat_options(args)
    base = rules_from_args(args)
    rules = type(base)(base.edition, base.rotation, base.flip, Automa(args.solo, args.deck))
    return Game(new_game(seed=args.seed, rules=rules)), make_seats([HUMAN, AUTOMA])


def refuse_seat_options(args: argparse.Namespace) -> None:
    """A solo game has its seats: a person against Automa, nothing to choose."""
    if args.agents or args.opponent or args.seat is not None:
        raise PatchworkError(
            _("--solo plays you against Automa: leave out --opponent, --agents and --seat")
        )


def load_setup(args: argparse.Namespace) -> tuple[Game, tuple[Seat, Seat]]:
    """The game and seats of ``--load``: the record's game with the players (and language)
    it was saved with, unless the options say otherwise; a solo record goes on solo."""
    if args.solo is not None:
        raise PatchworkError(_("--load goes on with the saved game: leave out --solo"))
    record = Record.load(args.load)
    game = Game.from_record(record)
    if record.language and not args.lang:
        i18n.set_language(record.language)
    rules = game.start.rules
    if rules.solo is not None:
        refuse_seat_options(args)
        kinds = list(kinds_for(rules, record.seats, (HUMAN, AUTOMA)))
    else:
        kinds = seat_kinds(args, record.seats)
    return game, make_seats(kinds, args.seed, record.players)


def main(
    argv: list[str] | None = None,
    *,
    input_fn: InputFn = input,
    out: TextIO | None = None,
) -> int:
    """``patchwork play``: returns 0 when the game ends or is quit, 1 on an error."""
    stream = sys.stdout if out is None else out
    args = parse(build_parser, argv)
    if isinstance(args, int):
        return args
    try:
        if args.load:
            game, seats = load_setup(args)
        elif args.solo is not None:
            game, seats = solo_setup(args)
        else:
            rules = rules_from_args(args)
            seats = make_seats(seat_kinds(args), args.seed)
            game = Game(new_game(seed=args.seed, rules=rules))
    except PatchworkError as e:
        print(fmt(_("patchwork play: {error}"), error=error_text(e)), file=sys.stderr)
        return 1
    outcome = play(game, seats, input_fn=input_fn, out=stream)
    if args.save:
        try:
            save_record(game, seats, args.save, outcome)
        except OSError as e:
            print(
                fmt(_("patchwork play: cannot save {path}: {error}"), path=args.save, error=e),
                file=sys.stderr,
            )
            return 1
        stream.write(fmt(_("Saved the game record to {path}."), path=args.save) + "\n")
    return 130 if outcome == "interrupted" else 0
