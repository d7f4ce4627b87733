"""The dialogs over the game: confirm, file name, end of the game, help, new game, the
language and the "How to play" page.

In a right-to-left language (Persian) every dialog carries the class ``-rtl``: its text is
aligned to the right (app.tcss), while notation and boards keep their left-to-right order."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Markdown, OptionList, Static
from textual.widgets.option_list import Option

from .. import i18n
from ..ai.levels import DEFAULT_LEVEL, DESCRIPTIONS, LEVELS, former
from ..engine.automa import Automa
from ..i18n import _, fmt, pgettext
from . import colours, solo
from .seats import AUTOMA, HUMAN


def direction_classes() -> str:
    """The CSS classes of a screen in the current language ("-rtl" for Persian)."""
    return "-rtl" if i18n.is_right_to_left() else ""


def _button(label: str, id: str) -> Button:
    # Buttons are for the mouse; the keys are the screen's bindings (so Enter never lands on
    # whichever button happens to hold the focus).
    button = Button(label, id=id, compact=True)
    button.can_focus = False
    return button


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: Enter or y says yes, Escape or n says no."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,y", "answer(True)", show=False),
        Binding("escape,n", "answer(False)", show=False),
    ]

    def __init__(self, title: str, body: str) -> None:
        super().__init__(classes=direction_classes())
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="dialog-title")
            yield Static(self.body, markup=False)
            yield Static(_("Enter: yes   Esc: no"), classes="dialog-keys")
            with Horizontal(classes="dialog-buttons"):
                yield _button(_("Yes"), "yes")
                yield _button(_("No"), "no")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class AdvanceScreen(ConfirmScreen):
    """Advance? Yes, no, or ``c``: yes, and stop asking (``stop_asking()`` is called;
    ``c`` in the game turns the question back on)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("c", "always", show=False)]

    def __init__(self, body: str, stop_asking: Callable[[], None]) -> None:
        super().__init__(_("Advance?"), body)
        self.stop_asking = stop_asking

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="confirm-advance"):
            yield Static(self.title_text, classes="dialog-title")
            yield Static(self.body, markup=False)
            yield Static(_("Enter: yes   Esc: no   c: yes, and stop asking"), classes="dialog-keys")
            with Horizontal(classes="dialog-buttons"):
                yield _button(_("Yes"), "yes")
                yield _button(_("No"), "no")
                yield _button(_("c Don't ask again"), "always")

    def action_always(self) -> None:
        self.stop_asking()
        self.dismiss(True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "always":
            self.action_always()
        else:
            self.dismiss(event.button.id == "yes")


class QuitScreen(ModalScreen[str]):
    """Leaving a game that is not over: "save" (and quit), "discard" (quit without saving)
    or "cancel". Enter and Escape cancel, so that no key pressed by habit loses the game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "choose('save')", show=False),
        Binding("d", "choose('discard')", show=False),
        Binding("escape,enter,c", "choose('cancel')", show=False),
    ]

    def __init__(self, save_path: str | None) -> None:
        super().__init__(classes=direction_classes())
        self.save_path = save_path

    def compose(self) -> ComposeResult:
        if self.save_path:
            body = fmt(
                _("The game is not over. Save it to {path} before quitting?"), path=self.save_path
            )
        else:
            body = _("The game is not over. Save it before quitting?")
        with Vertical(classes="dialog", id="quit"):
            yield Static(_("Quit the game?"), classes="dialog-title")
            yield Static(body, markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield _button(_("s Save and quit"), "save")
                yield _button(_("d Quit without saving"), "discard")
                yield _button(_("Esc Cancel"), "cancel")
            yield Static(_("Enter or Esc: back to the game"), classes="dialog-keys")

    def action_choose(self, what: str) -> None:
        self.dismiss(what)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "cancel")


class PathScreen(ModalScreen[str | None]):
    """Ask for a file name; ``act(path)`` does the work and returns an error text or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", show=False)]

    def __init__(self, title: str, default: str, act: Callable[[str], str | None]) -> None:
        super().__init__(classes=direction_classes())
        self.title_text = title
        self.default = default
        self.act = act

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="dialog-title")
            yield Input(value=self.default, id="path")
            yield Static("", id="path-error", classes="error", markup=False)
            yield Static(
                _("Enter: OK   Esc: cancel   (.json or the text form otherwise)"),
                classes="dialog-keys",
            )

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        path = event.value.strip()
        if not path:
            return
        error = self.act(path)
        if error is None:
            self.dismiss(path)
        else:
            self.query_one("#path-error", Static).update(error)

    def action_cancel(self) -> None:
        self.dismiss(None)


