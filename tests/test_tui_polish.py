"""What a player found (issue 35), checked the way a person meets it: the keys, on the
screen the app draws. A large terminal's room used; the help laid out in columns that never
break a phrase; advancing asks first only while a person is learning (``c`` chooses, and the
choice is kept); the AI named "AI level N" everywhere; no score shown before it means
anything. The review's own checks are in test_tui_review.py and test_review.py."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot

import patchwork as pw
from patchwork import i18n
from patchwork.tui import text
from patchwork.tui.app import PatchworkApp
from patchwork.tui.game_screen import GameScreen
from patchwork.tui.offer import CircleStrip
from patchwork.tui.preferences import LEARNING_GAMES, Preferences
from patchwork.tui.quilt import CELL, HEADER_ROWS, LABEL_WIDTH, QuiltView
from patchwork.tui.screens import AdvanceScreen, HelpScreen, help_keys, help_lines, help_signs
from patchwork.tui.timeboard import TimeBoard
from test_tui_app import (
    buy_with_keys,
    keep_screenshot,
    make_app,
    play,
    screen_text,
    settle,
)
from test_tui_solo import solo_app

LARGE = (120, 40)


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def first_buy(session_state: pw.State) -> pw.Buy:
    return next(m for m in session_state.legal_moves() if isinstance(m, pw.Buy))


# -- a large terminal ---------------------------------------------------------------------


def test_a_large_terminal_draws_larger_quilts_and_the_circle_s_patches() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        screen = app.game_screen
        state = app.session.state
        quilt = screen.query_one("#quilt0", QuiltView)
        assert quilt.scale == 2 and tuple(quilt.size) == (38, 20)
        shown = screen_text(app)
        rows = shown.splitlines()
        assert len(rows) == LARGE[1] and all(len(row) <= LARGE[0] for row in rows)
        # The lower half is in use, not left empty: boards, figures, the circle drawn.
        lower = rows[LARGE[1] // 2 : LARGE[1] - 8]
        assert sum(bool(row.strip()) for row in lower) >= len(lower) - 3, shown
        # The patches after the offer, drawn: each one's id, shape and cost/time/income.
        assert "Then, clockwise (cost/time/income):" in shown
        strip = screen.query_one(CircleStrip)
        assert strip.display and strip.rest == state.circle[3:]
        for pid in state.circle[3:10]:
            patch = pw.PATCHES[pid]
            assert f"#{pid}" in shown and f"{patch.buttons}/{patch.time}/{patch.income}" in shown
        assert any(ch in shown for ch in "▀▄")  # half blocks: a square is one by half a line
        keep_screenshot(app, "polish-large")
        # The mouse finds the squares of the larger board: pick up a patch, click c5.
        move = first_buy(state)
        await pilot.press(str(state.offered.index(move.patch_id) + 1))
        ghost = app.session.ghost
        assert ghost is not None
        row, col = 4, 2
        await pilot.click(
            "#quilt0", offset=(LABEL_WIDTH + 2 * CELL * col + 1, HEADER_ROWS + 2 * row + 1)
        )
        ghost = app.session.ghost
        assert ghost is not None and (ghost.row, ghost.col) == (row, col)

    play(make_app(seed=5), script, size=LARGE)


def test_80x24_keeps_the_compact_layout() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        screen = app.game_screen
        quilt = screen.query_one("#quilt0", QuiltView)
        assert quilt.scale == 1 and tuple(quilt.size) == (20, 11)
        assert not screen.query_one(CircleStrip).display
        assert "Then, clockwise" not in screen_text(app)

    play(make_app(seed=5), script)


def test_a_taller_terminal_shows_the_circle_s_patches_under_small_quilts() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        screen = app.game_screen
        assert screen.query_one("#quilt0", QuiltView).scale == 1
        assert screen.query_one(CircleStrip).display
        shown = screen_text(app)
        assert "Then, clockwise (cost/time/income):" in shown
        assert all(len(row) <= 100 for row in shown.splitlines())

    play(make_app(seed=5), script, size=(100, 30))


# -- the help -----------------------------------------------------------------------------


@pytest.mark.parametrize("solo", [False, True])
def test_the_help_never_breaks_a_phrase_at_80_columns(solo: bool) -> None:
    """Each key with what it does (each sign with what it means) on one line of the screen,
    whole; the dialog's title and keys line show too, at 80x24."""

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        shown = screen_text(app)
        rows = shown.splitlines()
        assert len(rows) == 24 and all(len(row) <= 80 for row in rows)
        for line in help_lines(solo)[:-1]:  # the last: the mouse, a paragraph
            assert any(line in row for row in rows), (line, shown)
        assert "Keys and mouse" in rows[0] or "Keys and mouse" in shown
        assert "Esc: back to the game" in shown
        assert ("◆" in shown) == solo
        keep_screenshot(app, f"polish-help{'-solo' if solo else ''}")
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)

    play(solo_app("--solo", "2", "--seed", "3") if solo else make_app(seed=3), script)


def test_the_help_lists_every_key_of_the_game_screen() -> None:
    keys = {key for side in help_keys() for key, _what, _style in side}
    bound = {b.key for b in GameScreen.BINDINGS}  # type: ignore[union-attr]
    named = {"1": "1 2 3", "2": "1 2 3", "3": "1 2 3", "n": "n p", "p": "n p"}
    named |= {"up": "arrows", "down": "arrows", "left": "arrows", "right": "arrows"}
    named |= {"enter": "Enter", "escape": "Esc", "space": "space", "question_mark": "?"}
    for key in bound - {"question_mark"}:
        assert named.get(key, key) in keys, key
    signs = {sign for side in help_signs(solo=True) for sign, _what, _style in side}
    assert {"[]", "XX", "+", "▒▒", "▼ ▲", "●", "■", "◆"} <= signs


