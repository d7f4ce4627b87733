"""Text fitted to terminal cells: every catalog's sentences broken into lines that fit, Chinese
and Japanese between characters but never before a closing mark nor after an opening one, the
other languages at spaces exactly as textwrap does; styles kept; the app's panels in Japanese."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from itertools import pairwise

import pytest
from rich.cells import cell_len
from rich.text import Text
from textual.pilot import Pilot

from patchwork import i18n
from patchwork.i18n import tools
from patchwork.i18n.cells import NO_LINE_END, NO_LINE_START, fold, pad, wrap
from patchwork.tui.app import PatchworkApp
from test_tui_app import make_app, play, screen_text
from test_tui_care import from_cell


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.set_language("en")


def sentences(lang: str) -> list[str]:
    """The catalog's texts, one line each, with their placeholders left in."""
    out = []
    for m in tools.read_catalog(tools.po_path(lang)):
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        out += [line for text in strings if m.id for line in text.split("\n") if line.strip()]
    return out


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_every_chinese_and_japanese_text_breaks_where_its_language_allows(lang: str) -> None:
    texts = sentences(lang)
    assert len(texts) > 800
    for width in (12, 20, 37, 60):
        for text in texts:
            lines = wrap(text, width, subsequent_indent=" ")
            assert all(cell_len(line) <= width for line in lines), (width, text, lines)
            # Nothing lost or added but the breaks (and the spaces that stood there).
            assert "".join(lines).replace(" ", "") == text.replace(" ", ""), (text, lines)
            for before, after in pairwise(lines):
                # A unit longer than a whole line is cut where it must: only there may a mark
                # begin a line.
                first, last = after.strip()[0], before.rstrip()[-1]
                if cell_len(before) < width - 1 and cell_len(first + last) == 4:
                    assert first not in NO_LINE_START, (width, text, lines)
                    assert last not in NO_LINE_END, (width, text, lines)


@pytest.mark.parametrize("lang", ["en", "de", "fr", "ru"])
def test_languages_with_spaces_wrap_as_textwrap_does(lang: str) -> None:
    english = [line for m in tools.read_catalog(tools.POT) if isinstance(m.id, str)
               for line in m.id.split("\n")]  # fmt: skip
    for text in sentences(lang) if lang != "en" else english:
        if len(max(text.split() or [""], key=len)) >= 30:
            continue  # textwrap cuts a word longer than the line in place; wrap moves it on
        expected = textwrap.wrap(text, 30, subsequent_indent=" ", break_on_hyphens=False)
        expected = expected or [""]
        assert wrap(text, 30, subsequent_indent=" ") == expected, text


def test_a_chinese_line_fills_its_width_and_keeps_its_marks() -> None:
    text = "选一块布块（1-3 或点击），或前进（a）。"
    assert wrap(text, 20) == ["选一块布块（1-3 或点", "击），或前进（a）。"]
    assert wrap("パッチを選ぶ（1-3 またはクリック）か、進んでください（a）。", 37) == [
        "パッチを選ぶ（1-3 またはクリック）",
        "か、進んでください（a）。",
    ]
    assert wrap("x" * 25, 10, "", "  ") == ["x" * 10, "  " + "x" * 8, "  " + "x" * 7]
    assert pad("布块", 6) == "布块  " and pad("abc", 2) == "abc"


def test_fold_keeps_the_styles_across_the_breaks() -> None:
    text = Text("选一块布块（1-3 或点击），")
    text.append("或前进（a）。", "bold")
    text.append("\nsecond line")
    folded = fold(text, 20)
    assert folded.plain == "选一块布块（1-3 或点\n击），或前进（a）。\nsecond line"
    bold = "".join(folded.plain[s.start : s.end] for s in folded.spans if s.style == "bold")
    assert bold == "或前进（a）。"
    assert fold(text, 0) is text  # not laid out yet: left to the widget


def test_the_japanese_app_breaks_its_prose_by_japanese_rules() -> None:
    i18n.set_language("ja")

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        detail = app.game_screen.query_one("#detail").region
        rows = screen_text(app).splitlines()
        shown = [from_cell(rows[y], detail.x).strip() for y in range(detail.y, detail.bottom)]
        words = i18n.translation("ja").gettext("Pick a patch (1-3 or click it), or advance (a).")
        assert "".join(shown).replace(" ", "") == words.replace(" ", ""), shown
        assert len([row for row in shown if row]) == 2  # two lines of the panel's three
        assert all(row[0] not in NO_LINE_START for row in shown if row), shown

    play(make_app(seed=3), script)