class EndScreen(ModalScreen[str]):
    """The final scores and the tie-break; returns what to do next ("next" for Enter: the
    board, or in the lessons their next step, the review)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('new')", show=False),
        Binding("u", "choose('undo')", show=False),
        Binding("s", "choose('save')", show=False),
        Binding("R", "choose('review')", show=False),
        Binding("q", "choose('quit')", show=False),
        Binding("escape", "choose('close')", show=False),
        Binding("enter", "choose('next')", show=False),
    ]

    def __init__(self, title: str, lines: list[str], can_undo: bool) -> None:
        super().__init__(classes=direction_classes())
        self.title_text = title
        self.lines = lines
        self.can_undo = can_undo

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="end"):
            yield Static(self.title_text, classes="dialog-title")
            yield Static("\n".join(self.lines), id="scores", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield _button(_("n New game"), "new")
                if self.can_undo:
                    yield _button(_("u Undo"), "undo")
                yield _button(_("s Save"), "save")
                yield _button(_("R Review"), "review")
                yield _button(_("Esc Board"), "close")
                yield _button(_("q Quit"), "quit")

    def action_choose(self, what: str) -> None:
        if what == "undo" and not self.can_undo:
            return
        self.dismiss(what)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "close")


HELP_FRAME = 2  # the help dialog's lines around its text: its borders (title, keys line)
HelpRow = tuple[str, str, str]  # a key (or a sign on screen), what it does (means), its style
KEY = "bold"


def help_keys(
    asks_before_advancing: bool = True, lessons: bool = False
) -> tuple[list[HelpRow], list[HelpRow]]:
    """Every key, in two columns: playing a turn, then the rest of the game; the row of
    ``c`` says whether advancing asks first now. In the ``lessons`` (patchwork learn) ``h``
    shows the lesson again, and no move is taken back nor a record loaded."""
    if asks_before_advancing:
        confirm = _("ask before advancing: on")
    else:
        confirm = _("ask before advancing: off")
    turn = [
        ("1 2 3", _("pick up an offered patch")),
        (pgettext("key", "arrows"), _("move it over your quilt")),
        ("r", _("turn it clockwise")),
        ("f", _("mirror it")),
        ("n p", _("next / previous place it fits")),
        ("Enter", _("sew it on")),
        ("Esc", _("put it down")),
        ("a", _("advance")),
        ("h", _("a hint from the AI")),
        ("u", _("take back your move")),
    ]
    game = [
        ("c", confirm),
        ("s", _("save the game record")),
        ("l", _("load a game record")),
        ("N", _("new game")),
        ("e", _("the scores, at the end")),
        ("R", _("review, at the end")),
        (pgettext("key", "space"), _("pause, when watching")),
        ("L", _("language")),
        ("H", _("how to play (the rules)")),
        ("q", _("quit")),
    ]
    if lessons:
        again = _("the lesson again: its text and task")
        turn = [(key, again if key == "h" else what) for key, what in turn if key != "u"]
        game = [row for row in game if row[0] != "l"]
    return [(*row, KEY) for row in turn], [(*row, KEY) for row in game]


def help_signs(solo: bool = False) -> tuple[list[HelpRow], list[HelpRow]]:
    """What the signs on screen mean, drawn as on screen, in two columns: the quilt
    boards, then the time board and the figures (in a solo game Automa's 7x7 marker too)."""
    bold = " bold"
    quilt = [
        ("[]", _("the patch you hold"), colours.GOOD + bold),
        ("[]", _("red: it does not fit there"), colours.BAD + bold),
        ("XX", _("it overlaps a patch"), f"{colours.WHITE} on {colours.RED} bold"),
        ("+", _("where its corner can go"), colours.GREEN + bold),
        ("▒▒", _("a special patch"), colours.WHITE),
    ]
    board = [
        ("▼ ▲", _("the time tokens"), bold),
        ("●", _("button income"), colours.YELLOW),
        ("■", _("a special patch still there"), colours.WHITE + bold),
    ]
    if solo:
        board.append(("◆", _("Automa's 7x7 marker"), colours.NOTE))
    board.append((pgettext("figure", "end ≈"), _("score if nobody buys again"), ""))
    return quilt, board


def help_lines(solo: bool = False, asks_before_advancing: bool = True) -> list[str]:
    """The help as plain lines, a key (or sign) and its meaning each."""
    parts = (*help_keys(asks_before_advancing), *help_signs(solo))
    rows = [row for part in parts for row in part]
    return [f"{key}  {what}" for key, what, _style in rows] + [mouse_text()]


def mouse_text() -> str:
    return _(
        "Mouse: click a patch to pick it up, a square to move it there, the same square "
        "again to sew it on; a right click turns it."
    )


def help_table(left: list[HelpRow], right: list[HelpRow]) -> Table:
    """Two columns of keys (or signs) and their meanings, side by side: a meaning too long
    for its column wraps inside it, never into the other column. Right to left, the
    columns and the keys change sides."""
    rtl = i18n.is_right_to_left()
    table = Table(
        box=None, show_header=False, padding=(0, 1), pad_edge=False, collapse_padding=False,
        expand=True,
    )  # fmt: skip
    for side in (right, left) if rtl else (left, right):
        widest = max((cell_len(key) for key, _what, _style in side), default=0)
        if rtl:  # the meaning, then its key at the right
            table.add_column(justify="right", overflow="fold")
            table.add_column(justify="left", no_wrap=True, width=widest)
        else:  # keys right-aligned against their meanings
            table.add_column(justify="right", no_wrap=True, width=widest)
            table.add_column(justify="left", overflow="fold")
    for i in range(max(len(left), len(right))):
        cells: list[Text] = []
        for side in (right, left) if rtl else (left, right):
            key, what, style = side[i] if i < len(side) else ("", "", "")
            pair = [Text(key, style=style), Text(what)]
            cells += reversed(pair) if rtl else pair
        table.add_row(*cells)
    return table


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,question_mark,q", "close", show=False)
    ]

    def __init__(
        self, solo: bool = False, asks_before_advancing: bool = True, lessons: bool = False
    ) -> None:
        super().__init__(classes=direction_classes())
        self.solo = solo
        self.asks_before_advancing = asks_before_advancing
        self.lessons = lessons

    def compose(self) -> ComposeResult:
        # The title and the keys line sit on the border: the help is the tallest dialog,
        # and at 80x24 every line inside counts.
        with Vertical(classes="dialog", id="help") as dialog:
            dialog.border_title = _("Keys and mouse")
            dialog.border_subtitle = _("Esc: back to the game")
            with VerticalScroll(id="help-text"):
                keys = help_table(*help_keys(self.asks_before_advancing, self.lessons))
                yield Static(keys, id="help-keys")
                yield Static(mouse_text(), id="help-mouse", markup=False)
                yield Static(help_table(*help_signs(self.solo)), id="help-signs")

    def on_mount(self) -> None:
        self.fit()

    def on_resize(self) -> None:
        self.fit()

    def fit(self) -> None:
        """The text scrolls where the screen is too short for it (a small terminal, longer
        words), so the dialog's title and keys line always show."""
        room = self.app.size.height - HELP_FRAME
        self.query_one("#help-text", VerticalScroll).styles.max_height = max(3, room)

    def action_close(self) -> None:
        self.dismiss(None)


