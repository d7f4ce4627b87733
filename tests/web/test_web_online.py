"""Two people in two browsers: one invites, the other joins from the link, and each sees
the other's moves; and the game on a phone-sized touch screen."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from conftest import (
    advance,
    cell_point,
    game_id,
    keyboard_place,
    placements,
    pointer_cell,
    shot,
    start_game,
    view,
    wait_my_turn,
    wait_version_above,
    watch_errors,
)
from server_fixtures import ServerProcess


def test_two_browsers_play_an_online_game(browser: Browser, web_server: ServerProcess) -> None:
    ann_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    bob_ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        ann = ann_ctx.new_page()
        bob = bob_ctx.new_page()
        errors = watch_errors(ann) + watch_errors(bob)
        for p in (ann, bob):
            p.set_default_timeout(15_000)
        gid = start_game(ann, web_server, "online", name="Ann")
        expect(ann.locator("#headline")).to_contain_text("Waiting")
        link = ann.locator("#invite-link").input_value()
        assert f"/play/{gid}#invite=" in link
        bob.goto(link)
        bob.fill("#join-name", "Bob")
        bob.click("#join-game")
        expect(bob.locator("#headline")).to_contain_text("Ann")
        expect(ann.locator("#headline")).to_have_text("Your turn")
        assert "#invite" not in bob.url
        pages = {0: ann, 1: bob}
        made = []
        for _ in range(6):
            g = view(web_server, gid)
            mover = pages[g["to_move"]]
            other = pages[1 - g["to_move"]]
            expect(mover.locator("#headline")).to_have_text("Your turn")
            buy = next((m for m in placements(g) if m[0].isdigit() and "r0@" in m), None)
            if len(made) % 2 == 0 and buy is not None:
                move = buy
                patch = move.split("r")[0]
                keyboard_place(
                    mover, f'.offer-card[data-patch="{patch}"]', placements(g)[move], move
                )
            else:
                move = "A"
                advance(mover)
            made.append(move)
            wait_version_above(other, g["version"])
            expect(other.locator("#move-list li").last).to_contain_text(move)
            expect(mover.locator("#move-list li").last).to_contain_text(move)
        history = [h["move"] for h in view(web_server, gid)["history"]]
        assert history == made
        assert {h["seat"] for h in view(web_server, gid)["history"]} == {0, 1}
        shot(bob, "online")
        # Bob resigns; both see the end, and why.
        bob.click("#resign")
        bob.click("#confirm-ok")
        for p in (ann, bob):
            expect(p.locator("#end-screen")).to_contain_text("Bob resigned")
        expect(ann.locator("#end-title")).to_have_text("You win!")
        assert view(web_server, gid)["result"]["termination"] == "resigned"
        assert not errors, errors
    finally:
        ann_ctx.close()
        bob_ctx.close()


def test_a_phone_sized_touch_screen(browser: Browser, web_server: ServerProcess) -> None:
    ctx = browser.new_context(
        viewport={"width": 375, "height": 740},
        has_touch=True,
        is_mobile=True,
        device_scale_factor=2,
    )
    try:
        page: Page = ctx.new_page()
        errors = watch_errors(page)
        page.set_default_timeout(15_000)
        gid = start_game(page, web_server, "ai", level=1)
        assert game_id(page) == gid
        # Nothing wider than the screen.
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, width
        g = view(web_server, gid)
        move = next(m for m in placements(g) if m[0].isdigit() and "r0" in m)
        patch = move.split("r")[0]
        card = page.locator(f'.offer-card[data-patch="{patch}"]')
        card.scroll_into_view_if_needed()
        card.tap()
        expect(page.locator("#place")).to_be_visible()
        board = ".board-focus.active"
        page.locator(board).scroll_into_view_if_needed()
        x, y = cell_point(page, board, *pointer_cell(placements(g)[move]))
        page.touchscreen.tap(x, y)
        expect(page.locator("#place-status")).to_have_attribute("data-kind", "fits")
        shot(page, "phone", full_page=False)
        page.locator("#place").tap()
        wait_version_above(page, g["version"])
        assert view(web_server, gid)["history"][0]["move"] == move
        expect(page.locator("#move-list li").first).to_contain_text(move)
        shot(page, "phone-full")
        # A drag with a finger: real touch events (through the DevTools protocol), which the
        # page sees as Pointer Events of type "touch".
        g = wait_my_turn(page, web_server, gid)
        move = next((m for m in placements(g) if m[0].isdigit() and "r0@" in m), None)
        assert move is not None, "seed 7 offers a patch to buy on the second turn"
        patch = move.split("r")[0]
        page.evaluate("document.querySelector('.offer-box').scrollIntoView({block: 'start'})")
        box = page.locator(f'.offer-card[data-patch="{patch}"]').bounding_box()
        assert box is not None
        x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        cdp = ctx.new_cdp_session(page)

        def touch(kind: str, x: float, y: float) -> None:
            points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        touch("touchStart", x0, y0)
        touch("touchMove", x0, y0 + 16)
        # Picking a patch up brings the whole quilt into view: aim once it has scrolled.
        page.wait_for_timeout(600)
        x1, y1 = cell_point(page, ".board-focus.active", *pointer_cell(placements(g)[move]))
        assert y1 < 740, "the board is on screen while the patch is held"
        for i in range(1, 11):
            touch("touchMove", x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10)
        expect(page.locator("#place-status")).to_have_attribute("data-kind", "fits")
        touch("touchEnd", x1, y1)
        wait_version_above(page, g["version"])
        assert move in [h["move"] for h in view(web_server, gid)["history"]]
        assert not errors, errors
    finally:
        ctx.close()
