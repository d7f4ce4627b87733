"""The guided first game at the table, without any drawing: the course (``patchwork.tutorial``)
behind the app's :class:`Session`, and the file that keeps the learner's place.

A person's move goes to ``tutorial.attempt``: it is played only when it meets the lesson's
step, and the gentle opponent's replies come with it; otherwise it is refused with the step's
hint. The lessons' goals are the course's; nothing here judges a move.
"""

from __future__ import annotations

import json
from pathlib import Path

import platformdirs

from ..engine import Move
from ..i18n import _, error_text
from ..tutorial import Progress, attempt, begin, replay
from ..tutorial.course import OPPONENT_LEVEL
from .seats import HUMAN, make_seats
from .session import Refused, Session

FILE_NAME = "lessons.json"


def default_path() -> Path:
    """Where the learner's place is kept (``$XDG_DATA_HOME/patchwork`` on Linux)."""
    return platformdirs.user_data_path("patchwork") / FILE_NAME


class TutorialSession(Session):
    """The lessons' game against AI level 1, at ``progress``; kept at ``path`` whenever the
    progress changes (None: for this run only). After each move played, ``before`` is the
    progress it was made at, ``done`` whether it ended the step, ``replies`` the opponent's
    moves that followed, and ``switched`` whether the table now shows another game: the
    prepared one, where a lesson is shown when the learner's game has not come to it, or the
    learner's own again. ``trouble``: what went wrong with the file, for the screen to say (a
    line, and the file and the reason in detail)."""

    def __init__(
        self, progress: Progress, path: Path | None = None, trouble: tuple[str, str] | None = None
    ) -> None:
        self.progress = self.before = progress
        self.path = path
        self.trouble = trouble
        self.replies: tuple[Move, ...] = ()
        self.switched = False
        self.done = False
        super().__init__(replay(progress.moves), make_seats((HUMAN, f"level{OPPONENT_LEVEL}")))
        self.keep()

    def play(self, move: Move) -> None:
        """Play ``move`` if it meets the step (or the lesson waits), then the replies;
        IllegalMoveError for an illegal move, :class:`Refused` with the step's hint for one
        that does not meet it (nothing changed either way)."""
        tried = attempt(self.progress, str(move))
        if not tried.met:
            raise Refused(self.progress.task.hint)
        game = self.game
        for text in (tried.move, *tried.replies):
            game.push(text)
        self.replies = tuple(game.moves[len(game) - len(tried.replies) :])
        self.switched = tuple(map(str, game.moves)) != tried.progress.moves
        if self.switched:
            self.game = replay(tried.progress.moves)
        self.before, self.progress, self.done = self.progress, tried.progress, tried.done
        self.version += 1
        self.prepare_turn()
        self.keep()

    def can_undo(self) -> bool:
        return False  # the course goes forward only; a move that does not meet it is not played

    def undo(self) -> list[Move]:
        return []

    def keep(self) -> None:
        """Write the progress to ``path``; a failure is only said (the lessons go on)."""
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(self.progress.to_dict()) + "\n", "utf-8")
        except OSError as e:
            self.trouble = (_("Your place in the lessons cannot be kept."), str(e))


def open_course(path: Path | None, restart: bool = False) -> TutorialSession:
    """The lessons where the learner left them at ``path``; from the start with ``restart``,
    when nothing is kept there yet, or when what is there cannot be used (``trouble`` then
    says why, in one line)."""
    if restart or path is None or not path.exists():
        return TutorialSession(begin(), path)
    try:
        try:
            data = json.loads(path.read_bytes())
        except ValueError:
            data = None  # not JSON: the course says what it expected
        return TutorialSession(Progress.from_dict(data), path)
    except (OSError, ValueError) as e:
        said = _("Your place in the lessons could not be read: they start over.")
        trouble = (said, f"{path}: {error_text(e)}")
    return TutorialSession(begin(), path, trouble)