# -- advancing asks first, while a person is learning -------------------------------------


def prefs_file(tmp_path: Path, **data: object) -> Path:
    path = tmp_path / "patchwork" / "tui.json"
    if data:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data), "utf-8")
    return path


def test_advancing_asks_first_and_c_stops_it_for_the_next_games(tmp_path: Path) -> None:
    path = prefs_file(tmp_path)

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await pilot.press("question_mark")
        assert "c  ask before advancing: on" in screen_text(app)
        await pilot.press("escape", "a")
        assert isinstance(app.screen, AdvanceScreen)
        assert "c: yes, and stop asking" in screen_text(app)
        keep_screenshot(app, "polish-advance")
        await pilot.press("c")  # advances, and asks no more
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        assert app.session.game.moves[0] == pw.Advance()
        assert "Advancing no longer asks first (c: ask again)" in screen_text(app)
        assert json.loads(path.read_text("utf-8"))["confirm_advance"] is False
        await pilot.press("a")  # the next advance: at once
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        assert app.session.game.moves[2] == pw.Advance()
        await pilot.press("question_mark")
        assert "c  ask before advancing: off" in screen_text(app)
        await pilot.press("escape")

    play(make_app(seed=3, preferences_path=path), script)

    async def next_run(pilot: Pilot[None], app: PatchworkApp) -> None:
        await pilot.press("a")
        await settle(pilot, app)
        assert not isinstance(app.screen, AdvanceScreen)  # remembered from the last run
        assert app.session.game.moves[0] == pw.Advance()
        await pilot.press("c")  # asks again from now on
        assert "Advancing asks first now" in screen_text(app)
        await pilot.press("a")
        assert isinstance(app.screen, AdvanceScreen)
        await pilot.press("escape")

    play(make_app(seed=3, preferences_path=path), next_run)
    assert json.loads(path.read_text("utf-8"))["confirm_advance"] is True


def test_after_a_person_s_first_games_advancing_no_longer_asks(tmp_path: Path) -> None:
    path = prefs_file(tmp_path, games_finished=LEARNING_GAMES)

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await pilot.press("a")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        assert app.session.game.moves[0] == pw.Advance()
        await pilot.press("u")  # undo is there for a slip
        await settle(pilot, app)
        assert len(app.session.game) == 0

    play(make_app(seed=3, preferences_path=path), script)


def test_a_game_played_to_its_end_counts_toward_the_first_games(tmp_path: Path) -> None:
    path = prefs_file(tmp_path, games_finished=LEARNING_GAMES - 1)
    # Both tokens near the end: a few advances finish the game.
    quilt = "9/9/9/9/9/9/9/9/9"
    state = pw.State.from_text(f"revised:rf 1,2,3,0 50,20,0,{quilt} 51,20,0,{quilt} 0 - - - -")

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        for _ in range(10):
            if app.session.state.is_terminal():
                break
            if app.session.human_to_move:
                await pilot.press("a")
                if isinstance(app.screen, AdvanceScreen):
                    await pilot.press("enter")
            await settle(pilot, app)
        assert app.session.state.is_terminal()
        assert Preferences.load(path).games_finished == LEARNING_GAMES
        assert not app.preferences.asks_before_advancing
        await pilot.press("escape", "e", "escape")  # the end shown again: counted once
        assert Preferences.load(path).games_finished == LEARNING_GAMES

    play(make_app(state=state, preferences_path=path), script)


def test_unreadable_preferences_are_the_defaults(tmp_path: Path) -> None:
    path = prefs_file(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text("{not json", "utf-8")
    assert Preferences.load(path).asks_before_advancing
    path.write_text('{"confirm_advance": "yes", "games_finished": -2}', "utf-8")
    prefs = Preferences.load(path)
    assert prefs.confirm_advance is None and prefs.games_finished == 0


# -- words ---------------------------------------------------------------------------------


def test_the_ai_is_ai_level_n_everywhere_and_twins_are_told_apart() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await pilot.press("space")  # pause, to read the screen
        await settle(pilot, app)
        shown = screen_text(app)
        board = app.game_screen.query_one(TimeBoard).render().plain.splitlines()
        assert board[0].startswith("AI level 1 (1) ") and board[2].startswith("AI level 1 (2) ")
        assert "AI level 1 (1)" in shown.splitlines()[4] and "AI level 1 (2)" in shown
        assert "Level 1" not in shown and "level1" not in shown

    play(make_app(("level1", "level1"), seed=2, delay=0.0), script)


def test_no_score_is_shown_before_a_patch_is_sewn_on() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        state = app.session.state
        shown = screen_text(app)
        assert shown.count("score now –") == 2  # not -157: only the empty quilt's penalty
        assert str(state.scores()[0]) not in shown
        await buy_with_keys(pilot, app, first_buy(state))
        await settle(pilot, app)
        score = app.session.state.scores()[0]
        shown = screen_text(app)
        assert f"score now {score}" in shown and shown.count("score now –") == 1

    play(make_app(("human", "human"), seed=3), script)


def test_the_plain_game_shows_no_score_before_a_patch_either() -> None:
    seats = text.make_seats(["human", "level1"], 1)
    shown = text.render_state(pw.new_game(seed=1), seats)
    assert shown.count("score now –") == 2 and "-157" not in shown
