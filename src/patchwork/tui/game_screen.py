"""The game screen: the boards, the offer and the keys, driving a :class:`Session`.

Agents think in worker threads (Textual workers) so the screen never freezes; a result
that arrives after the position changed (undo, load, new game) is dropped. Quitting asks a
searching agent to stop at once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import ClassVar, Protocol

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import RichLog, Static
from textual.worker import Worker, WorkerState, get_current_worker

from .. import i18n
from ..ai import Agent, Limit, MCTSAgent, SearchResult
from ..engine import Advance, Game, IllegalMoveError, Move, PatchworkError, Record
from ..engine.automa import Automa
from ..i18n import _, error_text, fmt, ngettext
from ..i18n.cells import fold
from . import colours, describe, panels, solo
from .offer import STRIP_ROWS, CircleStrip, PatchCard, circle_text
from .options import AppOptions
from .placement import Ghost
from .preferences import Preferences
from .quilt import PLAYER_COLOURS, QuiltPicture, QuiltView
from .review import ReviewScreen
from .screens import (
    AdvanceScreen,
    EndScreen,
    HelpScreen,
    HowToScreen,
    LanguageScreen,
    NewGameScreen,
    PathScreen,
    QuitScreen,
    direction_classes,
)
from .seats import close_agent, kinds_for, ponderer, stop_agent
from .session import Refused, Session
from .timeboard import TimeBoard

ADVANCE = Advance()
# The compact layout takes 24 lines (app.tcss); the circle's patches drawn need STRIP_ROWS
# more and a line of log; quilt boards twice as large need 9 more lines, and room for two
# of them (2 x 39 columns) beside the offer's three cards.
TALL_ROWS = 24 + STRIP_ROWS + 1
LARGE_SIZE = (118, TALL_ROWS + 9)


def no_longer_asks() -> str:
    """What the notice says once advancing no longer asks first (two ways lead there)."""
    return _("Advancing no longer asks first (c: ask again); u takes a move back.")


AiResult = tuple[int, Move, SearchResult | None]


class Host(Protocol):
    """What the screen asks of the app that shows it (``tui/app.py`` imports this module,
    never the other way round)."""

    options: AppOptions
    preferences: Preferences

    def new_game(self, kinds: tuple[str, str], automa: Automa | None = None) -> None: ...

    def resume(self, game: Game, kinds: tuple[str, str], names: tuple[str, str]) -> None: ...

    def quit_game(self, save: bool = True) -> None: ...


class GameScreen(Screen[None]):
    """Everything at a glance, and every action of a turn on one key (and the mouse)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "pick(0)", show=False),
        Binding("2", "pick(1)", show=False),
        Binding("3", "pick(2)", show=False),
        Binding("a", "advance", show=False),
        Binding("c", "confirm_setting", show=False),
        Binding("up", "nudge(-1, 0)", show=False),
        Binding("down", "nudge(1, 0)", show=False),
        Binding("left", "nudge(0, -1)", show=False),
        Binding("right", "nudge(0, 1)", show=False),
        Binding("r", "rotate", show=False),
        Binding("f", "flip", show=False),
        Binding("n", "cycle(1)", show=False),
        Binding("p", "cycle(-1)", show=False),
        Binding("enter", "place", show=False),
        Binding("escape", "cancel", show=False),
        Binding("u", "undo", show=False),
        Binding("h", "hint", show=False),
        Binding("s", "save", show=False),
        Binding("l", "load", show=False),
        Binding("L", "language", show=False),
        Binding("H", "howto", show=False),
        Binding("N", "new_game", show=False),
        Binding("e", "show_end", show=False),
        Binding("R", "review", show=False),
        Binding("space", "pause", show=False),
        Binding("question_mark", "help", show=False),
        Binding("q", "quit", show=False),
    ]

    def __init__(self, session: Session, host: Host) -> None:
        super().__init__(classes=direction_classes())
        self.session = session
        self.host = host
        self.thinking: Worker[AiResult] | None = None
        self.thinking_agent: Agent | None = None
        self.hinting: Worker[tuple[int, SearchResult]] | None = None
        self.hint_agent: MCTSAgent | None = None
        self.pondering: Worker[None] | None = None
        self._ponder_stop = threading.Event()
        self.paused = False
        self.notice: Text = Text()
        self._spin = 0
        self._loaded: Record | None = None
        self._last_path = ""
        self._shown: dict[str, Text | Content | str] = {}
        self._ai_lock = threading.Lock()
        self._clean_version = session.version  # the position last started, loaded or saved
        self._counted: list[Game] = []  # games whose end has been counted (preferences)

    # -- layout -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status", markup=False)
        yield TimeBoard(id="time")
        with Horizontal(id="table"):
            for p in (0, 1):
                with Vertical(classes="player"):
                    yield QuiltView(p, id=f"quilt{p}")
                    yield Static(id=f"info{p}", classes="info", markup=False)
                    if p == 1:  # a solo game: Automa's side, which has no quilt board
                        yield Static(id="automa", markup=False)
            with Vertical(id="side"):
                yield Static(id="circle", markup=False)
                with Horizontal(id="cards"):
                    for slot in range(3):
                        yield PatchCard(slot, id=f"card{slot}")
                yield Static(id="advance")
                yield Static(id="detail", markup=False)
        yield CircleStrip(id="strip")
        yield Static(id="notice", markup=False)
        log = RichLog(id="log", wrap=True, markup=False, max_lines=500)
        log.can_focus = False
        yield log
        yield Static(id="keys")

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width, event.size.height)
        self.call_after_refresh(self.redraw)  # Automa's side follows the quilt's height

    def fit(self, width: int, height: int) -> None:
        """Use the room of a large terminal: under the table, the circle's next patches
        drawn (``-tall``); with more room still, quilt boards twice as large (``-large``).
        80x24 keeps the compact layout (app.tcss)."""
        self.set_class(height >= TALL_ROWS, "-tall")
        self.set_class(width >= LARGE_SIZE[0] and height >= LARGE_SIZE[1], "-large")

    def on_mount(self) -> None:
        self.fit(*self.app.size)
        self.set_interval(0.15, self._tick)
        self.redraw()
        self.call_after_refresh(self.next_turn)

    # -- drawing ----------------------------------------------------------------------------

    def say(self, message: str, style: str = "") -> None:
        """Show a message on the notice line (red for refusals, green for good news)."""
        self.notice = Text(message, style=style)
        self._put("#notice", self.notice)

    def _put(self, selector: str, content: Text | Content | str) -> None:
        """Update a text widget, unless it already shows exactly that (repainting the
        whole screen on every key would make the arrows sluggish). Prose (a Text that may
        wrap) is broken into lines here, by the rules of its language."""
        widget = self.query_one(selector, Static)
        if isinstance(content, Text) and not content.no_wrap:
            content = fold(content, widget.content_size.width)
        if self._shown.get(selector) == content:
            return
        self._shown[selector] = content
        widget.update(content, layout=False)

    def log_line(self, message: str, player: int | None = None) -> None:
        style = PLAYER_COLOURS[player] if player is not None else "dim"
        log = self.query_one("#log", RichLog)
        log.write(fold(Text(message, style=style), log.scrollable_content_region.width))

    def redraw(self) -> None:
        """Show the session as it is now (widgets whose picture did not change stay)."""
        s = self.session
        state = s.state
        preview = s.preview()
        self.set_class(s.is_solo, "-solo")
        self.query_one(TimeBoard).show(panels.time_picture(s, preview))
        for q in (0, 1) if not s.is_solo else (0,):
            self.query_one(f"#quilt{q}", QuiltView).show(panels.quilt_picture(s, q))
            self._put(f"#info{q}", panels.info_text(s, q))
        if s.is_solo:
            rows = self.query_one("#quilt0", QuiltView).size.height or panels.QUILT_ROWS
            self._put("#automa", panels.automa_panel(s, rows=rows))
        self._put("#circle", circle_text(state.circle, len(state.offered)))
        self.query_one(CircleStrip).show(state.circle[len(state.offered) :])
        for slot in range(3):
            self.query_one(f"#card{slot}", PatchCard).show(panels.card_picture(s, slot))
        self._put("#advance", panels.advance_line(state))
        self._put("#detail", panels.detail_text(s, preview))
        self._draw_status()
        self._put("#keys", panels.key_bar(self.keys_shown()))

    def keys_shown(self) -> list[panels.Key]:
        """The keys the bar shows now."""
        return panels.keys_now(self.session, self.paused)

    def _draw_status(self) -> None:
        self._put(
            "#status",
            panels.status_text(
                self.session,
                self.thinking is not None,
                self.hinting is not None,
                self.paused,
                self._spin,
            ),
        )

    def _tick(self) -> None:
        if self.thinking is not None or self.hinting is not None:
            self._spin += 1
            self._draw_status()

    # -- turns ------------------------------------------------------------------------------

    def next_turn(self) -> None:
        """Start whatever the position asks for: an agent's move, the end screen, or wait."""
        s = self.session
        self.redraw()
        self.stop_pondering()
        if s.state.is_terminal():
            self._count_finished(s)
            self.show_end()
            return
        seat = s.seat
        if seat is not None and seat.is_human:
            self.ponder()
        if seat is None or seat.agent is None or self.paused or self.thinking is not None:
            return
        self.think(seat.agent)

    def _count_finished(self, s: Session) -> None:
        """A game a person played to its end here counts once (the first games ask before
        advancing: :mod:`.preferences`); a record loaded already over does not."""
        counted = any(game is s.game for game in self._counted)
        if s.mode == "watch" or counted or s.version == self._clean_version:
            return
        self._counted.append(s.game)
        self.host.preferences.game_finished()

    def ponder(self) -> None:
        """While a person thinks, a timed AI opponent thinks too (``MCTSAgent.ponder``): its
        next search starts from the tree grown meanwhile. Levels set in iterations do not,
        so they play as strong as their setting says."""
        self.stop_pondering()
        agent = ponderer(self.session.seats)
        if agent is None or self.hinting is not None:
            return
        state, stop = self.session.state, threading.Event()

        def work() -> None:
            with self._ai_lock:
                if not stop.is_set():
                    agent.ponder(state, stop)

        self._ponder_stop = stop
        self.pondering = self.run_worker(
            work, name="ponder", group="ponder", thread=True, exit_on_error=False
        )

    def stop_pondering(self) -> None:
        if self.pondering is not None:
            self._ponder_stop.set()
            self.pondering = None

    def think(self, agent: Agent) -> None:
        s = self.session
        state, version = s.state, s.version
        least = self.host.options.delay if s.mode == "watch" else 0.0

        def work() -> AiResult:
            worker = get_current_worker()
            start = time.monotonic()
            # One search at a time: a search that was told to stop (undo, load) may still be
            # finishing its last batch on the same agent.
            with self._ai_lock:
                result = agent.search(state) if isinstance(agent, MCTSAgent) else None
                move = result.best_move if result is not None else agent.choose(state)
            while time.monotonic() - start < least and not worker.is_cancelled:
                time.sleep(0.02)
            return version, move, result

        self.thinking_agent = agent
        self.thinking = self.run_worker(
            work, name="ai", group="ai", thread=True, exit_on_error=False
        )
        self._draw_status()

    def stop_thinking(self) -> None:
        """Stop an agent's search, a hint search (their results will be dropped) and
        pondering."""
        self.stop_pondering()
        if self.thinking is not None:
            stop_agent(self.thinking_agent)
            self.thinking.cancel()
            self.thinking = None
        if self.hinting is not None:
            stop_agent(self.hint_agent)
            self.hinting.cancel()
            self.hinting = None

    def shutdown(self) -> None:
        """Before quitting: stop every search so no thread is left running."""
        self.stop_thinking()
        close_agent(self.hint_agent)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker is self.thinking:
            if event.state == WorkerState.SUCCESS:
                self.thinking = None
                version, move, result = worker.result  # type: ignore[misc]
                if version == self.session.version:
                    self._agent_moved(move, result)
            elif event.state in (WorkerState.ERROR, WorkerState.CANCELLED):
                self.thinking = None
                if event.state == WorkerState.ERROR:
                    self.say(fmt(_("The AI failed: {error}"), error=worker.error), colours.BAD)
                self.redraw()
        elif worker is self.hinting:
            if event.state == WorkerState.SUCCESS:
                self.hinting = None
                version, search = worker.result  # type: ignore[misc]
                if version == self.session.version:
                    self._show_hint(search)
                    self.ponder()
            elif event.state in (WorkerState.ERROR, WorkerState.CANCELLED):
                self.hinting = None
                if event.state == WorkerState.ERROR:
                    self.say(fmt(_("No hint: {error}"), error=worker.error), colours.BAD)
            self._draw_status()

    def _agent_moved(self, move: Move, result: SearchResult | None) -> None:
        s = self.session
        p = s.player
        assert p is not None
        line = describe.move_sentence(s.seats, p, move)
        if result is not None:
            line += " " + fmt(_("(expects to win {win:.0%})"), win=result.win_probability)
        s.play(move)
        self.log_line(line, p)
        self.next_turn()

    def _played(self, move: Move, player: int) -> None:
        self.log_line(describe.move_sentence(self.session.seats, player, move), player)
        self.say("")
        self.say_automa()
        self.next_turn()

    def say_automa(self) -> None:
        """Say Automa's turns after the person's move like an opponent's moves: every line
        in the log, and on the notice line all of them, or, when they do not fit its two
        lines, what each turn did (and the 7x7 tile, if Automa took it)."""
        turns = self.session.automa_turns
        if not turns:
            return
        said = [solo.turn_lines(turn) for turn in turns]
        for lines in said:
            for line in lines:
                self.log_line(line, 1)
        notice = " ".join(line for lines in said for line in lines)
        width = max(self.query_one("#notice").content_size.width, 40)
        if cell_len(notice) > 2 * width:
            bonus = _("Automa reached the marker: it takes the 7x7 bonus tile.")
            notice = " ".join(line for lines in said for line in lines if line in (lines[0], bonus))
        self.say(notice, PLAYER_COLOURS[1])

    # -- a person's actions -----------------------------------------------------------------

    def _ready(self) -> bool:
        """Whether a person may act now; says why not otherwise."""
        s = self.session
        if s.state.is_terminal():
            self.say(_("The game is over."), colours.BAD)
            return False
        if not s.human_to_move:
            p = s.player
            assert p is not None
            self.say(
                fmt(_("Wait: it is {name}'s turn."), name=describe.name(s.seats, p)),
                colours.BAD,
            )
            return False
        return True

    def action_pick(self, slot: int) -> None:
        if not self._ready():
            return
        s = self.session
        offered = s.state.offered
        if slot >= len(offered):
            self.say(fmt(_("There is no patch {n} on offer."), n=slot + 1), colours.BAD)
            return
        pid = offered[slot]
        if s.ghost is not None and s.ghost.patch_id == pid:
            s.cancel()
            self.say("")
        else:
            error = s.select(pid)
            if error is not None:
                self.say(error, colours.BAD)
            else:
                self.say(_("Move it with the arrows or the mouse, r turns, f mirrors, Enter sews."))
        self.redraw()

    def on_patch_card_picked(self, message: PatchCard.Picked) -> None:
        self.action_pick(message.slot)

    def on_quilt_view_square_clicked(self, message: QuiltView.SquareClicked) -> None:
        s = self.session
        if s.ghost is None or message.player != s.player or not s.human_to_move:
            return
        if message.button == 3:
            self.action_rotate()
            return
        if (message.row, message.col) == (s.ghost.row, s.ghost.col) or message.chain > 1:
            self.action_place()
            return
        s.put(message.row, message.col)
        self.redraw()

    def action_nudge(self, d_row: int, d_col: int) -> None:
        if self.session.ghost is not None and self.session.human_to_move:
            self.session.nudge(d_row, d_col)
            self.redraw()

    def action_rotate(self) -> None:
        self._reorient(self.session.rotate)

    def action_flip(self) -> None:
        self._reorient(self.session.flip)

    def _reorient(self, change: Callable[[], str | None]) -> None:
        if self.session.ghost is None or not self.session.human_to_move:
            return
        error = change()
        if error is not None:
            self.say(error, colours.BAD)
        self.redraw()

    def action_cycle(self, step: int) -> None:
        if self.session.ghost is not None and self.session.human_to_move:
            self.session.cycle(step)
            self.redraw()

    def action_cancel(self) -> None:
        self.session.cancel()
        self.redraw()

    def action_place(self) -> None:
        if not self._ready():
            return
        s = self.session
        if s.ghost is None:
            self.say(_("Pick a patch first (1-3), or advance (a)."), colours.BAD)
            return
        p = s.player
        assert p is not None
        try:
            move = s.commit()
        except Refused as e:
            self.refused(e)
            return
        except IllegalMoveError as e:
            self.say(fmt(_("It does not fit there: {reason}"), reason=error_text(e)), colours.BAD)
            self.app.bell()
            self.redraw()
            return
        self._played(move, p)

    def asks_before_advancing(self) -> bool:
        """Whether advancing asks first (a person's first games, unless they chose)."""
        return self.host.preferences.asks_before_advancing

    def action_advance(self) -> None:
        if not self._ready():
            return
        s = self.session
        try:
            s.state.check_legal(ADVANCE)
        except IllegalMoveError as e:
            self.say(error_text(e), colours.BAD)
            return
        version, p = s.version, s.player
        assert p is not None

        if not self.asks_before_advancing():
            self._advance(p)
            return

        def answer(yes: bool | None) -> None:
            if not (yes and s is self.session and version == s.version):
                return
            if self._advance(p) and not self.host.preferences.asks_before_advancing:
                self.say(no_longer_asks())

        def stop_asking() -> None:
            if self.host.preferences.asks_before_advancing:
                self.host.preferences.toggle_confirm_advance()

        self.app.push_screen(AdvanceScreen(describe.advance_text(s.state), stop_asking), answer)

    def _advance(self, player: int) -> bool:
        """Advance for ``player``; whether the session played it."""
        try:
            self.session.play(ADVANCE)
        except Refused as e:
            self.refused(e)
            return False
        self._played(ADVANCE, player)
        return True

    def refused(self, error: Refused) -> None:
        """A legal move the session would not play: why, and the patch still in hand."""
        self.say(error_text(error), colours.HINT)
        self.redraw()

    def action_confirm_setting(self) -> None:
        """``c``: advancing asks first, or no longer does (kept for the next games)."""
        if self.host.preferences.toggle_confirm_advance():
            self.say(_("Advancing asks first now (c: stop asking)."), colours.GOOD)
        else:
            self.say(no_longer_asks())

    def action_undo(self) -> None:
        s = self.session
        if not s.can_undo():
            self.say(_("Nothing to take back."), colours.BAD)
            return
        self.stop_thinking()
        taken = s.undo()
        self.log_line(fmt(_("Took back: {moves}"), moves=" ".join(str(m) for m in taken)))
        if s.is_solo:
            message = ngettext(
                "Took back {n} move and Automa's turns after it.",
                "Took back {n} moves and Automa's turns after them.",
                len(taken),
            )
        else:
            message = ngettext("Took back {n} move.", "Took back {n} moves.", len(taken))
        self.say(fmt(message, n=len(taken)))
        self.next_turn()

    def action_hint(self) -> None:
        if not self._ready() or self.hinting is not None:
            return
        s = self.session
        state, version = s.state, s.version
        options = self.host.options
        close_agent(self.hint_agent)
        self.stop_pondering()  # the hint has the processor to itself
        agent = MCTSAgent(
            limit=Limit(time=options.hint_time), reuse=False, seed=options.seed, name="hint"
        )
        self.hint_agent = agent

        def work() -> tuple[int, SearchResult]:
            return version, agent.search(state)

        self.hinting = self.run_worker(
            work, name="hint", group="hint", thread=True, exit_on_error=False
        )
        self.say("")  # the status line says it is looking (once), with its spinner
        self._draw_status()

    def _show_hint(self, result: SearchResult) -> None:
        s = self.session
        self.say(describe.hint_text(result), colours.HINT)
        ghost = Ghost.of(result.best_move)
        if ghost is not None and s.human_to_move:
            s.ghost = ghost
        self.redraw()

    def action_pause(self) -> None:
        if self.session.mode != "watch":
            return
        self.paused = not self.paused
        if not self.paused:
            self.next_turn()
        self.redraw()

    def action_quit(self) -> None:
        """Quit at once when nothing would be lost (the game is over, or nothing happened
        since it started, was loaded or saved); otherwise ask, offering to save first."""
        s = self.session
        if s.state.is_terminal() or s.version == self._clean_version:
            self.host.quit_game()
            return
        save_path = self.host.options.save_path

        def chosen(what: str | None) -> None:
            if what == "discard":
                self.host.quit_game(save=False)
            elif what == "save" and save_path:
                self.host.quit_game()  # the command saves to --save on leaving
            elif what == "save":
                self.action_save(then_quit=True)

        self.app.push_screen(QuitScreen(save_path), chosen)

    def action_help(self) -> None:
        asks = self.host.preferences.asks_before_advancing
        self.app.push_screen(HelpScreen(self.session.is_solo, asks))

    def action_howto(self) -> None:
        self.app.push_screen(HowToScreen())

    def action_language(self) -> None:
        def chosen(code: str | None) -> None:
            if code:
                self.use_language(code)

        self.app.push_screen(LanguageScreen(), chosen)

    def use_language(self, code: str) -> None:
        """Show everything in another language from now on (the log keeps its old lines)."""
        i18n.set_language(code)
        self.set_class(i18n.is_right_to_left(), "-rtl")
        self._shown.clear()
        for widget in self.query(QuiltView):
            widget.picture = QuiltPicture("", widget.picture.player)
        for card in self.query(PatchCard):
            card.refresh()
        self.query_one(TimeBoard).refresh()
        self.query_one(CircleStrip).refresh()
        self.say(fmt(_("Language: {name}"), name=i18n.language_name(code)), colours.GOOD)
        self.redraw()

    # -- files and games --------------------------------------------------------------------

    def action_save(self, then_quit: bool = False) -> None:
        default = self._last_path or self.host.options.save_path or "patchwork-game.json"
        version = self.session.version

        def save(path: str) -> str | None:
            try:
                self.session.save(path)
            except (OSError, PatchworkError) as e:
                return fmt(_("Cannot save {path}: {error}"), path=path, error=error_text(e))
            return None

        def done(path: str | None) -> None:
            if path:
                self._last_path = path
                self._clean_version = version
                self.say(fmt(_("Saved the game record to {path}."), path=path), colours.GOOD)
                if then_quit:
                    self.host.quit_game(save=False)  # just saved where the person said

        self.app.push_screen(PathScreen(_("Save the game record as"), default, save), done)

    def action_load(self) -> None:
        default = self._last_path or "patchwork-game.json"

        def load(path: str) -> str | None:
            try:
                self._loaded = Session.load_record(path)
            except (OSError, PatchworkError) as e:
                return fmt(_("Cannot load {path}: {error}"), path=path, error=error_text(e))
            return None

        def done(path: str | None) -> None:
            record, self._loaded = self._loaded, None
            if not path or record is None:
                return
            self._last_path = path
            self.stop_thinking()
            game = Game.from_record(record)
            current = (self.session.seats[0].kind, self.session.seats[1].kind)
            kinds = kinds_for(game.start.rules, record.seats, current)
            if kinds != current:
                # The game goes on with the players it was saved with, as --load does.
                try:
                    self.host.resume(game, kinds, record.players)
                except PatchworkError as e:
                    self.session.replace(game)
                    self.log_line(error_text(e))
            else:
                self.session.replace(game)
            self._clean_version = self.session.version
            self.log_line(fmt(_("Loaded {path}."), path=path))
            self.say(
                fmt(
                    ngettext(
                        "Loaded {path}: {n} move played.",
                        "Loaded {path}: {n} moves played.",
                        len(game),
                    ),
                    path=path,
                    n=len(game),
                ),
                colours.GOOD,
            )
            self.next_turn()

        self.app.push_screen(PathScreen(_("Load a game record"), default, load), done)

    def action_new_game(self) -> None:
        # A solo game is offered again with the same level and deck (the one played, else
        # the one the app was started with).
        automa = self.session.state.rules.solo or self.host.options.rules.solo

        def chosen(kinds: tuple[str, str] | None) -> None:
            if kinds is not None:
                self.stop_thinking()
                self.host.new_game(kinds, automa)

        self.app.push_screen(NewGameScreen(self.host.options.human_seat, automa), chosen)

    def use(self, session: Session) -> None:
        """Play another game on this screen."""
        self.stop_thinking()
        self.session = session
        self._clean_version = session.version
        self.paused = False
        self.query_one("#log", RichLog).clear()
        self.say("")
        self.next_turn()

    def action_review(self) -> None:
        """The searcher's review of the game so far, once it is over (no help during play)."""
        s = self.session
        if not s.state.is_terminal():
            self.say(_("The review opens once the game is over (R)."))
            return
        names = (describe.name(s.seats, 0), describe.name(s.seats, 1))
        options = self.host.options
        self.app.push_screen(
            ReviewScreen(
                s.game, names, options.review_limit, options.review_workers, options.seed or 0
            )
        )

    def action_show_end(self) -> None:
        if self.session.state.is_terminal():
            self.show_end()

    def show_end(self) -> None:
        s = self.session
        title = describe.game_over_title(s.seats, s.state.winner())
        self.app.push_screen(EndScreen(title, self.end_lines(), s.can_undo()), self.end_chosen)

    def end_lines(self) -> list[str]:
        """The end dialog's text: the final count, each score broken down."""
        s = self.session
        if s.is_solo:
            return solo.score_lines(s.state, s.seats)
        return describe.score_lines(s.state, s.seats)

    def end_chosen(self, what: str | None) -> None:
        """What the end dialog was left with."""
        if what == "new":
            self.action_new_game()
        elif what == "undo":
            self.action_undo()
        elif what == "save":
            self.action_save()
        elif what == "review":
            self.action_review()
        elif what == "quit":
            self.host.quit_game()

    def on_unmount(self) -> None:
        self.shutdown()
