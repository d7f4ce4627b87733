"""The table of the guided first game (``patchwork learn``): the game screen as it is, with the
lesson under the table and each lesson opening in a dialog as it begins.

The screen only says what the course decided (:class:`.tutorial.TutorialSession`): what
the last move did, the step's hint for a move that did not meet it, the opponent's replies
in the log. At 80x24 the lesson takes the status line's place and shows its number, title
and task; a taller terminal shows its text too (app.tcss).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ..engine import Move
from ..i18n import _, fmt, pgettext
from ..i18n.cells import fold
from ..tutorial import LESSONS, Progress
from ..tutorial.course import OPPONENT
from ..tutorial.lessons import BACK, COUNTING, JUMPED, WAITING
from . import colours, describe, panels
from .game_screen import GameScreen
from .screens import HelpScreen, direction_classes
from .session import Session
from .tutorial import TutorialSession

HEAD = f"bold {colours.BROWN}"  # the dialogs' titles are orange too
TASK = "bold"
NOTE = colours.NOTE


def heading(progress: Progress) -> str:
    """The lesson's number and title, "Lesson 3 of 9 · Turning and flipping" (the last
    lesson's once the game is over)."""
    number = fmt(_("Lesson {n} of {count}"), n=progress.number, count=len(LESSONS))
    return f"{number} · {_(progress.current.title)}"


def task_text(progress: Progress) -> str:
    """What the lesson asks for now; the final count once the game is over."""
    return _(COUNTING) if progress.finished else _(progress.task.task)


def panel_text(progress: Progress, width: int, rows: int) -> Text:
    """The lesson under the table in ``rows`` lines of ``width`` cells: its heading, its text
    when there is room for all of it, its task, and WAITING while the lesson waits; with
    less room the heading and what to do now share the lines (the dialog has all of it)."""
    waiting = [Text(_(WAITING), NOTE)] if progress.free and not progress.finished else []
    head, task = Text(heading(progress), HEAD), Text(task_text(progress), TASK)
    now = waiting[0] if waiting else task
    tries = [
        [head, Text(_(progress.current.text)), task, *waiting],
        [head, task, *waiting],
        [Text.assemble(head, "  ", now)],
    ]
    for parts in tries:
        lines = list(fold(Text("\n").join(parts), width).split("\n"))
        if len(lines) <= rows:
            break
    if len(lines) > rows > 0:  # even the shortest is too long: what fits, and "…"
        lines, last = lines[: rows - 1], lines[rows - 1] + " …"
        last.truncate(width, overflow="ellipsis")
        lines.append(last)
    return Text("\n").join(lines)


class Prose(Static):
    """Text broken into lines at the width it is given by its language's rules
    (:func:`..i18n.cells.fold`: Textual would cut a run of Chinese anywhere)."""

    def __init__(self, text: Text, id: str | None = None) -> None:
        super().__init__(text, markup=False, id=id)
        self.text = text

    def on_resize(self, event: events.Resize) -> None:
        self.update(fold(self.text, self.content_size.width))


