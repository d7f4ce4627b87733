"""The player's table in headless Chromium at 1366x900: the whole table in view without
scrolling (the 54 spaces of the time board and every patch of the circle), the track drawn
as one joined spiral, the other player's move said in words, and one notice at a time."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

import pytest
from playwright.sync_api import Browser, Page, expect

from conftest import TIMEOUT_MS, advance, shot, start_game, view, wait_my_turn, watch_errors
from server_fixtures import ServerProcess

DESKTOP = {"width": 1366, "height": 900}

IN_VIEW_JS = """sel => [...document.querySelectorAll(sel)].filter(e => {
  const b = e.getBoundingClientRect();
  return !(b.left >= 0 && b.top >= 0 && b.right <= innerWidth && b.bottom <= innerHeight
    && b.width > 0);
}).map(e => e.outerHTML.slice(0, 60))"""

CENTRES_JS = """() => [...document.querySelectorAll('[data-space]')]
  .sort((a, b) => a.dataset.space - b.dataset.space)
  .map(e => { const b = e.querySelector('.cell').getBoundingClientRect();
              return [b.left + b.width / 2, b.top + b.height / 2, b.width, b.height]; })"""


@pytest.fixture
def desk(browser: Browser) -> Iterator[Page]:
    ctx = browser.new_context(viewport=DESKTOP, locale="en-GB")
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    errors = watch_errors(page)
    yield page
    ctx.close()
    assert not errors, errors


def assert_table_in_view(page: Page) -> None:
    expect(page.locator("[data-space]")).to_have_count(54)
    assert page.evaluate("document.documentElement.scrollHeight <= innerHeight + 1")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1")
    assert page.evaluate(IN_VIEW_JS, "[data-space]") == []
    assert page.evaluate(IN_VIEW_JS, ".ring [data-patch]") == []
    assert page.evaluate(IN_VIEW_JS, ".player .quilt") == []


def test_the_whole_table_is_in_view_and_the_ai_move_is_said(
    desk: Page, web_server: ServerProcess
) -> None:
    page = desk
    gid = start_game(page, web_server, "ai", level=1)
    g = wait_my_turn(page, web_server, gid)
    assert_table_in_view(page)
    # The circle: every patch still in play, the ones on offer marked, in the view's order.
    ring = page.locator(".ring [data-patch]")
    expect(ring).to_have_count(len(g["circle"]))
    assert [int(x) for x in ring.evaluate_all("es => es.map(e => e.dataset.patch)")] == g["circle"]
    offered = page.locator(".ring .offered").evaluate_all("es => es.map(e => +e.dataset.patch)")
    assert offered == [o["patch"] for o in g["offer"]]
    # The track: each space touches the next, as one path winding to the centre.
    centres = page.evaluate(CENTRES_JS)
    for (x0, y0, w, h), (x1, y1, _, _) in pairwise(centres):
        dx, dy = abs(x1 - x0), abs(y1 - y0)
        assert (dx < 1 and abs(dy - h) < 1.5) or (dy < 1 and abs(dx - w) < 1.5), (dx, dy, w, h)
    # The last space lies inside the track's box, away from its edge: a spiral, not a line.
    xs, ys = [c[0] for c in centres], [c[1] for c in centres]
    last = centres[-1]
    assert min(xs) < last[0] < max(xs) and min(ys) < last[1] < max(ys)
    # Advance; the AI answers; its move is said in plain words.
    before = g["version"]
    advance(page)
    g = wait_my_turn(page, web_server, gid, since=before)
    assert g["version"] > before + 1
    ai = g["history"][-1]
    line = page.locator("[data-last-move]")
    expect(line).to_have_attribute("data-ply", str(ai["ply"]))
    expect(line).to_contain_text("level 1")
    if ai["move"] == "A":
        expect(line).to_contain_text(f"advanced to space {ai['outcome']['space_to']}")
    else:
        patch = ai["move"].split("r")[0].split("f")[0]
        cost = ai["outcome"]["buttons_paid"]
        expect(line).to_contain_text(f"bought patch {patch} for {cost} button")
    expect(line.locator(".details")).to_have_text(ai["move"])
    # The token shown on the AI's space, once it has travelled there. The line above is written
    # in the same render that queues the token's animation for the next frame: let two frames
    # pass so that it has started, then wait for it to end.
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.wait_for_function("document.getAnimations().length === 0")
    space = g["players"][ai["seat"]]["position"]
    token = page.locator(f'[data-token="{ai["seat"]}"]')
    cell = page.locator(f'[data-space="{space}"] .cell')
    tb, cb = token.bounding_box(), cell.bounding_box()
    assert tb and cb and cb["x"] <= tb["x"] + tb["width"] / 2 <= cb["x"] + cb["width"]
    assert_table_in_view(page)
    shot(page, "table-desktop", full_page=False)


def test_notices_come_one_at_a_time(desk: Page, web_server: ServerProcess) -> None:
    page = desk
    gid = start_game(page, web_server, "ai", level=1)
    wait_my_turn(page, web_server, gid)
    page.evaluate(
        """async () => { const ui = await import('/static/js/ui.js');
        ui.toast('one'); ui.toast('two', 'warn'); ui.toast('three', 'good'); }"""
    )
    expect(page.locator(".toast")).to_have_count(1)
    expect(page.locator(".toast")).to_contain_text("three")
    # Each expires.
    page.evaluate("async () => (await import('/static/js/ui.js')).toast('short', 'info', 300)")
    expect(page.locator(".toast")).to_have_count(0, timeout=3000)
    assert view(web_server, gid)["status"] == "active"


def test_on_a_phone_the_quilt_stays_in_view_while_a_patch_is_held(
    browser: Browser, web_server: ServerProcess
) -> None:
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale="en-GB"
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    errors = watch_errors(page)
    try:
        gid = start_game(page, web_server, "ai", level=1)
        wait_my_turn(page, web_server, gid)
        # Instructions for fingers, not keys; no line of the header wraps into three.
        expect(page.locator("#place-status")).to_contain_text("finger")
        assert page.evaluate(
            "[...document.querySelectorAll('.site-head a, .site-head select')]"
            ".every(e => e.getBoundingClientRect().height"
            " < 2.6 * parseFloat(getComputedStyle(e).fontSize) * 1.45)"
        )
        card = page.locator(".offer-card:not(.dimmed)").first
        card.scroll_into_view_if_needed()
        box = card.bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.mouse.move(box["x"] + box["width"] / 2 + 5, box["y"] + box["height"] / 2 + 40, steps=4)
        expect(card).to_have_attribute("aria-pressed", "true")
        assert page.evaluate(IN_VIEW_JS, ".board-focus.active .quilt") == []
        shot(page, "table-phone-held", full_page=False)
        page.mouse.up()
    finally:
        ctx.close()
    assert not errors, errors
