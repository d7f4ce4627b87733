"""The guided first game in the terminal (``patchwork learn``), played the way a person plays
it: every lesson met with the keys (1-3 to pick, r/f to turn, the arrows, Enter to sew on, a
to advance) on an 80x24 screen, a move that does not meet its step refused with the step's
hint, the place kept across runs (a tmp_path file), a damaged file, and the final count
followed by the first review. Which move meets a step is asked of the course
(``tutorial.course.meets``); the app is only driven through its keys."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from rich.cells import cell_len
from textual.pilot import Pilot
from textual.widgets import Static

import patchwork as pw
from patchwork import cli, i18n
from patchwork.ai import Limit
from patchwork.tui import learn
from patchwork.tui.app import PatchworkApp
from patchwork.tui.game_screen import GameScreen
from patchwork.tui.options import AppOptions
from patchwork.tui.review import ReviewScreen
from patchwork.tui.screens import EndScreen, HelpScreen, NewGameScreen, PathScreen
from patchwork.tui.tutorial import TutorialSession, open_course
from patchwork.tui.tutorial_screen import LessonScreen, TutorialScreen, heading, panel_text
from patchwork.tutorial import LESSONS, Progress, begin, replay
from patchwork.tutorial.course import OPPONENT_LEVEL, meets
from patchwork.tutorial.lessons import BACK, COUNTING, JUMPED, WAITING
from test_i18n import catalog
from test_tui_app import (
    click_square,
    human_move,
    key_path,
    log_text,
    make_app,
    screen_text,
)

SIZE = (80, 24)
Script = Callable[[Pilot[None], PatchworkApp], Awaitable[None]]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def learn_app(path: Path | None, restart: bool = False) -> PatchworkApp:
    """The app as ``patchwork learn --progress PATH`` opens it (a short review at the end)."""
    session = open_course(path, restart)
    options = AppOptions(lessons_path=path, review_limit=Limit(iterations=20), review_workers=1)
    return PatchworkApp(session, options)


def run(app: PatchworkApp, script: Script, size: tuple[int, int] = SIZE) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot, app)

    asyncio.run(main())


def session_of(app: PatchworkApp) -> TutorialSession:
    session = app.game_screen.session
    assert isinstance(session, TutorialSession)
    return session


def keys_for(session: TutorialSession, move: pw.Move) -> int:
    """How many keys a person presses to make ``move`` (see test_tui_app.human_move)."""
    ghost = session.ghost
    if isinstance(move, pw.Advance):
        return 2  # a, and Enter to the question
    if isinstance(move, pw.PlaceSpecial):
        assert ghost is not None
        return abs(move.row - ghost.row) + abs(move.col - ghost.col) + 1
    assert isinstance(move, pw.Buy)
    try:
        session.select(move.patch_id)
        return 2 + len(key_path(session, move))
    finally:
        session.ghost = ghost


def learner_move(session: TutorialSession, meeting: bool = True, buy: bool = False) -> pw.Move:
    """The move fewest keys away that meets the step (any move while the lesson waits), or
    with ``meeting`` False one that does not (a purchase, with ``buy``)."""
    progress, state = session.progress, session.state
    moves = [
        m
        for m in state.legal_moves()
        if (progress.free or meets(progress.task, state, m) == meeting)
        and (isinstance(m, pw.Buy) or not buy)
    ]
    return min(moves, key=lambda m: keys_for(session, m))


async def close_lesson(pilot: Pilot[None], app: PatchworkApp) -> Progress:
    """The lesson's dialog, read and closed: it says the lesson the session is at."""
    assert isinstance(app.screen, LessonScreen)
    progress = session_of(app).progress
    shown = screen_text(app)
    assert heading(progress) in shown and _short(progress.task.task) in shown
    assert (_short(WAITING) in shown) == progress.free
    await pilot.press("enter")
    assert isinstance(app.screen, TutorialScreen)
    return progress


def _short(text: str) -> str:
    """The start of a text as shown, on its first line wherever the screen breaks it."""
    return " ".join(i18n._(text).split()[:4])[:24]


async def learn_until(pilot: Pilot[None], app: PatchworkApp, stop: int) -> list[str]:
    """Meet step after step with the keys until lesson ``stop`` (len(LESSONS): the game's
    end); the lessons whose dialogs opened on the way, in order."""
    opened = []
    while session_of(app).progress.lesson < stop:
        await pilot.pause()
        if isinstance(app.screen, LessonScreen):
            opened.append((await close_lesson(pilot, app)).current.id)
        s = session_of(app)
        if s.progress.lesson >= stop:
            break
        was, played = s.progress, len(s.game)
        await human_move(pilot, app, learner_move(s))
        await pilot.pause()
        now = s.progress
        assert len(s.game) > played or s.switched, "a move that meets the step is played"
        if not was.free and (now.lesson, now.step) != (was.lesson, was.step):
            assert _short(was.task.done) in screen_text(app)  # what the move did, said
        elif now.free and not isinstance(app.screen, LessonScreen):
            assert _short(WAITING) in screen_text(app)
    return opened


