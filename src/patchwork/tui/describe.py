"""The words the app shows: whose turn and why, what a move gives, the scores, the hints.

Every number comes from the engine (a state, or the state a move leads to); these functions
only put it into sentences, through the i18n layer.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..ai import SearchResult
from ..engine import PATCHES, Advance, Buy, Move, PlaceSpecial, State, square_name
from ..engine.data import BONUS_POINTS, EMPTY_PENALTY, FINAL_SPACE
from ..i18n import _, fmt, ngettext
from .seats import Seat

ADVANCE = Advance()


def name(seats: tuple[Seat, Seat], p: int) -> str:
    return seats[p].label(p)


def turn_text(state: State, seats: tuple[Seat, Seat]) -> str:
    """Whose turn it is, and the rule that makes it theirs."""
    p = state.current_player
    if p is None:
        return _("The game is over.")
    who = name(seats, p)
    if state.pending_specials:
        return fmt(
            ngettext(
                "{name} must place a special patch first.",
                "{name} must place {n} special patches first.",
                state.pending_specials,
            ),
            name=who,
            n=state.pending_specials,
        )
    mine, theirs = state.players[p].position, state.players[1 - p].position
    if mine < theirs:
        return fmt(
            _("{name} to move: behind on the time board ({mine} against {theirs})."),
            name=who,
            mine=mine,
            theirs=theirs,
        )
    if mine == 0:
        return fmt(_("{name} to move: the start player."), name=who)
    return fmt(
        _("{name} to move: both on space {space}, this token on top (it came last)."),
        name=who,
        space=mine,
    )


def move_text(move: Move) -> str:
    """A move in words, with its notation."""
    if isinstance(move, Buy):
        return fmt(_("buys patch {id} ({move})"), id=move.patch_id, move=move)
    if isinstance(move, PlaceSpecial):
        return fmt(_("places a special patch on {square}"), square=square_name(move.row, move.col))
    return _("advances (A)")


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
        fmt(
            _("space {a}→{b}, score {s}→{t}"),
            a=a.position,
            b=b.position,
            s=state.scores()[p],
            t=after.scores()[p],
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


def score_lines(state: State, names: Sequence[str]) -> list[str]:
    """The score of each player (named by ``names``) broken down, then the winner and the
    tie-break when used: what both terminal games show at the end."""
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
        lines.append(
            fmt(
                _(
                    "Tied on {score}: {name} wins the tie-break, "
                    "having reached space {final} first."
                ),
                score=scores[0],
                name=names[winner],
                final=FINAL_SPACE,
            )
        )
    else:
        margin = abs(scores[0] - scores[1])
        lines.append(
            fmt(
                ngettext("{name} wins by {n} point.", "{name} wins by {n} points.", margin),
                name=names[winner],
                n=margin,
            )
        )
    return lines


def hint_text(result: SearchResult) -> str:
    """The searcher's suggestion with its evaluation."""
    line = " ".join(str(m) for m in result.principal_line[1:5])
    text = fmt(
        _("Hint: {move} {how}: win chance {win:.0%}, expected margin {margin:+.1f}"),
        move=result.best_move,
        how=move_text(result.best_move),
        win=result.win_probability,
        margin=result.margin,
    )
    if result.exact:
        text += _(" (exact)")
    if line:
        text += fmt(_("; then {line}"), line=line)
    return text


def thinking_text(seats: tuple[Seat, Seat], p: int) -> str:
    return fmt(_("{name} is thinking"), name=name(seats, p))
