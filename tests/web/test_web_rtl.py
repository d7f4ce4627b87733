"""The web client in Persian: the page is laid out right to left (``<html dir="rtl">``), its
texts come from the Persian catalog with Persian digits, and the boards are not mirrored
(column a on the left, row 1 at the top, square names and notation unchanged). Screenshots
are kept in test-output/screenshots/ by `make shots`."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from conftest import TIMEOUT_MS, advance, shot, start_game, view, wait_my_turn, watch_errors
from patchwork import i18n
from server_fixtures import ServerProcess

PERSIAN = "۰۱۲۳۴۵۶۷۸۹"


def persian_digits(text: str) -> str:
    return "".join(PERSIAN[int(c)] if c.isascii() and c.isdigit() else c for c in text)


def ai_name_fa(level: int) -> str:
    """The computer's name in Persian as the catalog gives it ("AI level 3")."""
    return persian_digits(i18n.translator("fa").gettext("AI level {n}").replace("{n}", str(level)))


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


# Where "(", "a1" and ")" of "(a1 is the top-left square)" lie across the page (x of each), and
# whether a1 is isolated from the text around it.
BRACKETS_JS = """() => {
  const a1 = [...document.querySelectorAll('.howto bdi')].find(b => b.textContent === 'a1');
  if (!a1) return {isolated: false};
  const x = (node, i) => { const r = document.createRange(); r.setStart(node, i);
    r.setEnd(node, i + 1); return r.getBoundingClientRect().x; };
  let from = a1, to = a1;  // out of the <strong> around it, to the text with the brackets
  while (!(from.previousSibling && from.previousSibling.nodeType === 3)) from = from.parentElement;
  while (!(to.nextSibling && to.nextSibling.nodeType === 3)) to = to.parentElement;
  const before = from.previousSibling, after = to.nextSibling;
  return {isolated: getComputedStyle(a1).unicodeBidi === 'isolate',
    open: x(before, before.data.lastIndexOf('(')), a1: a1.getBoundingClientRect().x,
    close: x(after, after.data.indexOf(')'))};
}"""


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
    assert "یک بازیکن باشگاهی: چند نوبت" in start and "club player" not in start
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
    # Latin fragments are isolated, so brackets keep their places around them: "(a1 ...)"
    # reads from the right, the bracket before a1; notation keeps to one line.
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        order = page.evaluate(BRACKETS_JS)
        assert order["isolated"], order
        assert order["open"] > order["a1"] > order["close"], order
        split = page.evaluate(
            "[...document.querySelectorAll('.howto code, .howto bdi')]"
            ".filter(c => c.getClientRects().length > 1).map(c => c.textContent)"
        )
        assert split == [], split
    page.set_viewport_size({"width": 1280, "height": 900})
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
    expect(line).to_contain_text(ai_name_fa(1))
    said = line.inner_text()
    assert any(ch in "۰۱۲۳۴۵۶۷۸۹" for ch in said), said
    assert not any(ch in "0123456789" for ch in said), said
    shot(page, "fa-move-list", full_page=False)
    # The hint: in words with Persian digits, its notation (the details) likewise.
    page.click("#hint")
    status = page.locator("#place-status")
    expect(status).to_have_attribute("data-kind", "hint", timeout=90_000)
    said = status.inner_text()
    assert not any(ch in "0123456789" for ch in said), said
    assert any(ch in PERSIAN for ch in said), said


def resigned_game_against_the_ai(server: ServerProcess, name: str) -> str:
    """A game against the AI (level 1) with a few moves, resigned: over, and reviewable."""
    created = server.create(mode="ai", level=1, name=name, seed=9)
    gid, token = created["game_id"], created["token"]
    for _ in range(3):
        for _ in range(200):
            g = view(server, gid)
            if g["to_move"] == 0:
                break
            time.sleep(0.05)
        r = server.post(f"/api/games/{gid}/moves", {"move": "A", "version": g["version"]}, token)
        assert r.status_code == 200, r.text
    r = server.post(f"/api/games/{gid}/resign", None, token)
    assert r.status_code == 200, r.text
    return gid


def test_the_persian_review_and_replay(persian: Page, web_server: ServerProcess) -> None:
    page = persian
    gid = resigned_game_against_the_ai(web_server, "سارا")
    page.goto(f"{web_server.url}/play/{gid}?replay=1&review=1")
    expect(page.locator("#review[data-ready='1']")).to_be_visible(timeout=60_000)
    # The review's header names the players as the replay does, the AI in Persian too.
    names = page.locator(".review-player .name").all_inner_texts()
    assert names == ["سارا", ai_name_fa(1)], names
    assert not any(ch in "0123456789" for n in names for ch in n), names
    # Moves with Persian digits everywhere: the review's list, the detail, the caption.
    codes = page.locator("#review-moves code").all_inner_texts()
    assert codes and not any(ch in "0123456789" for c in codes for ch in c), codes
    page.click("#review-moves li[data-ply='2'] button")
    for where in ("#replay-caption", "#review-detail"):
        # (A board's coordinates, a-i and 1-9, name squares: they keep their Latin digits,
        # as square names do everywhere: docs/translating.md.)
        text = page.locator(where).evaluate(
            "e => { const c = e.cloneNode(true); c.querySelectorAll('svg').forEach((s) => "
            "s.remove()); return c.textContent; }"
        )
        assert not any(ch in "0123456789" for ch in text), (where, text)
    # No middle dot between figures: it reads as a Persian zero ("۶ · اشتباه" as "۶۰").
    for where in (".review-player", ".figures-line", ".review-chart-box figcaption"):
        for text in page.locator(where).all_inner_texts():
            assert "·" not in text, (where, text)
    # The slider runs right to left: the step arrows point that way, and so do the keys.
    flipped = page.evaluate(
        "[...document.querySelectorAll('.replay-controls .svg-icon')]"
        ".every(s => getComputedStyle(s).transform === 'matrix(-1, 0, 0, 1, 0, 0)')"
    )
    assert flipped
    prev = page.locator("#replay-prev").bounding_box()
    nxt = page.locator("#replay-next").bounding_box()
    assert prev and nxt and prev["x"] > nxt["x"], "next lies to the left, where the slider goes"
    page.click("#replay-prev")  # position 1
    page.locator("#replay-slider").focus()
    at = int(page.input_value("#replay-slider"))
    page.keyboard.press("ArrowLeft")
    assert int(page.input_value("#replay-slider")) == at + 1
    page.keyboard.press("ArrowRight")
    assert int(page.input_value("#replay-slider")) == at
    shot(page, "fa-review")
