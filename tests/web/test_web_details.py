"""Details of the table that players asked for (issue 35), as people meet them: the offer
says only the mover's own affordability; a notice on a phone never takes a tap meant for the
quilt; the circle's small patches are shown large on hover, focus and a long press; the move
list never shows half a line; advancing asks first only in a browser's first games (a
setting of the game's menu); the end screen's winner and captions on a phone and the 7x7
bonus mark clear of the column letters; the lists of games and players use a wide screen."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, CDPSession, Locator, Page, expect

import patchwork as pw
from conftest import (
    TIMEOUT_MS,
    advance,
    cell_point,
    keep_seat,
    random_moves,
    shot,
    start_game,
    view,
    wait_my_turn,
    wait_version_above,
    watch_errors,
)
from server_fixtures import ServerProcess, legal_moves

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


def new_context(browser: Browser, phone: bool = False, **kw: Any) -> BrowserContext:
    if phone:
        kw = {"viewport": PHONE, "has_touch": True, "is_mobile": True, **kw}
    ctx = browser.new_context(**{"viewport": DESKTOP, "locale": "en-GB", **kw})
    ctx.set_default_timeout(TIMEOUT_MS)
    return ctx


@pytest.fixture
def desk(browser: Browser) -> Iterator[Page]:
    ctx = new_context(browser)
    page = ctx.new_page()
    errors = watch_errors(page)
    yield page
    ctx.close()
    assert not errors, errors


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    ctx = new_context(browser, phone=True)
    page = ctx.new_page()
    errors = watch_errors(page)
    yield page
    ctx.close()
    assert not errors, errors


# -- 3: the offer under your quilt is yours ----------------------------------------------------


def test_the_offer_shows_only_the_movers_own_affordability(
    desk: Page, web_server: ServerProcess
) -> None:
    page = desk
    # Patch 8 (6 buttons) first on offer: Ann can afford it once she has advanced, Bob with
    # his 5 buttons cannot.
    circle = [p for p in pw.standard_circle(7) if p != 8]
    circle.insert(0, 8)
    created = web_server.create(mode="online", name="Ann", circle=circle)
    gid, token = created["game_id"], created["token"]
    joined = web_server.post(
        f"/api/games/{gid}/join", {"invite": created["invite_code"], "name": "Bob"}
    )
    assert joined.status_code == 200, joined.text
    keep_seat(page, gid, token, 0)
    page.goto(f"{web_server.url}/play/{gid}")
    expect(page.locator("#headline")).to_have_text("Your turn")
    before = view(web_server, gid)["version"]
    advance(page)
    wait_version_above(page, before)
    g = view(web_server, gid)
    assert g["to_move"] == 1 and g["players"][0]["buttons"] == 6
    assert g["players"][1]["buttons"] == 5 and not g["offer"][0]["buyable"]
    # Bob's turn: Ann's offer says nothing of what Bob can afford (no "Too dear: 5 buttons
    # to spend" under a quilt whose owner has 6), and strikes out nothing.
    expect(page.locator("#headline")).to_contain_text("Bob")
    offer = page.locator(".offer-box")
    expect(offer.locator(".offer-card")).to_have_count(3)
    expect(offer.locator(".why")).to_have_count(0)
    expect(offer.locator(".offer-card.dimmed")).to_have_count(0)
    assert "5 buttons to spend" not in offer.inner_text()
    # Bob moves; on Ann's turn her own figures count again.
    move = next((m for m in legal_moves(g) if m[0].isdigit()), "A")
    r = web_server.post(
        f"/api/games/{gid}/moves", {"move": move, "version": g["version"]}, joined.json()["token"]
    )
    assert r.status_code == 200, r.text
    expect(page.locator("#headline")).to_have_text("Your turn")
    g = view(web_server, gid)
    for o in g["offer"]:
        card = offer.locator(f'.offer-card[data-patch="{o["patch"]}"]')
        if o["buyable"]:
            expect(card).not_to_have_class("dimmed")
        elif o["buttons"] > g["players"][0]["buttons"]:
            expect(card.locator(".why")).to_have_text(
                f"Too dear: {g['players'][0]['buttons']} buttons to spend"
            )


# -- 4: a notice on a phone never takes a tap ---------------------------------------------------

OVERLAY_JS = """(() => [...document.querySelectorAll('.board-focus.active .overlay rect')]
  .map(c => [Math.floor(+c.getAttribute('y') / 10), Math.floor(+c.getAttribute('x') / 10)]))"""


def overlay_squares(page: Page) -> list[list[int]]:
    """The squares (row, column) the held patch's preview covers."""
    squares: list[list[int]] = page.evaluate(OVERLAY_JS)
    return squares