async def refused(pilot: Pilot[None], app: PatchworkApp, buy: bool = False) -> None:
    """A legal move that does not meet the step (a purchase, with ``buy``): its hint, and
    nothing played; a patch stays in hand, to be turned or moved and tried again."""
    s = session_of(app)
    progress, played = s.progress, len(s.game)
    assert not progress.free
    await human_move(pilot, app, learner_move(s, meeting=False, buy=buy))
    assert s.progress == progress and len(s.game) == played
    assert _short(progress.task.hint) in screen_text(app)
    assert (s.ghost is not None) == buy
    await pilot.press("escape")  # put it down


# -- the whole course, by keys ------------------------------------------------------------


def test_every_lesson_by_keys_across_two_runs_then_the_count_and_the_review(
    tmp_path: Path,
) -> None:
    path = tmp_path / "lessons.json"
    order = [lesson.id for lesson in LESSONS]
    seen: list[str] = []
    time_lesson = order.index("time")

    async def first_run(pilot: Pilot[None], app: PatchworkApp) -> None:
        seen.extend([(await close_lesson(pilot, app)).current.id])
        shown = screen_text(app)
        assert "Lesson 1 of 9 · Buying a patch" in shown and "Lesson" in shown.splitlines()[-1]
        await refused(pilot, app)  # an advance: the first lesson asks to buy
        seen.extend(await learn_until(pilot, app, order.index("place")))
        seen.append((await close_lesson(pilot, app)).current.id)
        await refused(pilot, app, buy=True)  # a patch touching no edge and no other patch
        seen.extend(await learn_until(pilot, app, time_lesson))
        assert isinstance(app.screen, LessonScreen)  # the next lesson opens...
        await pilot.press("enter", "q")  # ...and the learner leaves there
        assert not app.is_running

    run(learn_app(path), first_run)
    kept = Progress.from_dict(json.loads(path.read_text("utf-8")))
    assert kept.lesson == time_lesson and kept.moves

    async def second_run(pilot: Pilot[None], app: PatchworkApp) -> None:
        s = session_of(app)
        assert s.progress == kept and s.game.moves == replay(kept.moves).moves
        seen.extend(await learn_until(pilot, app, len(LESSONS)))
        assert s.state.is_terminal()
        # The 7x7 bonus was shown on the prepared game, and the count is of the learner's own.
        logged = " ".join(log_text(app).split())
        assert _short(JUMPED) in logged and _short(BACK) in logged
        assert s.game.moves == replay(s.progress.moves).moves
        # The final count: the end dialog, with the words of the count and each score.
        assert isinstance(app.screen, EndScreen)
        shown = screen_text(app)
        assert (
            _short(COUNTING) in shown
            and "You: " in shown
            and f"AI level {OPPONENT_LEVEL}: " in shown
        )
        assert "your first game review" in shown
        await pilot.press("enter")  # on to the review, opened for the learner
        assert isinstance(app.screen, ReviewScreen)
        review = app.screen
        for _ in range(1200):  # seconds with the JIT, a minute at most without it
            await pilot.pause(0.05)
            if review.result is not None:
                break
        assert review.result is not None and len(review.result.plies) == len(s.game)
        await pilot.pause()
        assert "Game review" in screen_text(app) and "accuracy" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, TutorialScreen)
        assert "Lesson 9 of 9 · The final count" in screen_text(app)
        await pilot.press("e")  # the count again, and this time Esc is the board
        assert isinstance(app.screen, EndScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, TutorialScreen)

    run(learn_app(path), second_run)
    assert [x for i, x in enumerate(seen) if i == 0 or seen[i - 1] != x] == order
    assert Progress.from_dict(json.loads(path.read_text("utf-8"))).finished


# -- keeping the place ----------------------------------------------------------------------


def test_a_damaged_file_is_said_in_one_line_and_the_lessons_start_over(tmp_path: Path) -> None:
    path = tmp_path / "lessons.json"
    path.write_text('{"lesson": 3, "moves": ["A", "Z9"]}', "utf-8")

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await close_lesson(pilot, app)
        said = app.game_screen.notice.plain  # one line on the notice...
        assert "could not be read" in said and said in screen_text(app)
        logged = log_text(app)  # ...and in the log, the file and why
        assert "cannot read move 'Z9'" in " ".join(logged.split())
        assert str(path) in "".join(logged.split())
        assert session_of(app).progress == begin()

    run(learn_app(path), script)
    assert Progress.from_dict(json.loads(path.read_text("utf-8"))) == begin()
    for damaged in ("{not json", "[]", '{"lesson": 0, "moves": ["2r180@d5"]}'):
        path.write_text(damaged, "utf-8")
        session = open_course(path)
        assert session.progress == begin() and session.trouble
        assert "\n" not in session.trouble[0] and "could not be read" in session.trouble[0]


