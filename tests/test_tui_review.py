"""The review in the terminal app: R after a game judges every move and shows the chart,
each player's accuracy and the moves; during a game R only says when it opens."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from textual.pilot import Pilot

import patchwork as pw
from patchwork import i18n
from patchwork.ai import GreedyAgent, Limit
from patchwork.tui.app import PatchworkApp
from patchwork.tui.review import ReviewScreen
from patchwork.tui.screens import EndScreen
from test_tui_app import keep_screenshot, make_app, play, screen_text, settle

TALL = (100, 48)  # room for the chart, the summary and a short game's moves


@pytest.fixture(autouse=True)
def english() -> None:
    i18n.set_language("en")


def late_position(seed: int = 5, left: int = 8) -> pw.State:
    """A position a few moves from the end (greedy play from a fresh setup)."""
    state = pw.new_game(seed=seed)
    agent = GreedyAgent(seed=seed)
    while sum(53 - p.position for p in state.players) > left:
        state = state.apply(agent.choose(state))
    return state


def test_review_after_a_game_shows_chart_accuracy_and_moves() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        for _ in range(300):
            await settle(pilot, app)
            if isinstance(app.screen, EndScreen):
                break
        assert isinstance(app.screen, EndScreen)
        assert "R Review" in screen_text(app)
        await pilot.press("R")
        assert isinstance(app.screen, ReviewScreen)
        screen = app.screen
        for _ in range(600):
            await pilot.pause(0.05)
            if screen.result is not None:
                break
        assert screen.result is not None
        assert len(screen.result.plies) == len(app.session.game)
        await pilot.pause()
        shown = screen_text(app)
        assert "Game review" in shown
        assert "Win probability of AI level 1" in shown
        assert "accuracy" in shown
        keep_screenshot(app, "tui-review")
        assert str(screen.result.plies[0].move) in shown
        await pilot.press("escape")
        assert not isinstance(app.screen, ReviewScreen)

    app = make_app(
        ("level1", "level2"),
        state=late_position(),
        delay=0.0,
        review_limit=Limit(iterations=300),
        review_workers=1,
    )
    play(app, script, size=TALL)


def test_review_waits_for_the_end_of_the_game() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await pilot.press("R")
        await pilot.pause()
        assert not isinstance(app.screen, ReviewScreen)
        assert "The review opens once the game is over" in screen_text(app)

    play(make_app(("human", "level1")), script)


# -- the review in the real app, in a real terminal -------------------------------------------

ANSI = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|.)")


class Terminal:
    """``patchwork ARGS`` in a pseudo-terminal of ``size``, as a person starts it: what it
    writes is read (its control sequences dropped), keys are typed into it."""

    def __init__(self, args: list[str], size: tuple[int, int], env: dict[str, str]) -> None:
        master, slave = pty.openpty()
        columns, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.master = master
        self.process = subprocess.Popen(
            [sys.executable, "-m", "patchwork", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.raw = b""

    @property
    def text(self) -> str:
        return ANSI.sub("", self.raw.decode("utf-8", "replace"))

    def read(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            ready, _w, _x = select.select([self.master], [], [], min(left, 0.2))
            if ready:
                try:
                    self.raw += os.read(self.master, 65536)
                except OSError:  # the program has gone
                    return

    def wait_for(self, *texts: str, seconds: float = 60) -> str:
        """Read until one of ``texts`` has been written; the first that was."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            found = [t for t in texts if t in self.text]
            if found:
                return found[0]
            self.read(0.3)
        raise AssertionError(f"none of {texts} on screen; it shows:\n{self.text[-3000:]}")

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> int:
        self.type("\x11")  # ctrl+q
        try:
            code = self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        os.close(self.master)
        return code


def test_r_at_the_end_reviews_in_worker_processes_in_a_real_terminal(tmp_path: Path) -> None:
    """``patchwork play --load`` of a finished game in a terminal, then R, as a person does it:
    the app spawns the review's worker processes while Textual has replaced stdin, stdout
    and stderr (issue 35: every review failed with "bad value(s) in fds_to_keep" at 0%)."""
    state = late_position(left=6)
    game = pw.Game(state)
    agent = GreedyAgent(seed=2)
    while not game.state.is_terminal():
        game.push(agent.choose(game.state))
    record = tmp_path / "ended.json"
    pw.Record.from_game(
        game, players=("level1 1", "level1 2"), seats=("level1", "level1"), language="en"
    ).save(record)
    env = {**os.environ, "TERM": "xterm-256color", "XDG_CONFIG_HOME": str(tmp_path)}
    env.pop("NUMBA_DISABLE_JIT", None)
    terminal = Terminal(["play", "--load", str(record)], (100, 30), env)
    try:
        terminal.wait_for("Game over")
        terminal.type("R")
        terminal.wait_for("Game review")
        seen = terminal.wait_for("worst moves", "The review failed", seconds=240)
        assert seen == "worst moves", terminal.text[-2000:]
        assert "accuracy" in terminal.text
    finally:
        code = terminal.close()
    assert code == 0
