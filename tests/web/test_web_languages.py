"""The languages added to the first five (German, French, Spanish, Italian, Chinese, Japanese),
in the browser as a person meets them: the page in the browser's own language, the table in a
game, the end screen and How to play, on a laptop and on a phone; every text from the catalog,
no English left where a translation exists, nothing spilling out of its box or the screen."""

from __future__ import annotations

import functools
import re
import subprocess

import pytest
from playwright.sync_api import Browser, Page, expect

from conftest import TIMEOUT_MS, finished_game, keep_seat, random_moves, shot, watch_errors
from patchwork import i18n
from patchwork.i18n import tools
from server_fixtures import ServerProcess

# English first: the source's layout, the yardstick the translations are held to.
LOCALES = {
    "en": "en-GB",
    "de": "de-DE",
    "fr": "fr-FR",
    "es": "es-ES",
    "it": "it-IT",
    "zh": "zh-CN",
    "ja": "ja-JP",
}
LAPTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

# Boxes whose text must fit them: a word or a label cut short or running over its neighbour
# is what a long German word or a line of Chinese does first. Boxes that end a long name with
# an ellipsis on purpose are left out.
SPILLS = """() => [...document.querySelectorAll(
    'button, summary, label, h1, h2, h3, dt, th, .tag, .option-title, .head-link, .player-name')]
  .filter(e => e.offsetParent !== null && !e.closest('.visually-hidden'))
  .filter(e => getComputedStyle(e).textOverflow !== 'ellipsis')
  .filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 2)
  .filter(e => getComputedStyle(e).overflow !== 'visible' || e.scrollWidth > e.clientWidth + 1)
  .map(e => `${e.tagName.toLowerCase()}.${e.className} ${e.scrollWidth}x${e.scrollHeight} in `
    + `${e.clientWidth}x${e.clientHeight}: ${e.textContent.trim().slice(0, 40)}`)"""

# Short labels of one word (Chinese and Japanese write none with spaces; a hyphen may break)
# laid out on more than one line: a word broken in two, or "当前得分" stacked a character a
# line in a narrow box.
BROKEN = """() => [...document.querySelectorAll(
    'dt, th, button, summary, .tag, .option-title, .player-name, .head-link, h1, h2, h3')]
  .filter(e => e.offsetParent !== null && !e.closest('.visually-hidden'))
  .filter(e => !e.querySelector('div, dl, svg, img'))  // a label, not a box of them
  .filter(e => { const t = e.textContent.trim(); return t && !/[\\s-]/.test(t) && t.length <= 16; })
  .filter(e => {
    const range = document.createRange(); range.selectNodeContents(e);
    const rects = [...range.getClientRects()].filter(r => r.width > 0)
      .sort((a, b) => a.top - b.top);
    let lines = 0, bottom = -Infinity;
    for (const r of rects) {
      if (r.top >= bottom - 1) { lines += 1; bottom = r.bottom; }
      else bottom = Math.max(bottom, r.bottom);
    }
    return lines > 1; })
  .map(e => `${e.tagName.toLowerCase()}.${e.className}: ${e.textContent.trim()}`)"""


@functools.cache
def english_left(lang: str) -> tuple[str, ...]:
    """The catalog's texts (no placeholders, three words or more) whose English differs from
    the translation: none of them may be read on a page in ``lang``."""
    texts: list[str] = []
    for m in tools.read_catalog(tools.po_path(lang)) if lang != "en" else []:
        plain = isinstance(m.id, str) and isinstance(m.string, str) and "{" not in m.id
        if plain and len(m.id.split()) >= 3 and m.string != m.id:
            texts.append(m.id)
    return tuple(texts)


def looks_right(page: Page, lang: str, name: str) -> None:
    """A screenshot to look at (`make shots`; taken first, so that a failure has its picture), then:
    nothing wider than the screen, no text spilling from its box, no English left."""
    shot(page, f"lang-{lang}-{name}")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1"), name
    assert page.evaluate(SPILLS) == [], name
    assert page.evaluate(BROKEN) == [], name
    shown = page.inner_text("body")
    assert [text for text in english_left(lang) if text in shown] == [], name


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_table_the_end_and_how_to_play(
    lang: str, browser: Browser, web_server: ServerProcess
) -> None:
    t = i18n.translator(lang)
    assert t.language == lang
    ctx = browser.new_context(viewport=LAPTOP, locale=LOCALES[lang])
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    errors = watch_errors(page)
    try:
        # The start page speaks the browser's language.
        page.goto(f"{web_server.url}/")
        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
        expect(page.locator(".howto-link")).to_have_text(t.gettext("How to play"))
        expect(page.locator("#language")).to_have_value(lang)
        looks_right(page, lang, "start")
        # A game at one screen after some moves: the table, then on a phone.
        created = web_server.create(mode="local", seed=11, name="Ann", opponent_name="Bob")
        gid, token = created["game_id"], created["token"]
        random_moves(web_server, gid, token, created["game"], 16)
        keep_seat(page, gid, token, None)
        page.goto(f"{web_server.url}/play/{gid}")
        score = page.locator(".figures dt").filter(has_text=t.gettext("Score now"))
        expect(score.first).to_be_visible()
        looks_right(page, lang, "table")
        page.set_viewport_size(PHONE)
        looks_right(page, lang, "table-phone")
        # The end screen, on a phone and on a laptop.
        gid, _game = finished_game(web_server, seed=12)
        page.goto(f"{web_server.url}/play/{gid}")
        expect(page.locator("#end-screen")).to_be_visible()
        expect(page.locator(".figures dt").filter(has_text=t.gettext("Final score"))).to_have_count(
            2
        )
        looks_right(page, lang, "end-phone")
        page.set_viewport_size(LAPTOP)
        looks_right(page, lang, "end")
        # How to play: the page of the language, its pictures drawn.
        page.goto(f"{web_server.url}/howto/{lang}")
        title = (i18n.howto_markdown(lang) or "").splitlines()[0].removeprefix("# ")
        expect(page.locator("h1")).to_have_text(title)
        expect(page.locator("figure.howto-picture:has(svg)")).to_have_count(3)
        looks_right(page, lang, "howto")
        page.set_viewport_size(PHONE)
        looks_right(page, lang, "howto-phone")
    finally:
        ctx.close()
    assert not errors, errors


def test_chinese_and_japanese_are_drawn_with_their_own_fonts(
    browser: Browser, web_server: ServerProcess
) -> None:
    """The same Han characters take each language's forms: the page asks for the Chinese or
    the Japanese face of Noto CJK (installed by `make browser`), never a box."""
    for lang, face in (("zh", "Noto Sans CJK SC"), ("ja", "Noto Sans CJK JP")):
        ctx = browser.new_context(viewport=LAPTOP, locale=LOCALES[lang])
        page = ctx.new_page()
        try:
            page.goto(f"{web_server.url}/howto/{lang}")
            page.wait_for_function(f"document.documentElement.lang === '{lang}'")
            family = page.evaluate("getComputedStyle(document.body).fontFamily")
            assert face in family and re.search(
                r"[\u3040-\u30ff\u4e00-\u9fff]", page.inner_text("h1")
            )
            # The face the page names is one the machine has, for that language's letters.
            lang_fonts = subprocess.run(
                ["fc-list", f":lang={lang}", "family"], capture_output=True, text=True, check=True
            ).stdout
            assert face in lang_fonts
        finally:
            ctx.close()
