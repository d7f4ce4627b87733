"""The web client in Persian: the page is laid out right to left (``<html dir="rtl">``), its
texts come from the Persian catalog with Persian digits, and the boards are not mirrored
(column a on the left, row 1 at the top, square names and notation unchanged). Screenshots
are kept in test-output/screenshots/."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from conftest import TIMEOUT_MS, advance, shot, start_game, wait_my_turn, watch_errors
from server_fixtures import ServerProcess


@pytest.fixture
def persian(browser: Browser) -> Iterator[Page]:
    """A browser whose preferred language is Persian (so the page picks fa by itself)."""
    ctx: BrowserContext = browser.new_context(
        viewport={"width": 1280, "height": 900}, locale="fa-IR"
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    errors = watch_errors(page)
    yield page
    ctx.close()
    assert not errors, f"the page reported errors: {errors}"


def label_boxes(page: Page, selector: str) -> dict[str, dict[str, float]]:
    """The screen position of each coordinate label of the first quilt board."""
    boxes: dict[str, dict[str, float]] = page.evaluate(
        """sel => {
            const out = {};
            const board = document.querySelector(sel);
            for (const t of board.querySelectorAll('.coords text')) {
                const r = t.getBoundingClientRect();
                out[t.textContent] = {x: r.x + r.width / 2, y: r.y + r.height / 2};
            }
            return out;
        }""",
        selector,
    )
    return boxes


def test_persian_page_is_right_to_left_with_an_unmirrored_board(
    persian: Page, web_server: ServerProcess
) -> None:
    page = persian
    start_game(page, web_server, name="سارا")
    page.wait_for_function("document.documentElement.lang === 'fa'")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
    body = page.inner_text("body")
    assert "تختهٔ زمان" in body  # "Time board", from the Persian catalog
    assert "Time board" not in body
    # The quilt board keeps its left-to-right drawing: a..i from left to right, 1..9 from
    # the top down, the labels themselves unchanged (square names are notation).
    # (Geometry is what counts: an SVG drawing is placed by its coordinates whatever the
    # page's direction.)
    boxes = label_boxes(page, "svg.quilt")
    columns = [boxes[c]["x"] for c in "abcdefghi"]
    rows = [boxes[str(r)]["y"] for r in range(1, 10)]
    assert columns == sorted(columns) and columns[0] < columns[-1]
    assert rows == sorted(rows) and rows[0] < rows[-1]
    # The time board too: space 0 on the left of the final space, numbered in Persian digits.
    spaces = page.evaluate(
        """() => [...document.querySelectorAll('.timeboard .space-no')].map(t => {
            const r = t.getBoundingClientRect();
            return [t.textContent, r.x, r.y];
        })"""
    )
    texts = [s[0] for s in spaces]
    assert "۰" in texts and "۵۳" in texts and not any(ch.isascii() for t in texts for ch in t)
    first = next(s for s in spaces if s[0] == "۰")
    assert first[1] == min(s[1] for s in spaces if abs(s[2] - first[2]) < 1)
    shot(page, "fa-rtl-game")


def test_the_persian_how_to_play_page(persian: Page, web_server: ServerProcess) -> None:
    page = persian
    page.goto(f"{web_server.url}/")
    page.wait_for_function("document.documentElement.lang === 'fa'")
    # The levels as the server describes them (in English), read from the Persian catalog.
    start = page.inner_text("main")
    assert "مثل یک بازیکن باشگاهی" in start and "club player" not in start
    # The header links to the rules in the page's language, in a new tab.
    link = page.locator("a.howto-link")
    assert link.inner_text() == "آموزش بازی"
    with page.context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url == f"{web_server.url}/howto/fa"
    rules.close()
    page.goto(f"{web_server.url}/howto/fa")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.evaluate("document.documentElement.lang") == "fa"
    assert page.inner_text("h1") == "آموزش بازی پچ‌ورک"
    code = page.locator("code", has_text="17r90@c4")
    assert code.count() == 1
    assert code.evaluate("c => getComputedStyle(c).direction") == "ltr"
    page.click("a[rel=home]")
    page.wait_for_url(f"{web_server.url}/")
    shot(page, "fa-howto")


def test_persian_digits_in_the_move_list_and_the_last_move_line(
    persian: Page, web_server: ServerProcess
) -> None:
    # The moves as people read them: numbered in Persian (the list's own markers), the
    # notation shown with Persian digits, and the last move said in words with Persian
    # digits, the notation beside it likewise; nothing in ASCII digits.
    page = persian
    gid = start_game(page, web_server, name="سارا")
    page.wait_for_function("document.documentElement.lang === 'fa'")
    g = wait_my_turn(page, web_server, gid)
    advance(page)
    g = wait_my_turn(page, web_server, gid, since=g["version"])
    assert len(g["history"]) >= 2
    items = page.locator("#move-list li")
    expect(items).to_have_count(len(g["history"]))
    assert items.first.evaluate("li => getComputedStyle(li).listStyleType") == "persian"
    assert items.first.evaluate("li => getComputedStyle(li.parentElement).direction") == "rtl"
    codes = page.locator("#move-list li code").all_inner_texts()
    assert len(codes) == len(g["history"])
    assert codes[0] == "A" and not any(ch in "0123456789" for c in codes for ch in c)
    ai = g["history"][-1]
    if ai["move"] != "A":  # a patch number, turned and placed: Persian digits throughout
        assert any(ch in "۰۱۲۳۴۵۶۷۸۹" for ch in codes[-1])
    line = page.locator("[data-last-move]")
    expect(line).to_have_attribute("data-ply", str(ai["ply"]))
    expect(line).to_contain_text("سطح ۱")
    said = line.inner_text()
    assert any(ch in "۰۱۲۳۴۵۶۷۸۹" for ch in said), said
    assert not any(ch in "0123456789" for ch in said), said
    shot(page, "fa-move-list", full_page=False)
