"""The words of a solo game against Automa: its turns, its side of the table, its score.

The engine decides everything (``State.automa``, ``State.automa_replies``); these functions
only say it, through the i18n layer, and show only what the person may know (D6).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import State
from ..engine.automa import (
    FURTHEST,
    LARGEST,
    MOST_BUTTONS,
    NO_OVERTAKE,
    SPECIAL,
    AutomaView,
    Card,
    Turn,
)
from ..engine.data import FINAL_SPACE
from ..i18n import N_, _, digits, fmt, ngettext
from .describe import tie_break_line
from .seats import AUTOMA, AUTOMA_NAME, Seat

AUTOMA_KIND = AUTOMA
# The level names players know (engine/data/automa.json has them in English; a test checks
# that these are the same words).
LEVEL_NAMES = {
    1: N_("Intern"),
    2: N_("Apprentice"),
    3: N_("Fellow"),
    4: N_("Master"),
    5: N_("Legend"),
}
DECK_NAMES = {"normal": N_("normal deck"), "tactical": N_("tactical deck")}
# Why Automa took the patch it took, when the card's first filter left one (rule 9).
REASONS = {
    NO_OVERTAKE: N_("Automa had {budget} to spend: bought patch {id}, one that does not pass you."),
    MOST_BUTTONS: N_(
        "Automa had {budget} to spend: bought patch {id}, the one with the most buttons "
        "it could afford."
    ),
    LARGEST: N_("Automa had {budget} to spend: bought patch {id}, the largest it could afford."),
    FURTHEST: N_(
        "Automa had {budget} to spend: bought patch {id}, the furthest from the neutral token "
        "it could afford."
    ),
}
# The filters printed on a card (rule 9), in words, for the person reading Automa's card.
FILTER_NAMES = {
    NO_OVERTAKE: N_("does not pass you"),
    MOST_BUTTONS: N_("most buttons"),
    LARGEST: N_("largest"),
    FURTHEST: N_("furthest"),
}
SCORE_COLUMNS = {
    "bonus": N_("bonus tile {n}"),
    "buttons": N_("buttons {n}"),
    "patches_with_buttons": N_("patches with buttons {n}"),
    "printed_buttons": N_("buttons printed on its patches {n}"),
}


def automa_seat() -> Seat:
    """Automa's seat: no agent (the engine plays it), named "Automa" everywhere."""
    return Seat(AUTOMA, AUTOMA_NAME, None, humans=1, named=True)


def level_text(level: int) -> str:
    return fmt(_("level {n}, {name}"), n=level, name=_(LEVEL_NAMES[level]))


def turn_lines(turn: Turn) -> list[str]:
    """What Automa did on one turn, in sentences."""
    if turn.patch is None:
        lines = [
            fmt(
                _(
                    "Automa had {budget} to spend: it could afford no patch, so it passed to "
                    "space {space}."
                ),
                budget=turn.budget,
                space=turn.end,
            )
        ]
    elif turn.decided_by is None:
        lines = [
            fmt(
                _("Automa had {budget} to spend: bought patch {id}, the only one it could afford."),
                budget=turn.budget,
                id=turn.patch,
            )
        ]
    elif len(turn.filters_used) == 1:
        lines = [fmt(_(REASONS[turn.decided_by]), budget=turn.budget, id=turn.patch)]
    else:
        lines = [
            fmt(
                _(
                    "Automa had {budget} to spend: bought patch {id}, the one its card's "
                    "filters left ({filters})."
                ),
                budget=turn.budget,
                id=turn.patch,
                filters=", ".join(_(FILTER_NAMES[f]) for f in turn.filters_used),
            )
        ]
    if turn.patch is not None:
        lines.append(fmt(_("Automa moves to space {space}."), space=turn.end))
    if turn.income:
        lines.append(
            fmt(
                ngettext(
                    "Automa collects {n} button of income.",
                    "Automa collects {n} buttons of income.",
                    turn.income,
                ),
                n=turn.income,
            )
        )
    if turn.specials:
        lines.append(
            fmt(
                ngettext(
                    "Automa takes the special patch lying on its way.",
                    "Automa takes the {n} special patches lying on its way.",
                    turn.specials,
                ),
                n=turn.specials,
            )
        )
    if turn.bonus:
        lines.append(_("Automa reached the marker: it takes the 7x7 bonus tile."))
    if turn.reshuffled:
        lines.append(_("Automa's deck ran out: all 12 cards are shuffled into a new deck."))
    return lines


def _pile(ids: Sequence[int]) -> str:
    names = [_("special") if x == SPECIAL else digits(x) for x in ids]
    return " ".join(names) or _("none")


def pile_lines(view: AutomaView) -> list[str]:
    """Automa's two piles (rule 10), the patch ids in the order taken."""
    return [
        fmt(_("with buttons: {ids}"), ids=_pile(view.with_buttons)),
        fmt(_("without buttons: {ids}"), ids=_pile(view.without_buttons)),
    ]


def card_line(view: AutomaView) -> str:
    """The card Automa played last: its budget and the income it pays per mark."""
    card = view.card
    if card is None:
        return _("no card played yet")
    return fmt(
        _("card {card}: budget {budget}, income {income}"),
        card=card.number,
        budget=card.budget,
        income=card.income,
    )


def filter_lines(card: Card) -> list[str]:
    """A card's filters top to bottom, numbered (rule 9); card 12 has none."""
    if not card.filters:
        return [_("no filters")]
    return [f"{digits(i)} {_(FILTER_NAMES[f])}" for i, f in enumerate(card.filters, 1)]


def next_budget_line(view: AutomaView) -> str | None:
    """With the tactical deck, the budget on the back of the next card (rule 16)."""
    if view.next_budget is None:
        return None
    return fmt(_("next budget: {budget}"), budget=view.next_budget)


def marker_line(view: AutomaView) -> str | None:
    if view.marker is None:
        return None
    return fmt(_("7x7 marker on space {space}"), space=view.marker)


def automa_block(state: State) -> list[str]:
    """Automa's column beside the person's quilt: what the person may know of it."""
    view = state.automa
    assert view is not None
    lines = [
        AUTOMA_NAME,
        level_text(view.level),
        _(DECK_NAMES[view.deck]),
        fmt(_("space {space} of {final}"), space=view.position, final=FINAL_SPACE),
        fmt(_("buttons {b}"), b=view.buttons),
        *pile_lines(view),
        card_line(view),
    ]
    lines += [line for line in (next_budget_line(view), marker_line(view)) if line]
    lines.append(fmt(_("score now {s}"), s=state.scores()[1]))
    return lines


def score_lines(state: State, seats: Sequence[Seat]) -> list[str]:
    """The end of a solo game: both scores taken apart (Automa's by its level's columns,
    rule 17) and who won (rule 18)."""
    view = state.automa
    assert view is not None
    buttons, bonus, empty = state.score_parts(0)
    person, automa = state.scores()
    lines = [
        fmt(
            _("Your score: buttons {buttons} + bonus {bonus} - 2 x {empty} empty = {score}"),
            buttons=buttons,
            bonus=bonus,
            empty=empty,
            score=person,
        ),
        fmt(
            _("Automa ({level}) scores {parts} = {score}"),
            level=level_text(view.level),
            parts=" + ".join(fmt(_(SCORE_COLUMNS[k]), n=v) for k, v in view.score_parts),
            score=automa,
        ),
    ]
    winner = state.winner()
    if winner is None:
        return lines
    if person == automa:
        lines.append(tie_break_line(seats, winner, person))
    else:
        lines.append(_("You win.") if winner == 0 else _("Automa wins."))
    return lines