def test_keys_that_have_no_place_in_the_lessons_leave_them_as_they_are(tmp_path: Path) -> None:
    path = tmp_path / "lessons.json"

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await close_lesson(pilot, app)
        s = session_of(app)
        await pilot.click("#card0")  # lesson 1 met with the mouse: pick, put, put again
        await click_square(pilot, 0, 4, 4)
        assert s.ghost is not None
        await click_square(pilot, 0, s.ghost.row, s.ghost.col)
        assert s.progress.lesson == 1 and len(s.game) > 1
        await close_lesson(pilot, app)
        progress = s.progress
        await pilot.press("u")
        assert "Nothing to take back." in screen_text(app) and s.progress == progress
        await pilot.press("l")
        assert "load a record in a new game" in screen_text(app)
        assert isinstance(app.screen, TutorialScreen) and s.progress == progress
        await pilot.press("h")  # the lesson again
        assert isinstance(app.screen, LessonScreen) and app.screen.progress == progress
        await pilot.press("h", "question_mark")
        assert isinstance(app.screen, HelpScreen)
        shown = screen_text(app)
        assert "the lesson again" in shown and "take back" not in shown
        await pilot.press("escape", "s")  # a record of the game may be saved
        assert isinstance(app.screen, PathScreen)
        await pilot.press("escape", "N")
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("escape", "ctrl+q")
        assert not app.is_running

    run(learn_app(path), script)
    assert Progress.from_dict(json.loads(path.read_text("utf-8"))).lesson == 1


def test_the_play_app_offers_the_lessons_and_a_game_of_ones_own_after_them() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await pilot.press("N", "end", "enter")  # the last choice: "Learn to play"
        await pilot.pause()
        assert isinstance(app.game_screen, TutorialScreen) and app.screen.is_modal
        await close_lesson(pilot, app)
        assert "Lesson 1 of 9" in screen_text(app)
        await pilot.press("N", "home", "enter")  # "You against AI level 1: ..."
        await pilot.pause()
        assert type(app.screen) is GameScreen and app.screen is app.game_screen
        assert "Lesson" not in screen_text(app) and not isinstance(app.session, TutorialSession)

    run(make_app(seed=2), script)


# -- the lesson under the table, in every size and language ---------------------------------

CHINESE = {
    "Lesson {n} of {count}": "第{n}课，共{count}课",
    "Buying a patch": "购买布块",
    LESSONS[0].text: (
        "你和对手各自在九乘九的棋盘上缝制被子。布块围成一圈，你可以购买中立标记后面的三块之一。"
        "布块的价格是上面印的纽扣数，沙漏表示你的时间标记在时间板上前进多远。"
    ),
    LESSONS[0].steps[0].task: "购买中立标记前面三块布块中的一块，然后把它缝在你的被子上。",
}


@pytest.mark.parametrize(("width", "rows"), [(78, 2), (78, 7), (118, 7), (40, 3)])
def test_the_lesson_panel_fits_its_room_and_breaks_chinese_as_chinese_breaks(
    tmp_path: Path, width: int, rows: int
) -> None:
    for lang in ("en", "zh"):
        i18n.set_language(lang, localedir=catalog(tmp_path, "zh", CHINESE))
        for progress in (begin(), Progress(3, 0, (), free=True)):
            lines = panel_text(progress, width, rows).plain.split("\n")
            assert len(lines) <= rows and all(cell_len(line) <= width for line in lines)
            assert lines[0].startswith(heading(progress)[:8])
            assert not any(line.startswith(("，", "。")) for line in lines)
    i18n.set_language("en")
    panel = panel_text(begin(), 78, 7).plain
    assert LESSONS[0].text[:40] in panel  # room for the lesson's text too


def test_persian_lessons_read_from_the_right(tmp_path: Path) -> None:
    i18n.set_language("fa")

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        assert app.screen.has_class("-rtl")  # the lesson's dialog
        await pilot.press("enter")
        screen = app.game_screen
        assert screen.has_class("-rtl")
        assert screen.query_one("#lesson", Static).styles.text_align == "right"
        assert "۹" in screen_text(app)  # "of 9", in Persian digits

    run(learn_app(tmp_path / "lessons.json"), script)


# -- the command --------------------------------------------------------------------------


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "learn" in cli.usage()
    assert cli.main(["learn", "--help"]) == 0
    said = capsys.readouterr().out
    assert "patchwork learn" in said and "--restart" in said and "--progress FILE" in said
    path = tmp_path / "kept" / "lessons.json"
    path.parent.mkdir()
    path.write_text(json.dumps(Progress(2, 0, ("20r0@a1", "9r0@a4", "A")).to_dict()), "utf-8")
    args = learn.build_parser().parse_args(["--progress", str(path)])
    assert learn.setup(args).progress.lesson == 2  # where it was left
    args = learn.build_parser().parse_args(["--progress", str(path), "--restart"])
    assert learn.setup(args).progress == begin()
    assert Progress.from_dict(json.loads(path.read_text("utf-8"))) == begin()  # kept at once
    assert learn.main(["--progress", str(path)]) == 2  # no terminal here: said, not run
    assert "need a terminal" in capsys.readouterr().err
