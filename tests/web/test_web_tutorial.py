"""The guided first game in the browser (/learn), as a learner goes through it: every lesson
driven to its end on the table (a patch dragged, one placed with the keys, one turned with the
Turn button and sewn on with the Sew button, advancing with the bar's button, the special patch
placed), the task read from the panel and a move chosen that meets it; a move that does not
meet the lesson answered with its hint and not played; the page left mid-course and opened
again from the start screen at the same lesson; at the end the final count and the first
review. On a phone in Persian: the lesson first, nothing wider than the screen, a damaged kept
progress starting over with a notice, and "Start over" asking first."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser, Page, expect

import patchwork as pw
from conftest import (
    assert_fits_a_phone,
    cell_point,
    drag_move,
    keyboard_place,
    phone,
    pointer_cell,
    shot,
    turns_for,
)
from patchwork.tutorial import LESSONS, Progress, replay
from patchwork.tutorial.course import meets
from patchwork.tutorial.lessons import COUNTING, WAITING
from server_fixtures import ServerProcess

KEY = "patchwork.tutorial"


def kept(page: Page) -> Progress:
    """The progress the page keeps, as the course reads it."""
    return Progress.from_dict(
        json.loads(page.evaluate(f"localStorage.getItem('{KEY}')"))["progress"]
    )


def squares(move: str) -> list[str]:
    return [pw.square_name(r, c) for r, c in sorted(pw.parse_move(move).squares)]


def choose(p: Progress, meeting: bool = True, turned: bool = False) -> str | None:
    """A move at ``p`` that meets its step (any while the lesson waits) or, ``meeting`` False,
    one that does not, as the course judges: advancing first where it will do (one click),
    else a patch as printed (or, ``turned``, turned once)."""
    state = replay(p.moves).state
    legal = [str(m) for m in state.legal_moves()]
    pool = [m for m in legal if p.free or meets(p.task, state, pw.parse_move(m)) == meeting]
    wanted = "r90@" if turned else "r0@"
    pool.sort(key=lambda m: (m != "A", wanted not in m and not m.startswith("S@"), m))
    return pool[0] if pool else None


def with_buttons(page: Page, move: str) -> None:
    """Pick the patch up with a click, turn and flip it with the buttons, put it where it goes
    with a tap on the quilt, and sew it on with the button."""
    patch = move.split("r")[0].split("f")[0]
    page.click(f'.offer-card[data-patch="{patch}"]')
    turns, flip = turns_for(move)
    if flip:
        page.click("#flip")
    for _ in range(turns):
        page.click("#rotate")
    row, col = pointer_cell(squares(move))
    x, y = cell_point(page, ".board-focus.active", row, col)
    page.mouse.click(x, y)
    page.wait_for_selector('#place-status[data-kind="fits"]')
    page.click("#place")


def make(page: Page, move: str, lesson: str) -> None:
    """``move`` made on the table as a person makes it, a different way in some lessons."""
    if move == "A":
        page.click("#advance")
    elif move.startswith("S@"):
        keyboard_place(page, ".offer-card[data-special]", squares(move), move)
    elif lesson == "turn":
        with_buttons(page, move)
    elif lesson == "place":
        patch = move.split("r")[0].split("f")[0]
        keyboard_place(page, f'.offer-card[data-patch="{patch}"]', squares(move), move)
    else:
        drag_move(page, move, squares(move))


def played(page: Page, before: Any) -> None:
    """Wait until the page keeps a new progress (the course played the move)."""
    page.wait_for_function(f"b => localStorage.getItem('{KEY}') !== b", arg=before)


def test_every_lesson_driven_to_its_end_in_the_browser(
    page: Page, web_server: ServerProcess
) -> None:
    page.goto(f"{web_server.url}/")
    expect(page.locator("#learn-link")).to_have_text("Start the lessons")
    page.click("#learn-link")
    panel = page.locator("#lesson")
    expect(panel).to_have_attribute("data-lesson", LESSONS[0].id)
    expect(page.locator("#lesson-count")).to_have_text(f"Lesson 1 of {len(LESSONS)}")
    # A legal move that does not meet the lesson (advancing, where it asks to buy): its hint,
    # and nothing is played.
    first = kept(page)
    assert choose(first, meeting=False) == "A"
    page.click("#advance")
    expect(page.locator("#lesson-said.hint")).to_have_text(LESSONS[0].steps[0].hint)
    expect(page.locator("main[data-version='0']")).to_be_attached()
    shot(page, "learn-hint", full_page=False)
    seen: list[str] = []
    left = False
    while not (p := kept(page)).finished:
        lesson = p.current
        seen.append(lesson.id)
        expect(panel).to_have_attribute("data-lesson", lesson.id)
        # The task is the panel's, and the move chosen is one that meets it.
        expect(page.locator("#lesson-task")).to_have_text(p.task.task)
        if p.free:  # the lesson waits for its moment: any move will do
            expect(panel).to_contain_text(WAITING)
        if lesson.id == "advance" and not left:
            # Leave mid-course and come back from the start screen: the same lesson.
            version = page.get_attribute("main", "data-version")
            page.click(".brand")
            expect(page.locator("#learn-link")).to_have_text("Go on with the lessons")
            page.click("#learn-link")
            expect(panel).to_have_attribute("data-lesson", "advance")
            expect(page.locator(f"main[data-version='{version}']")).to_be_attached()
            left = True
        move = choose(p, turned=lesson.id == "turn")
        assert move is not None, (lesson.id, p)
        before = page.evaluate(f"localStorage.getItem('{KEY}')")
        make(page, move, lesson.id)
        played(page, before)
        if kept(page).lesson > p.lesson and not p.free:  # the lesson's last step is met
            expect(page.locator("#lesson-said.done")).to_have_text(lesson.steps[-1].done)
    order = [x for i, x in enumerate(seen) if i == 0 or seen[i - 1] != x]
    assert order == [lesson.id for lesson in LESSONS] and left
    # The final count: each score taken apart, how it is counted, and the first review.
    expect(panel).to_have_attribute("data-state", "finished")
    expect(panel).to_contain_text(COUNTING)
    expect(page.locator("#lesson-final #score-table tbody tr")).to_have_count(2)
    end = replay(kept(page).moves).state
    totals = page.locator("#score-table .total").all_inner_texts()
    assert totals == [str(s) for s in end.scores()]
    shot(page, "learn-final", full_page=False)
    page.click("#first-review")
    page.wait_for_url("**/play/*?replay=1&review=1")
    expect(page.locator("#review[data-ready='1']")).to_be_visible(timeout=60_000)
    gid = page.url.split("/play/")[1].split("?")[0]
    game = web_server.game(gid)
    assert [e["move"] for e in game["history"]] == list(kept(page).moves)


def test_on_a_phone_in_persian_damaged_progress_and_starting_over(
    browser: Browser, web_server: ServerProcess
) -> None:
    with phone(browser, locale="fa-IR") as page:
        damaged = json.dumps({"progress": {"lesson": 3, "moves": ["2r0@z9"]}})
        page.goto(f"{web_server.url}/")
        page.evaluate(f"localStorage.setItem('{KEY}', {json.dumps(damaged)})")
        page.goto(f"{web_server.url}/learn")
        expect(page.locator(".toast.warn")).to_be_visible()
        expect(page.locator("#lesson")).to_have_attribute("data-lesson", LESSONS[0].id)
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        expect(page.locator("#lesson-count")).to_contain_text("۱")  # the page's own digits
        assert_fits_a_phone(page)
        lesson = page.locator("#lesson").bounding_box()
        offer = page.locator(".offer-box").bounding_box()
        assert lesson is not None and offer is not None and lesson["y"] < offer["y"]
        shot(page, "learn-phone-fa", full_page=False)
        page.click("#advance")  # not a buy: the hint, nothing played
        expect(page.locator("#lesson-said.hint")).to_be_visible()
        page.click("#lesson-restart")  # asks first
        page.click("#confirm-cancel")
        expect(page.locator("#lesson-said.hint")).to_be_visible()
        page.click("#lesson-restart")
        page.click("#confirm-ok")
        expect(page.locator("#lesson-said")).to_have_count(0)
        expect(page.locator("#lesson")).to_have_attribute("data-state", "open")
        assert kept(page) == Progress.from_dict({"lesson": 0, "moves": []})
