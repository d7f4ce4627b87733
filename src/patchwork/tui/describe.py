"""The words the app shows: whose turn and why, what a move gives, the scores, the hints.

Every number comes from the engine (a state, or the state a move leads to); these functions
only put it into sentences, through the i18n layer.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..ai import SearchResult
from ..engine import PATCHES, Advance, Buy, Move, PlaceSpecial, State, square_name
from ..engine.data import BONUS_POINTS, EMPTY_PENALTY, FINAL_SPACE
from ..i18n import _, fmt, ngettext, pgettext
from .seats import Seat

ADVANCE = Advance()


def name(seats: Sequence[Seat], p: int) -> str:
    return seats[p].label(p)


def said(seats: Sequence[Seat], p: int, you: str, other: str, **values: object) -> str:
    """A sentence about seat ``p``: ``you`` (already translated, second person) for the one
    person at the keyboard, else ``other`` with ``{name}`` (third person). Every sentence
    whose subject is a seat goes through here, so that no language ever says "You buys"."""
    seat = seats[p]
    text = fmt(you, **values) if seat.is_you else fmt(other, name=seat.label(p), **values)
    return text[:1].upper() + text[1:]  # "Level 3 bought...": a sentence starts with a capital


def turn_text(state: State, seats: Sequence[Seat]) -> str:
    """Whose turn it is, and the rule that makes it theirs."""
    p = state.current_player
    if p is None:
        return _("The game is over.")
    n = state.pending_specials
    if n:
        return said(
            seats,
            p,
            ngettext(
                "You must place a special patch first.",
                "You must place {n} special patches first.",
                n,
            ),
            ngettext(
                "{name} must place a special patch first.",
                "{name} must place {n} special patches first.",
                n,
            ),
            n=n,
        )
    mine, theirs = state.players[p].position, state.players[1 - p].position
    if mine < theirs:
        return said(
            seats,
            p,
            _("Your move: you are behind on the time board ({mine} against {theirs})."),
            _("{name} to move: behind on the time board ({mine} against {theirs})."),
            mine=mine,
            theirs=theirs,
        )
    if mine == 0:
        return said(
            seats,
            p,
            _("Your move: you are the start player."),
            _("{name} to move: the start player."),
        )
    return said(
        seats,
        p,
        _("Your move: both on space {space}, your token on top (it came last)."),
        _("{name} to move: both on space {space}, this token on top (it came last)."),
        space=mine,
    )


def move_sentence(seats: Sequence[Seat], p: int, move: Move) -> str:
    """The move log's line for a move seat ``p`` made: who did what, with the notation."""
    if isinstance(move, Buy):
        return said(
            seats,
            p,
            pgettext("move log", "You bought patch {id} ({move})."),
            pgettext("move log", "{name} bought patch {id} ({move})."),
            id=move.patch_id,
            move=str(move),
        )
    if isinstance(move, PlaceSpecial):
        square = square_name(move.row, move.col)
        return said(
            seats,
            p,
            pgettext("move log", "You placed a special patch on {square}."),
            pgettext("move log", "{name} placed a special patch on {square}."),
            square=square,
        )
    return said(
        seats,
        p,
        pgettext("move log", "You advanced (A)."),
        pgettext("move log", "{name} advanced (A)."),
    )


def suggestion_text(move: Move) -> str:
    """A move as advice (what the hint says to do), with its notation once."""
    if isinstance(move, Buy):
        return fmt(_("buy patch {id} ({move})"), id=move.patch_id, move=str(move))
    if isinstance(move, PlaceSpecial):
        return fmt(
            _("place a special patch on {square} ({move})"),
            square=square_name(move.row, move.col),
            move=str(move),
        )
    return _("advance (A)")


def advance_text(state: State) -> str:
    """What advancing gives the player to move: the engine plays it and we read the result."""
    p = state.current_player
    assert p is not None
    before = state.players[p]
    after_state = state.apply(ADVANCE)
    after = after_state.players[p]
    spaces = after.position - before.position
    gained = after.buttons - before.buttons
    income = gained - spaces
    lines = [
        fmt(
            ngettext(
                "Advance from space {start} to {end}: +{n} button.",
                "Advance from space {start} to {end}: +{n} buttons.",
                gained,
            ),
            start=before.position,
            end=after.position,
            n=gained,
        )
    ]
    lines.append(
        fmt(
            ngettext(
                "({spaces} for the space moved",
                "({spaces} for the spaces moved",
                spaces,
            ),
            spaces=spaces,
        )
        + (fmt(_(", {income} from income"), income=income) if income else "")
        + ")"
    )
    if after_state.pending_specials and after_state.current_player == p:
        lines.append(
            fmt(
                ngettext(
                    "You take a special patch.",
                    "You take {n} special patches.",
                    after_state.pending_specials,
                ),
                n=after_state.pending_specials,
            )
        )
    return "\n".join(lines)