def test_a_notice_on_a_phone_never_takes_a_tap(phone: Page, web_server: ServerProcess) -> None:
    page = phone
    gid = start_game(page, web_server, "ai", level=1)
    wait_my_turn(page, web_server, gid)
    card = page.locator(".offer-card:not(.dimmed)").first
    card.scroll_into_view_if_needed()
    card.tap()
    expect(card).to_have_attribute("aria-pressed", "true")
    page.wait_for_timeout(300)  # picking a patch up brings the quilt into view
    page.evaluate(
        """async () => (await import('/static/js/ui.js')).toast(
        'AI level 1 takes a special patch: place it on any empty square.', 'good', 7000)"""
    )
    notice = page.locator(".toast")
    expect(notice).to_be_visible()
    box = notice.bounding_box()
    assert box is not None
    # Bring the quilt's row 8 under the notice, and tap square b8 there.
    board = ".board-focus.active"
    before = overlay_squares(page)
    _, y = cell_point(page, board, 7, 1)
    page.evaluate("dy => window.scrollBy(0, dy)", y - (box["y"] + box["height"] / 2))
    x, y = cell_point(page, board, 7, 1)
    assert box["y"] <= y <= box["y"] + box["height"], "the square lies under the notice"
    covered = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('.toast') !== null", [x, y]
    )
    assert not covered, "the notice takes no taps"
    page.touchscreen.tap(x, y)
    # The tap reached the quilt: the patch moved there (its preview around b8).
    page.wait_for_function(
        "before => JSON.stringify(before) !== JSON.stringify(" + OVERLAY_JS + "())", arg=before
    )
    squares = overlay_squares(page)
    rows, cols = [r for r, _ in squares], [c for _, c in squares]
    assert min(rows) <= 7 <= max(rows) and min(cols) <= 1 <= max(cols), squares
    # And the notice is gone: a touch puts it away. It was small: two lines at most.
    expect(page.locator(".toast")).to_have_count(0)
    assert box["height"] < 4 * 16, box
    shot(page, "notice-phone", full_page=False)


# -- 7: the circle's patches shown large ----------------------------------------------------


def expect_zoomed(page: Page, patch: int) -> None:
    zoom = page.locator("#patch-zoom")
    expect(zoom).to_be_visible()
    expect(zoom).to_have_attribute("data-patch", str(patch))
    info = pw.PATCHES[patch]
    text = zoom.inner_text()
    for word, n in (("Cost", info.buttons), ("Time", info.time), ("Income", info.income)):
        assert word in text and str(n) in text, text
    small = page.locator(f'.ring [data-patch="{patch}"] svg').first.bounding_box()
    big = zoom.locator("svg.patch-svg").bounding_box()
    assert small and big and big["width"] >= 3 * small["width"], (small, big)
    z = zoom.bounding_box()
    assert z and z["x"] >= 0 and z["y"] >= 0
    assert z["x"] + z["width"] <= page.viewport_size["width"]  # type: ignore[index]
    assert z["y"] + z["height"] <= page.viewport_size["height"]  # type: ignore[index]