LEARN = (HUMAN, "lessons")  # the new-game dialog's choice of the guided first game
# The games between AI levels the dialog offers to watch: a first game against a casual
# player, the casual player against a strong club player, and that one against an expert.
WATCHED = ((1, DEFAULT_LEVEL), (DEFAULT_LEVEL, former(3)), (former(3), former(4)))


def mode_options(
    human_seat: int, automa: Automa | None = None
) -> list[tuple[str, tuple[str, str]]]:
    """The games the new-game dialog offers: (label, kinds of seats 0 and 1); first a solo
    game against ``automa`` (its level and deck) when there is one, last the guided first
    game (:data:`LEARN`)."""
    options: list[tuple[str, tuple[str, str]]] = []
    if automa is not None:
        label = fmt(
            _("You against Automa: {level}, {deck}"),
            level=solo.level_text(automa.level),
            deck=_(solo.DECK_NAMES[automa.deck]),
        )
        options.append((label, (HUMAN, AUTOMA)))
    for n in LEVELS:
        kinds = ["human", "human"]
        kinds[1 - human_seat] = f"level{n}"
        label = fmt(_("You against AI level {n}: {who}"), n=n, who=_(DESCRIPTIONS[n]))
        options.append((label, (kinds[0], kinds[1])))
    options.append((_("Two people at this keyboard"), ("human", "human")))
    for a, b in WATCHED:
        options.append(
            (
                fmt(_("Watch AI level {a} against AI level {b}"), a=a, b=b),
                (f"level{a}", f"level{b}"),
            )
        )
    options.append((_("Learn to play (guided first game)"), LEARN))
    return options


