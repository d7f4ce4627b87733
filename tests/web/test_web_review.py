"""The game review in the browser: from the end screen's button to the server's progress and
the review, its chart (a click or the arrow keys move the boards), the class of every move
in the list, and at a slip the move played beside the better one; on a laptop and a phone."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page, expect

from conftest import TIMEOUT_MS, finished_game, shot, view, watch_errors
from server_fixtures import ServerProcess, fetch

CLASS_NAMES = {"Best move", "Good move", "Inaccuracy", "Mistake", "Blunder"}


def caption_ply(page: Page) -> int:
    return int(page.input_value("#replay-slider"))


def row_in_view(page: Page, ply: int) -> bool:
    """Whether the move list's row of ``ply`` lies wholly inside the list's visible box."""
    return bool(
        page.evaluate(
            """(ply) => {
            const box = document.querySelector('.review-moves-box').getBoundingClientRect();
            const row = document.querySelector(`#review-moves li[data-ply='${ply}']`)
              .getBoundingClientRect();
            return row.top >= box.top - 1 && row.bottom <= box.bottom + 1;
        }""",
            ply,
        )
    )


def test_review_from_the_end_screen_chart_and_moves(page: Page, web_server: ServerProcess) -> None:
    gid, game = finished_game(web_server, seed=12)
    plies = len(game["history"])
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{web_server.url}/play/{gid}")
    expect(page.locator("#end-screen")).to_be_visible()
    page.click("#review-link")  # "Review this game"
    expect(page.locator("#review-progress")).to_be_attached()
    expect(page.locator("#review[data-ready='1']")).to_be_visible(timeout=60_000)
    review = fetch("GET", f"{web_server.url}/api/games/{gid}/review", timeout=10).json()["review"]
    assert review["stored"] and len(review["plies"]) == plies
    # One point a position, the start included; each move's class in the list, in words.
    expect(page.locator("#review-chart .point")).to_have_count(plies + 1)
    expect(page.locator("#review-moves li")).to_have_count(plies)
    names = page.locator("#review-moves .class-name").all_inner_texts()
    assert set(names) <= CLASS_NAMES and len(names) == plies
    shown = page.eval_on_selector_all("#review-moves li", "ls => ls.map(l => l.dataset.class)")
    assert shown == [p["class"] for p in review["plies"]]
    # A click on the chart goes to that position on the boards.
    target = plies // 2
    page.click(f"#review-chart .hit[data-ply='{target}']")
    assert caption_ply(page) == target
    expect(page.locator("#replay-caption")).to_contain_text(f"Move {target} of {plies}")
    expect(page.locator("#review-moves li.current")).to_have_attribute("data-ply", str(target))
    # The arrow keys step through it, the chart's cursor and the list following.
    page.keyboard.press("ArrowRight")
    assert caption_ply(page) == target + 1
    expect(page.locator("#review-moves li.current")).to_have_attribute("data-ply", str(target + 1))
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert caption_ply(page) == target - 1
    cursor_x = float(page.get_attribute("#review-chart .cursor", "x1") or "nan")
    point_x = float(
        page.get_attribute(f"#review-chart .point[data-ply='{target - 1}']", "cx") or "nan"
    )
    assert abs(cursor_x - point_x) < 0.01
    # The move list scrolls (alone, not the page) to keep the chosen move in view.
    for ply in (plies, 1, plies - 2):
        page.click(f"#review-chart .hit[data-ply='{ply}']")
        assert row_in_view(page, ply), f"move {ply} is out of the list's view"
    # No figure of the review reads "-0%" or "-0": a share or a margin that rounds to
    # nothing is 0, whatever its sign.
    assert page.evaluate(
        """async () => { const m = await import('/static/js/i18n.js');
        return [m.percent(-0.001), m.percent(-0.0049), m.num(-0), m.rounded(-0.04)]; }"""
    ) == ["0%", "0%", "0", 0]
    for p in review["plies"]:
        if p["class"] in ("inaccuracy", "mistake", "blunder"):
            page.click(f"#review-moves li[data-ply='{p['ply']}'] button")
            detail = page.locator("#review-detail").inner_text()
            assert not re.search(r"[-−]0(%|\b)", detail), detail
    # At a slip: the move played beside the better one, each on the mover's quilt.
    slips = [p for p in review["plies"] if p["class"] in ("mistake", "blunder")]
    assert slips, "random moves make mistakes"
    worst = max(slips, key=lambda p: p["loss"])
    page.click(f"#review-moves li[data-ply='{worst['ply']}'] button")
    assert caption_ply(page) == worst["ply"]
    compare = page.locator("#review-compare")
    expect(compare).to_be_visible()
    expect(compare.locator("figure")).to_have_count(2)
    expect(compare.locator("figure.played")).to_have_attribute("data-move", worst["move"])
    expect(compare.locator("figure.hint")).to_have_attribute("data-move", worst["best_move"])
    marked = compare.locator("figure.hint .overlay rect").count()
    assert marked == len(worst["best_squares"])
    compare.scroll_into_view_if_needed()
    shot(page, "review", full_page=False)
    shot(page, "review-full")
    # Reloaded: the stored review is served at once, no button to press.
    page.reload()
    expect(page.locator("#review[data-ready='1']")).to_be_visible()
    expect(page.locator("#review-start")).to_be_hidden()


def test_review_on_a_phone_from_the_replay(browser: Browser, web_server: ServerProcess) -> None:
    gid, _ = finished_game(web_server, seed=31)
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale="en-GB"
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(f"{web_server.url}/play/{gid}?replay=1")
        page.click("#review-start")  # "Review this game" on the replay
        expect(page.locator("#review[data-ready='1']")).to_be_visible(timeout=60_000)
        page.tap("#review-chart .hit[data-ply='3']")
        assert caption_ply(page) == 3
        # A phone has no arrow keys: the page speaks of taps.
        replay = page.locator(".replay")
        expect(replay).not_to_contain_text("Arrow keys")
        expect(replay).not_to_contain_text("arrow keys")
        expect(page.locator(".review-chart-box figcaption")).to_contain_text("tap a point")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px screen"
        slips = [
            p
            for p in view_review(web_server, gid)["plies"]
            if p["class"] in ("mistake", "blunder") and p["best_squares"]
        ]
        if slips:
            page.tap(f"#review-moves li[data-ply='{slips[0]['ply']}'] button")
            expect(page.locator("#review-compare")).to_be_visible()
            page.locator("#review-compare").scroll_into_view_if_needed()
        shot(page, "review-phone", full_page=False)
        shot(page, "review-phone-full")
        assert not errors, errors
    finally:
        ctx.close()
    assert view(web_server, gid)["status"] == "finished"


def view_review(server: ServerProcess, gid: str) -> dict[str, Any]:
    r = fetch("GET", f"{server.url}/api/games/{gid}/review", timeout=10)
    assert r.status_code == 200 and r.json()["state"] == "done", r.text
    data: dict[str, Any] = r.json()["review"]
    return data