def test_a_patch_of_the_circle_is_shown_large(desk: Page, web_server: ServerProcess) -> None:
    page = desk
    gid = start_game(page, web_server, "ai", level=1)
    g = wait_my_turn(page, web_server, gid)
    # Hover: the patch large beside it, with its figures in words; gone when the mouse goes.
    patch = g["circle"][5]
    page.hover(f'.ring [data-patch="{patch}"]')
    expect_zoomed(page, patch)
    # The icons and figures of a circle item do not touch each other.
    gap = page.evaluate(
        """p => { const f = document.querySelector(`.ring [data-patch="${p}"] .rf.income`);
        const i = f.querySelector('svg').getBoundingClientRect();
        const r = document.createRange(); r.selectNodeContents(f.lastChild);
        return r.getBoundingClientRect().left - i.right; }""",
        patch,
    )
    assert gap >= 0.5, gap
    shot(page, "circle-zoom", full_page=False)
    page.mouse.move(5, 5)
    expect(page.locator("#patch-zoom")).to_be_hidden()
    # The keyboard: the circle is one stop of Tab; the arrow keys go from patch to patch.
    page.focus(".board-focus.active")
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('.ring') !== null"):
            break
    else:
        raise AssertionError("Tab never reached the circle")
    first = int(page.evaluate("document.activeElement.dataset.patch"))
    expect_zoomed(page, first)
    page.keyboard.press("ArrowRight")
    nxt = g["circle"][g["circle"].index(first) + 1]
    assert page.evaluate("document.activeElement.dataset.patch") == str(nxt)
    expect_zoomed(page, nxt)
    page.keyboard.press("Tab")
    expect(page.locator("#patch-zoom")).to_be_hidden()


def long_press(ctx: BrowserContext, page: Page, item: Locator) -> tuple[CDPSession, float, float]:
    """A finger put on ``item`` and held past the long press's time (lifted by the caller
    with a touchEnd on the session returned); where it is held."""
    item.scroll_into_view_if_needed()
    box = item.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = ctx.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    page.wait_for_timeout(800)
    return cdp, x, y


def test_a_long_press_shows_a_patch_large_on_a_phone(
    browser: Browser, web_server: ServerProcess
) -> None:
    ctx = new_context(browser, phone=True)
    page = ctx.new_page()
    errors = watch_errors(page)
    try:
        gid = start_game(page, web_server, "ai", level=1)
        g = wait_my_turn(page, web_server, gid)
        patch = g["circle"][7]
        cdp, x, y = long_press(ctx, page, page.locator(f'.ring [data-patch="{patch}"]'))
        expect_zoomed(page, patch)
        shot(page, "circle-zoom-phone", full_page=False)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        expect(page.locator("#patch-zoom")).to_be_hidden()
        # A short tap shows nothing.
        page.touchscreen.tap(x, y)
        page.wait_for_timeout(600)
        expect(page.locator("#patch-zoom")).to_be_hidden()
    finally:
        ctx.close()
    assert not errors, errors


def test_a_patch_held_large_stays_while_a_player_advances(
    browser: Browser, web_server: ServerProcess
) -> None:
    """Watching on a phone, a finger holds a patch of the circle while a player advances: the
    circle is as it was, so its items are kept (the one under the finger the same element)
    and the patch stays large until the finger lifts."""
    created = web_server.create(mode="local", seed=5, name="Ann", opponent_name="Bob")
    gid, token, g = created["game_id"], created["token"], created["game"]
    ctx = new_context(browser, phone=True)
    page = ctx.new_page()
    errors = watch_errors(page)
    try:
        page.goto(f"{web_server.url}/play/{gid}")
        expect(page.locator("#connection")).to_have_attribute("data-status", "online")
        patch = g["circle"][5]
        item = page.locator(f'.ring [data-patch="{patch}"]')
        item.evaluate("el => { window.held = el; }")
        cdp, _x, _y = long_press(ctx, page, item)
        expect_zoomed(page, patch)
        r = web_server.post(
            f"/api/games/{gid}/moves", {"move": "A", "version": g["version"]}, token
        )
        assert r.status_code == 200, r.text
        wait_version_above(page, g["version"])
        assert page.evaluate("window.held.isConnected && window.held.matches('.ring [data-patch]')")
        expect_zoomed(page, patch)
        # Beside the item, wherever the page moved it (a new line of the move list above it
        # changes the page's height; the browser scrolls to keep the circle in place).
        held = item.bounding_box()
        zoom = page.locator("#patch-zoom").bounding_box()
        assert held and zoom
        assert zoom["y"] + zoom["height"] <= held["y"] or zoom["y"] >= held["y"] + held["height"]
        assert zoom["x"] <= held["x"] + held["width"] / 2 <= zoom["x"] + zoom["width"]
        shot(page, "circle-zoom-held-phone", full_page=False)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        expect(page.locator("#patch-zoom")).to_be_hidden()
    finally:
        ctx.close()
    assert not errors, errors