class LessonScreen(ModalScreen[None]):
    """A lesson in full, as it begins (and again with ``h``): after the step just met
    (``done``), its heading, what it teaches, what it asks for now."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,space,h", "close", show=False)]

    def __init__(self, progress: Progress, done: str | None = None) -> None:
        super().__init__(classes=direction_classes())
        self.progress = progress
        self.done = done

    def compose(self) -> ComposeResult:
        p = self.progress
        with Vertical(classes="dialog", id="lesson-dialog"):
            if self.done:
                yield Prose(Text(self.done, colours.GOOD), id="lesson-done")
            yield Static(heading(p), classes="dialog-title", markup=False)
            parts = [Text(_(JUMPED), NOTE)] if p.jumped else []
            parts += [Text(_(BACK), NOTE)] if p.back else []
            parts += [Text()] if parts else []
            parts += [Text(_(p.current.text)), Text(), Text(task_text(p), TASK)]
            if p.free and not p.finished:
                parts.append(Text(_(WAITING), NOTE))
            yield Prose(Text("\n").join(parts), id="lesson-body")
            yield Static(_("Enter or Esc: back to the game"), classes="dialog-keys")

    def action_close(self) -> None:
        self.dismiss(None)


class TutorialScreen(GameScreen):
    """The game screen of the guided first game. Its hooks: the session refuses a move that
    does not meet the step (the screen says the hint), ``_played`` says what a move did,
    the key bar, the help and ``h`` speak of the lesson, the end shows the final count and
    then opens the learner's first review. Undo and loading have no place in the lessons;
    ``q`` leaves at once (the place is kept after every move)."""

    session: TutorialSession

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if widget.id == "notice":  # the lesson just above the messages
                yield Static(id="lesson", markup=False)
            yield widget

    def on_mount(self) -> None:  # before GameScreen.on_mount, which starts the turn
        self.call_after_refresh(self.opening)

    def opening(self) -> None:
        """What the table says first: trouble with the kept file, then the lesson."""
        s = self.session
        self.say_trouble()
        if not s.progress.finished:
            self.app.push_screen(LessonScreen(s.progress))

    def use(self, session: Session) -> None:
        assert isinstance(session, TutorialSession)
        super().use(session)
        self.opening()

    def redraw(self) -> None:
        super().redraw()
        panel = self.query_one("#lesson", Static)
        size = panel.content_size
        self._put("#lesson", panel_text(self.session.progress, size.width, size.height))

    def keys_shown(self) -> list[panels.Key]:
        lesson = pgettext("key", "Lesson")
        return [
            (key, lesson if key == "h" else label, action)
            for key, label, action in super().keys_shown()
            if key not in ("u", "s", "l")
        ]

    # -- a move played, and what it did ---------------------------------------------------

    def _played(self, move: Move, player: int) -> None:
        """What a move played did: it and the replies in the log; on the notice the step
        met, the table's game switched, or the waiting lesson's moment come; and a new
        lesson's dialog, which says the step met first."""
        s = self.session
        self.log_line(describe.move_sentence(s.seats, player, move), player)
        for reply in s.replies:
            self.log_line(describe.move_sentence(s.seats, OPPONENT, reply), OPPONENT)
        was, now = s.before, s.progress
        done = _(was.task.done) if s.done else None
        if s.switched:  # to the prepared game, or back to the learner's own
            table = _(BACK) if now.back else _(JUMPED)
            self.log_line(table)
            self.say(table, NOTE)
        elif done:
            self.say(done, colours.GOOD)
        elif was.free and now.lesson == was.lesson:
            self.say(task_text(now), NOTE)  # the lesson's moment has come
        else:
            self.say("")
        self.next_turn()
        if not now.finished and (now.lesson != was.lesson or s.switched):
            self.app.push_screen(LessonScreen(now, done))
        self.say_trouble()

    def say_trouble(self) -> None:
        """Trouble with the file of the learner's place: a line, and the reason in the log."""
        trouble, self.session.trouble = self.session.trouble, None
        if trouble is not None:
            self.log_line(" ".join(trouble))
            self.say(trouble[0], colours.BAD)

    # -- keys that mean something else in the lessons -------------------------------------

    def asks_before_advancing(self) -> bool:
        return False  # the lesson refuses an advance it does not ask for (as in the browser)

    def action_hint(self) -> None:
        """``h``: the lesson again (the AI's hint would not know what the lesson asks)."""
        self.app.push_screen(LessonScreen(self.session.progress))

    def action_help(self) -> None:
        asks = self.host.preferences.asks_before_advancing
        self.app.push_screen(HelpScreen(asks_before_advancing=asks, lessons=True))

    def action_load(self) -> None:
        self.say(_("The lessons play their own game: load a record in a new game (N)."))

    def action_quit(self) -> None:
        self.host.quit_game()  # the place in the lessons was kept at the last move

    # -- the end: the final count, then the first review ----------------------------------

    def end_lines(self) -> list[str]:
        """The count in the lesson's words in place of its formula (the first of the score
        lines), then what comes next: the review."""
        _formula, *count = super().end_lines()
        review = _("Next, your first game review: the AI judges every move (Enter or R).")
        return [_(LESSONS[-1].steps[-1].done), "", _(COUNTING), *count, "", review]

    def end_chosen(self, what: str | None) -> None:
        super().end_chosen("review" if what == "next" else what)
