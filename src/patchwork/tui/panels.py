"""What each part of the game screen shows, built from the session (no widgets here).

Every figure is read from the engine: the state, the state a move leads to, the legal moves.
"""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size
from rich.style import Style
from rich.text import Text
from textual.content import Content
from textual.markup import escape

from ..engine import Advance, State
from ..engine.data import BOARD_SIZE
from ..i18n import _, fmt, ngettext, pgettext
from ..i18n.cells import wrap
from . import colours, describe, solo
from .offer import CardPicture
from .quilt import PLAYER_COLOURS, QuiltPicture
from .seats import AUTOMA_NAME
from .session import Session
from .timeboard import TimePicture

ADVANCE = Advance()
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
Key = tuple[str, str, str]  # key shown, label, action on the screen


def names(session: Session) -> tuple[str, str]:
    return describe.name(session.seats, 0), describe.name(session.seats, 1)


def time_picture(session: Session, preview: State | None) -> TimePicture:
    state = session.state
    p = state.current_player
    target = None if preview is None or p is None else (p, preview.players[p].position)
    return TimePicture(
        names=names(session),
        positions=(state.players[0].position, state.players[1].position),
        specials=state.special_spaces_left,
        target=target,
        marker=None if state.automa is None else state.automa.marker,
    )


def quilt_picture(session: Session, q: int) -> QuiltPicture:
    """Player ``q``'s board, with the ghost and where it fits when ``q`` is holding it."""
    state = session.state
    ghost = session.ghost if state.current_player == q else None
    picture = QuiltPicture(
        title=names(session)[q],
        player=q,
        to_move=state.current_player == q,
        bonus=state.bonus_owner == q,
        patches=session.patch_maps()[q],
    )
    if ghost is not None:
        picture.ghost = ghost.squares
        picture.ghost_fits = session.verdict() is None
        # A special patch goes on any empty square: no marks for it.
        picture.fits = frozenset() if ghost.is_special else session.fits()
    return picture


INFO_WIDTH = 20  # the width of a quilt board, and of the figures under it (app.tcss)


def info_lines(session: Session, q: int, width: int = INFO_WIDTH) -> list[str]:
    """The figures under player ``q``'s quilt, one a line (see :func:`figure_lines`), so
    that both players' figures read as two tables."""
    me = session.state.players[q]
    return figure_lines(
        [
            (pgettext("figure", "buttons"), fmt("{n}", n=me.buttons)),
            (pgettext("figure", "income"), fmt("{n}", n=me.income)),
            (pgettext("figure", "score now"), score_now(session.state, q)),
            (pgettext("figure", "end ≈"), fmt("{n}", n=session.projection()[q])),
        ],
        width,
    )


NO_SCORE_YET = "–"


def score_now(state: State, q: int) -> str:
    """Player ``q``'s score as it stands, once a patch is on their quilt: before that it is
    only the empty quilt's penalty (-157 at the start), which says nothing yet."""
    if state.players[q].quilt.empty_squares == BOARD_SIZE * BOARD_SIZE:
        return NO_SCORE_YET
    return fmt("{n}", n=state.scores()[q])


def info_text(session: Session, q: int) -> str:
    return "\n".join(info_lines(session, q))


PANEL_HEIGHT = 15  # a quilt board and its figures (app.tcss)
QUILT_ROWS = 11  # the quilt board's title and rows, above the figures


def _wrapped(text: str, width: int) -> list[str]:
    return wrap(text, width, subsequent_indent=" ")


def figure_lines(figures: list[tuple[str, str]], width: int) -> list[str]:
    """Figures one a line: the labels in a column, the numbers in the next. Whatever the
    numbers and the language, a line never wraps, and two figures never run together: a
    label too long for the room left is cut, never a number."""
    numbers = max(cell_len(number) for _, number in figures)
    column = min(max(cell_len(label) for label, _ in figures), width - numbers - 1)
    lines = []
    for label, number in figures:
        if cell_len(label) > column:
            label = set_cell_size(label, column - 1) + "…"
        lines.append(set_cell_size(label, column) + " " + number)
    return lines


