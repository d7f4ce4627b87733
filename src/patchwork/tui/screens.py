"""The dialogs over the game: confirm, file name, end of the game, help, new game, the
language and the "How to play" page.

In a right-to-left language (Persian) every dialog carries the class ``-rtl``: its text is
aligned to the right (app.tcss), while notation and boards keep their left-to-right order."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Markdown, OptionList, Static
from textual.widgets.option_list import Option

from .. import i18n
from ..engine.automa import Automa
from ..i18n import _, fmt
from . import solo
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
    """The final scores and the tie-break; returns what to do next."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('new')", show=False),
        Binding("u", "choose('undo')", show=False),
        Binding("s", "choose('save')", show=False),
        Binding("R", "choose('review')", show=False),
        Binding("q", "choose('quit')", show=False),
        Binding("escape,enter", "choose('close')", show=False),
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


def help_lines(solo: bool = False) -> list[str]:
    """The keys and the signs on screen; in a solo game the time board's line also names
    Automa's 7x7 marker (one line instead of another, so the help still fits 80x24)."""
    if solo:
        time_board = _(
            "Time board: ▼ ▲ the tokens, ● button income, ■ special patch still there, "
            "◆ Automa's 7x7 marker (it takes the tile on reaching it)."
        )
    else:
        time_board = _("Time board: ▼ ▲ the tokens, ● button income, ■ special patch still there.")
    return [
        _("1 2 3 or click   pick up an offered patch (or click it again to put it down)"),
        _("arrows or click  move it over your quilt board (click the same square to place,"),
        _("                 right click to turn it)"),
        _("r  turn it clockwise   f  mirror it   n / p  next / previous place it fits"),
        _("Enter  sew it on   Esc  put it down   a  advance (asks first)"),
        _("u  undo   h  hint   s  save   l  load   N  new game   q  quit"),
        _("L  language   H  how to play (the rules)"),
        "",
        _("On the quilt: [] the patch you hold (red: does not fit there, XX: overlap),"),
        _("+ where its corner can go in this orientation, ▒▒ special patch."),
        time_board,
        _("'end' under a quilt: the final score if nobody bought another patch."),
    ]


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,question_mark,q", "close", show=False)
    ]

    def __init__(self, solo: bool = False) -> None:
        super().__init__(classes=direction_classes())
        self.solo = solo

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="help"):
            yield Static(_("Keys and mouse"), classes="dialog-title")
            yield Static("\n".join(help_lines(self.solo)), markup=False)
            yield Static(_("Esc: back to the game"), classes="dialog-keys")

    def action_close(self) -> None:
        self.dismiss(None)


def mode_options(
    human_seat: int, automa: Automa | None = None
) -> list[tuple[str, tuple[str, str]]]:
    """The games the new-game dialog offers: (label, kinds of seats 0 and 1); first a solo
    game against ``automa`` (its level and deck) when there is one."""
    options: list[tuple[str, tuple[str, str]]] = []
    if automa is not None:
        label = fmt(
            _("You against Automa: {level}, {deck}"),
            level=solo.level_text(automa.level),
            deck=_(solo.DECK_NAMES[automa.deck]),
        )
        options.append((label, (HUMAN, AUTOMA)))
    for n in range(1, 6):
        kinds = ["human", "human"]
        kinds[1 - human_seat] = f"level{n}"
        options.append((fmt(_("You against level {n}"), n=n), (kinds[0], kinds[1])))
    options.append((_("Two people at this keyboard"), ("human", "human")))
    for a, b in ((1, 2), (2, 3), (3, 4)):
        options.append(
            (fmt(_("Watch level {a} against level {b}"), a=a, b=b), (f"level{a}", f"level{b}"))
        )
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
