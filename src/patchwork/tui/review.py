"""The review of the game just played (``R``): the searcher judges every move in worker
processes while a bar shows its progress, then the chart, each player's accuracy and the
table of moves are shown (the same views as ``patchwork review``)."""

from __future__ import annotations

import os
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import ProgressBar, Static
from textual.worker import Worker, WorkerState

from ..ai import Limit
from ..ai.review import DEFAULT_LIMIT, Review, review
from ..engine import Game
from ..i18n import _, fmt
from ..report import terminal
from .screens import direction_classes


class _Left(Exception):
    """The screen was closed: stop reviewing."""


class ReviewScreen(ModalScreen[None]):
    """Judges ``game`` when shown; Esc leaves (and drops a review still running). With
    ``workers > 1`` positions are searched in processes: a search in this process would hold
    the interpreter, and the screen stay still, for as long as it runs."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,R", "close", show=False)]

    def __init__(
        self,
        game: Game,
        names: tuple[str, str],
        limit: Limit = DEFAULT_LIMIT,
        workers: int = 2,
        seed: int = 0,
    ) -> None:
        super().__init__(classes=direction_classes())
        self.game = game
        self.names = names
        self.limit = limit
        self.processes = max(1, min(workers, os.cpu_count() or 1))
        self.seed = seed
        self.result: Review | None = None
        self.worker: Worker[Review] | None = None
        self.left = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="review"):
            yield Static(_("Game review"), classes="dialog-title")
            yield Static(
                fmt(
                    _("The searcher is judging every move ({limit} a position)…"),
                    limit=terminal.limit_text(self.limit),
                ),
                id="review-status",
            )
            yield ProgressBar(total=len(self.game) + 1, show_eta=True, id="review-progress")
            with VerticalScroll(id="review-body"):
                yield Static(id="review-chart")
                yield Static(id="review-summary")
                yield Static(id="review-table")
            yield Static(_("Esc: back to the game"), classes="dialog-keys")

    def on_mount(self) -> None:
        def progress(done: int, total: int) -> None:
            if self.left:
                raise _Left
            self.app.call_from_thread(self._advance, done, total)

        def work() -> Review:
            return review(self.game, self.limit, self.seed, self.processes, progress, self.names)

        self.worker = self.run_worker(
            work, name="review", group="review", thread=True, exit_on_error=False
        )

    def _advance(self, done: int, total: int) -> None:
        self.query_one("#review-progress", ProgressBar).update(total=total, progress=done)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self.worker or self.left:
            return
        status = self.query_one("#review-status", Static)
        if event.state == WorkerState.SUCCESS:
            self.show(event.worker.result)  # type: ignore[arg-type]
        elif event.state == WorkerState.ERROR:
            status.update(fmt(_("The review failed: {error}"), error=event.worker.error))

    def show(self, result: Review) -> None:
        self.result = result
        self.query_one("#review-progress", ProgressBar).display = False
        status = _("The game is unfinished: reviewed up to its last move.")
        self.query_one("#review-status", Static).update("" if result.finished else status)
        self.query_one("#review-chart", Static).update(terminal.chart(result, self.names))
        self.query_one("#review-summary", Static).update(terminal.summary(result, self.names))
        self.query_one("#review-table", Static).update(terminal.table(result, self.names))

    def action_close(self) -> None:
        self.left = True
        self.dismiss(None)