def _cut(line: str, width: int) -> str:
    """A line shown in part: "…" after what is left of it."""
    line = line.rstrip()
    if cell_len(line) + 2 <= width:
        return line + " …"
    return set_cell_size(line, width - 1) + "…"


def _fitted(blocks: list[list[str]], room: int, width: int) -> list[str]:
    """Wrapped blocks (Automa's piles) in ``room`` lines: whole when they fit, else each
    one cut short (the later ones first), every block keeping its first line."""
    keep = [len(block) for block in blocks]
    for i in reversed(range(len(blocks))):
        while sum(keep) > room and keep[i] > 1:
            keep[i] -= 1
    lines = []
    for block, n in zip(blocks, keep, strict=True):
        shown = block[:n]
        if n < len(block):
            shown[-1] = _cut(shown[-1], width)
        lines += shown
    return lines[:room]


def automa_panel(session: Session, width: int = INFO_WIDTH, rows: int = QUILT_ROWS) -> Text:
    """Automa's side of the table in a solo game, where a second quilt would be: only what
    the person may know (``State.automa``, D6). Above, its level, its deck, the card it
    played with the card's filters and its piles; below, on the rows of the person's
    figures, its buttons, the card's income per mark, its score by its level's columns and,
    with the tactical deck, the next budget. Piles too long for the room are cut with "…"
    (the log names every patch it took), each keeping a line. ``rows``: the height of the
    person's quilt board, above their figures (larger on a large screen)."""
    state = session.state
    view = state.automa
    assert view is not None
    card = view.card
    top: list[tuple[str, str]] = [(AUTOMA_NAME, f"bold {PLAYER_COLOURS[1]}")]
    top += [(line, "") for line in _wrapped(solo.level_text(view.level), width)]
    top += [(line, "") for line in _wrapped(_(solo.DECK_NAMES[view.deck]), width)]
    if card is None:
        played = _("no card played yet")
    else:
        played = fmt(_("card {card}: budget {budget}"), card=card.number, budget=card.budget)
    top += [(line, "bold") for line in _wrapped(played, width)]
    if card is not None:
        for line in solo.filter_lines(card):
            top += [(part, "dim") for part in _wrapped(line, width)]
    piles = [_wrapped(line, width) for line in solo.pile_lines(view)]
    top = top[: rows - len(piles)]  # each pile keeps a line at least
    top += [(line, "") for line in _fitted(piles, rows - len(top), width)]
    top += [("", "")] * (rows - len(top))
    figures = [
        (pgettext("figure", "buttons"), fmt("{n}", n=view.buttons)),
        (pgettext("figure", "income"), fmt("{n}", n=0 if card is None else card.income)),
        (pgettext("figure", "score now"), fmt("{n}", n=state.scores()[1])),
    ]
    if view.next_budget is not None:  # the tactical deck: the back of the next card
        figures.append((pgettext("figure", "next budget"), fmt("{n}", n=view.next_budget)))
    text = Text(no_wrap=True, overflow="crop")
    for i, (line, style) in enumerate(top):
        text.append(("\n" if i else "") + line, style)
    for i, line in enumerate(figure_lines(figures, width)):
        text.append("\n" + line, f"bold {colours.NOTE}" if i == 3 else "")
    return text


def card_picture(session: Session, slot: int) -> CardPicture:
    offered = session.state.offered
    if slot >= len(offered):
        return CardPicture()
    pid = offered[slot]
    ghost = session.ghost
    return CardPicture(
        patch_id=pid,
        status=session.offer_status(pid),
        selected=ghost is not None and ghost.patch_id == pid,
    )


def advance_line(state: State) -> Content:
    """``a  advance: +3 buttons``, clickable (the buttons come from the engine's advance)."""
    p = state.current_player
    if p is None or not state.is_legal(ADVANCE):
        return Content("")
    gained = state.apply(ADVANCE).players[p].buttons - state.players[p].buttons
    label = fmt(ngettext("advance: +{n} button", "advance: +{n} buttons", gained), n=gained)
    return Content.from_markup(f"[@click=screen.advance][b reverse] a [/] {escape(label)}[/]")


