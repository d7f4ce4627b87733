"""The review in the terminal app: R after a game judges every move and shows the chart,
each player's accuracy and the moves; during a game R only says when it opens."""

from __future__ import annotations

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
        assert "Win probability of level 1" in shown
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