# -- 9: the move list shows whole lines ------------------------------------------------------

CUT_JS = """() => {
  const list = document.querySelector('#move-list');
  const r = list.getBoundingClientRect();
  const top = r.top + list.clientTop, bottom = top + list.clientHeight;
  const cut = [];
  for (const li of list.children) {
    const b = li.getBoundingClientRect();
    if (b.bottom > top + 0.5 && b.top < top - 0.5) cut.push(['top', li.textContent]);
    if (b.top < bottom - 0.5 && b.bottom > bottom + 0.5) cut.push(['bottom', li.textContent]);
  }
  const last = list.lastElementChild.getBoundingClientRect();
  return {cut, lastInView: last.top >= top - 0.5 && last.bottom <= bottom + 0.5,
          scrolled: list.scrollTop > 0};
}"""


def test_the_move_list_shows_whole_lines(desk: Page, web_server: ServerProcess) -> None:
    page = desk
    created = web_server.create(mode="local", seed=11, name="Ann", opponent_name="Bob")
    gid, token = created["game_id"], created["token"]
    g = random_moves(web_server, gid, token, created["game"], 40)
    assert g["status"] == "active"
    keep_seat(page, gid, token, None)
    page.goto(f"{web_server.url}/play/{gid}")
    expect(page.locator("#move-list li")).to_have_count(len(g["history"]))
    expect(page.locator("[data-last-move]")).not_to_contain_text("null")
    state = page.evaluate(CUT_JS)
    assert state["scrolled"], "40 moves overflow the list"
    assert state["cut"] == [] and state["lastInView"], state
    # After one more move, still whole lines with the new one in view.
    move = "A" if "A" in legal_moves(g) else legal_moves(g)[0]
    r = web_server.post(f"/api/games/{gid}/moves", {"move": move, "version": g["version"]}, token)
    assert r.status_code == 200
    expect(page.locator("#move-list li")).to_have_count(len(g["history"]) + 1)
    state = page.evaluate(CUT_JS)
    assert state["cut"] == [] and state["lastInView"], state
    shot(page, "move-list-whole", full_page=False)


# -- 10: advancing asks first only in a browser's first games ---------------------------------


def test_advancing_asks_first_in_the_first_games_only(
    browser: Browser, web_server: ServerProcess
) -> None:
    ctx = new_context(browser)
    page = ctx.new_page()
    errors = watch_errors(page)
    try:
        gid = start_game(page, web_server, "ai", level=1)
        g = wait_my_turn(page, web_server, gid)
        # A first game: Advance asks; the game's settings say so, and change it.
        page.click("#advance")
        expect(page.locator("dialog.confirm")).to_be_visible()
        page.click("#confirm-cancel")
        assert view(web_server, gid)["version"] == g["version"]
        page.click("#settings-button")
        ask = page.locator("#ask-advance")
        expect(ask).to_be_visible()
        expect(ask).to_be_checked()
        shot(page, "settings-menu", full_page=False)
        ask.uncheck()
        page.click("#settings-button")  # closes the menu
        page.click("#advance")
        wait_version_above(page, g["version"])
        expect(page.locator("dialog.confirm")).to_have_count(0)
        assert view(web_server, gid)["history"][len(g["history"])]["move"] == "A"
        # Remembered by the browser: after a reload, still without asking.
        wait_my_turn(page, web_server, gid)
        page.reload()
        page.click("#settings-button")
        expect(page.locator("#ask-advance")).not_to_be_checked()
    finally:
        ctx.close()
    assert not errors, errors
    # A browser that has played 3 games already: no question by default.
    ctx = new_context(browser)
    page = ctx.new_page()
    errors = watch_errors(page)
    try:
        page.add_init_script(
            "for (const id of ['old1', 'old2', 'old3']) localStorage.setItem("
            "'patchwork.seat.' + id, JSON.stringify({token: 't', seat: 0}))"
        )
        gid = start_game(page, web_server, "ai", level=1)
        g = wait_my_turn(page, web_server, gid)
        page.click("#advance")
        wait_version_above(page, g["version"])
        expect(page.locator("dialog.confirm")).to_have_count(0)
        page.click("#settings-button")
        expect(page.locator("#ask-advance")).not_to_be_checked()
        page.locator("#ask-advance").check()  # and asked for again
        page.click("#settings-button")
        g = wait_my_turn(page, web_server, gid)
        page.click("#advance")
        expect(page.locator("dialog.confirm")).to_be_visible()
    finally:
        ctx.close()
    assert not errors, errors