class NewGameScreen(ModalScreen[tuple[str, str] | None]):
    """Choose who plays the next game."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", show=False)]

    def __init__(self, human_seat: int, automa: Automa | None = None) -> None:
        super().__init__(classes=direction_classes())
        self.options = mode_options(human_seat, automa)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="new"):
            yield Static(_("New game"), classes="dialog-title")
            yield OptionList(
                *(Option(label, id=str(i)) for i, (label, _k) in enumerate(self.options))
            )
            yield Static(_("Enter: start   Esc: cancel"), classes="dialog-keys")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        index = int(event.option.id or 0)
        self.dismiss(self.options[index][1])

    def action_cancel(self) -> None:
        self.dismiss(None)


class LanguageScreen(ModalScreen[str | None]):
    """Choose the language of the texts (each language named in itself)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", show=False)]

    def __init__(self) -> None:
        super().__init__(classes=direction_classes())
        self.codes = list(i18n.available_languages())

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="language"):
            yield Static(_("Language"), classes="dialog-title")
            yield OptionList(*(Option(f"{i18n.language_name(c)}  ({c})", id=c) for c in self.codes))
            yield Static(_("Enter: choose   Esc: cancel"), classes="dialog-keys")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        current = i18n.base_language(i18n.language())
        if current in self.codes:
            options.highlighted = self.codes.index(current)
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class HowToScreen(ModalScreen[None]):
    """The rules for players, in the current language (i18n/howto/<lang>.md)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", show=False)]

    def __init__(self) -> None:
        super().__init__(classes=direction_classes())

    def compose(self) -> ComposeResult:
        text = i18n.howto_markdown(i18n.language()) or i18n.howto_markdown("en") or ""
        with Vertical(classes="dialog", id="howto"):
            with VerticalScroll(id="howto-text"):
                yield Markdown(text)
            yield Static(_("↑ ↓ PgUp PgDn: scroll   Esc: back to the game"), classes="dialog-keys")

    def on_mount(self) -> None:
        self.query_one("#howto-text", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)