def detail_text(session: Session, preview: State | None) -> Text:
    """The held patch: its move, how many places it fits, and what it would change (or why
    it cannot go where it is)."""
    ghost = session.ghost
    text = Text()
    if session.state.is_terminal():
        text.append(_("The game is over: e shows the scores."), "bold")
        return text
    if ghost is None:
        if session.human_to_move:
            text.append(_("Pick a patch (1-3 or click it), or advance (a)."))
        return text
    text.append(f"{ghost.move}  ", "bold")
    if ghost.is_special:
        free = len(session.placements(None))
        where = _("goes on any empty square ({n} left)")
    else:
        free = len(session.fits())
        where = ngettext("fits {n} place this way", "fits {n} places this way", free)
    text.append(fmt(where, n=free), "dim")
    verdict = session.verdict()
    if preview is not None:
        for line in describe.preview_lines(session.state, preview, ghost.move):
            text.append("\n" + line, colours.GOOD)
    elif verdict is not None:
        # The move is on the line above: keep only the engine's reason.
        reason = verdict.removeprefix(f"{ghost.move} is not allowed: ")
        text.append("\n✗ " + reason, colours.BAD)
    return text


def status_text(session: Session, thinking: bool, hinting: bool, paused: bool, spin: int) -> Text:
    """Whose turn and why, after what is going on (an agent thinking, a pause, a hint)."""
    text = Text(no_wrap=True, overflow="ellipsis")
    p = session.player
    if thinking and p is not None:
        text.append(SPINNER[spin % len(SPINNER)] + " ", Style(color=colours.NOTE, bold=True))
        text.append(describe.thinking_text(session.seats, p) + "…  ", colours.NOTE)
    elif paused:
        text.append(_("Paused: space to go on.") + "  ", Style(color=colours.NOTE, bold=True))
    if hinting:
        text.append(_("looking for a hint…") + "  ", colours.NOTE)
    style = Style(color=PLAYER_COLOURS[p], bold=True) if p is not None else Style(bold=True)
    text.append(describe.turn_text(session.state, session.seats), style)
    return text


def keys_now(session: Session, paused: bool) -> list[Key]:
    """The keys that make sense at this moment (all keys are listed in the help)."""
    ghost = session.ghost
    if session.human_to_move and ghost is not None and not session.state.is_terminal():
        keys: list[Key] = [("←↑↓→", pgettext("key", "Move"), "help")]
        if not ghost.is_special:
            keys += [("r", _("Rotate"), "rotate"), ("f", pgettext("key", "Flip"), "flip")]
        keys += [("n", _("Next fit"), "cycle(1)"), ("⏎", _("Place"), "place")]
        if not ghost.is_special:
            keys.append(("Esc", _("Drop"), "cancel"))
        return [*keys, ("?", _("Help"), "help")]
    keys = []
    if session.state.is_terminal():
        keys += [("e", _("Scores"), "show_end"), ("R", _("Review"), "review")]
        if session.can_undo():
            keys.append(("u", _("Undo"), "undo"))
    elif session.mode == "watch":
        keys.append((pgettext("key", "space"), _("Go on") if paused else _("Pause"), "pause"))
    elif session.human_to_move:
        keys += [("1-3", _("Patch"), "help"), ("a", _("Advance"), "advance")]
        keys += [("h", _("Hint"), "hint"), ("u", _("Undo"), "undo")]
    else:
        keys.append(("u", _("Undo"), "undo"))
    keys += [("s", _("Save"), "save"), ("l", _("Load"), "load")]
    if session.state.is_terminal() or session.mode == "watch":
        keys.append(("N", _("New"), "new_game"))
    return [*keys, ("?", _("Help"), "help"), ("q", _("Quit"), "quit")]


def key_bar(keys: list[Key], width: int = 80) -> Content:
    """The keys with their labels; a click on one runs its action. Labels in another
    language are often longer (and a Chinese or Japanese character takes two cells): when the
    bar would not fit ``width``, the keys lose their padding so that every key stays visible."""
    padded = sum(cell_len(key) + cell_len(label) + 4 for key, label, _ in keys) <= width
    pad = " " if padded else ""
    return Content.from_markup(
        " ".join(
            f"[@click=screen.{action}][b reverse]{pad}{escape(key)}{pad}[/] {escape(label)}[/]"
            for key, label, action in keys
        )
    )