# -- 8, 11: the end screen on a phone ---------------------------------------------------------

BADGE_JS = """async () => {
  const { QuiltView } = await import('/static/js/quilt.js');
  const q = new QuiltView('test');
  q.render(Array(9).fill('.........'), [], [], true);
  const box = document.createElement('figure');
  box.className = 'end-quilt';
  box.append(q.svg);
  document.querySelector('#end-screen').append(box);
  const badge = q.svg.querySelector('.bonus-badge').getBoundingClientRect();
  const hits = [...q.svg.querySelectorAll('.coords text')].filter(t => {
    const r = t.getBoundingClientRect();
    return r.left < badge.right && r.right > badge.left
      && r.top < badge.bottom && r.bottom > badge.top;
  }).map(t => t.textContent);
  box.remove();
  return hits;
}"""

ONE_LINE_JS = """sel => [...document.querySelectorAll(sel)].map(e => {
  const lh = parseFloat(getComputedStyle(e).fontSize) * 1.6;
  return [e.textContent, e.getBoundingClientRect().height <= lh];
})"""


def test_the_end_screen_on_a_phone(phone: Page, web_server: ServerProcess) -> None:
    page = phone
    created = web_server.create(mode="ai", level=3, name="Ann", seed=4)
    gid, token = created["game_id"], created["token"]
    r = web_server.post(f"/api/games/{gid}/resign", None, token)
    assert r.status_code == 200, r.text
    keep_seat(page, gid, token, 0)
    page.goto(f"{web_server.url}/play/{gid}")
    end = page.locator("#end-screen")
    expect(end).to_be_visible()
    # The 7x7 bonus mark covers none of the column letters or row numbers.
    assert page.evaluate(BADGE_JS) == []
    # Each name and score whole on its line: never "level / 3 · 25 / points".
    captions = page.locator(".end-quilt figcaption")
    expect(captions).to_have_count(2)
    for text, whole in page.evaluate(
        ONE_LINE_JS, ".end-quilt figcaption > strong, .end-quilt .end-score"
    ):
        assert whole, f"{text!r} wraps"
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1")
    # The AI has one name everywhere, and a sentence starts with a capital.
    expect(page.locator("#end-title")).to_have_text("AI level 3 wins.")
    expect(end).to_contain_text("Ann resigned.")
    expect(captions.nth(1)).to_contain_text("AI level 3")
    shot(page, "end-phone")


# -- 9: the lists of games and players on a wide screen ----------------------------------------


def test_the_lists_use_a_wide_screen(desk: Page, web_server: ServerProcess) -> None:
    page = desk
    name = "Wide" + uuid.uuid4().hex[:8].replace("0", "a").replace("1", "b")
    page.goto(f"{web_server.url}/signup")
    page.fill("#field-name", name)
    page.fill("#field-password", "quilted-squares-9")
    page.click("#signup-form-submit")
    expect(page.locator("#head-me")).to_contain_text(name)
    width = DESKTOP["width"]
    for path in ("/leaderboard", "/me/games", f"/players/{name}"):
        page.goto(f"{web_server.url}{path}")
        box = page.locator("main .page").bounding_box()
        assert box is not None and box["width"] >= 0.75 * width, (path, box)
        cards = page.locator("main .page > .card")
        tops = {round(cards.nth(i).bounding_box()["y"]) for i in range(cards.count())}  # type: ignore[index]
        assert len(tops) < cards.count(), f"{path}: the cards side by side, not in one column"
    shot(page, "profile-wide", full_page=False)
    page.goto(f"{web_server.url}/me/games")
    active = page.locator("#games-active").bounding_box()
    finished = page.locator("#games-finished").bounding_box()
    assert active and finished and abs(active["y"] - finished["y"]) < 2
    shot(page, "my-games-wide", full_page=False)