def preview_lines(state: State, after: State, move: Move) -> list[str]:
    """What the move changes for the player making it (all read from the two states)."""
    p = state.current_player
    assert p is not None
    a, b = state.players[p], after.players[p]
    lines = [
        fmt(_("buttons {a}→{b}, income {i}→{j}"), a=a.buttons, b=b.buttons, i=a.income, j=b.income),
        # What the move does to the score (the score itself means little before the
        # end: -157 on the first move, only the empty quilt's penalty).
        fmt(
            _("space {a}→{b}, score {change:+d}"),
            a=a.position,
            b=b.position,
            change=after.scores()[p] - state.scores()[p],
        ),
    ]
    if after.bonus_owner == p and state.bonus_owner is None:
        lines.append(_("takes the 7x7 bonus tile!"))
    elif after.pending_specials and after.current_player == p and not isinstance(move, Advance):
        lines.append(_("and takes a special patch"))
    return lines


def patch_numbers(patch_id: int) -> list[str]:
    patch = PATCHES[patch_id]
    return [
        fmt(_("cost {n}"), n=patch.buttons),
        fmt(_("time {n}"), n=patch.time),
        fmt(_("income {n}"), n=patch.income),
    ]


def score_lines(
    state: State, seats: Sequence[Seat], names: Sequence[str] | None = None
) -> list[str]:
    """The score of each player broken down, then the winner and the tie-break when used:
    what both terminal games show at the end. ``names`` name the seats in the breakdown
    (default: their labels); the winner's sentence speaks to "you" where a person won."""
    names = names or [seats[p].label(p) for p in (0, 1)]
    scores = state.scores()
    lines = [
        fmt(
            _("Score = buttons + {bonus} for the bonus tile - {penalty} per empty square"),
            bonus=BONUS_POINTS,
            penalty=EMPTY_PENALTY,
        ),
        "",
    ]
    for p in (0, 1):
        buttons, bonus, empty = state.score_parts(p)
        lines.append(
            fmt(
                _("{name}: {buttons} + {bonus} - {penalty} x {empty} = {score}"),
                name=names[p],
                buttons=buttons,
                bonus=bonus,
                penalty=EMPTY_PENALTY,
                empty=empty,
                score=scores[p],
            )
        )
    winner = state.winner()
    if winner is None:
        return lines
    lines.append("")
    if scores[0] == scores[1]:
        lines.append(tie_break_line(seats, winner, scores[0]))
    else:
        margin = abs(scores[0] - scores[1])
        lines.append(
            said(
                seats,
                winner,
                ngettext("You win by {n} point.", "You win by {n} points.", margin),
                ngettext("{name} wins by {n} point.", "{name} wins by {n} points.", margin),
                n=margin,
            )
        )
    return lines


def tie_break_line(seats: Sequence[Seat], winner: int, score: int) -> str:
    """Who won a tie on ``score``, and why: the first to reach the final space."""
    return said(
        seats,
        winner,
        _("Tied on {score}: you win the tie-break, having reached space {final} first."),
        _("Tied on {score}: {name} wins the tie-break, having reached space {final} first."),
        score=score,
        final=FINAL_SPACE,
    )


def hint_text(result: SearchResult) -> str:
    """The searcher's suggestion with its evaluation, each thing said once: the move in
    words with its notation, the win chance, the margin, then the line it expects."""
    line = " ".join(str(m) for m in result.principal_line[1:5])
    text = fmt(
        _("Hint: {how}: win chance {win:.0%}, expected margin {margin:+.1f}"),
        how=suggestion_text(result.best_move),
        win=result.win_probability,
        margin=result.margin,
    )
    if result.exact:
        text += _(" (exact)")
    if line:
        text += fmt(_("; then {line}"), line=line)
    return text


def game_over_title(seats: Sequence[Seat], winner: int | None) -> str:
    if winner is None:
        return _("Game over")
    return said(seats, winner, _("Game over: you win!"), _("Game over: {name} wins!"))


def thinking_text(seats: Sequence[Seat], p: int) -> str:
    return fmt(_("{name} is thinking"), name=name(seats, p))
