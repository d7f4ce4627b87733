"""The catalogs themselves: complete, compiled, faithful to their placeholders, extracted from
the current source, with each language's plural rules, and Persian written with its digits."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from patchwork import i18n
from patchwork.i18n import tools

LANGS = tuple(code for code in i18n.LANGUAGES if code != "en")  # every catalog
# As Babel (CLDR) gives them: French, Spanish, Italian and Portuguese have a form for millions.
NPLURALS = {
    "fa": 2,
    "pt": 3,
    "ru": 3,
    "fi": 2,
    "de": 2,
    "fr": 3,
    "es": 3,
    "it": 3,
    "zh": 1,
    "ja": 1,
}


def catalog(lang: str) -> Any:
    return tools.read_catalog(tools.po_path(lang))


def messages(lang: str) -> list[Any]:
    return [m for m in catalog(lang) if m.id]


def test_every_language_ships_a_catalog() -> None:
    assert tools.languages() == sorted(LANGS)
    assert i18n.available_languages() == ("en", *sorted(LANGS))
    assert LANGS == ("fa", "pt", "ru", "fi", "de", "fr", "es", "it", "zh", "ja")
    assert set(i18n.LANGUAGES) == {"en", *LANGS}


@pytest.mark.parametrize("lang", LANGS)
def test_catalog_is_complete_and_nothing_is_fuzzy(lang: str) -> None:
    cat = catalog(lang)
    assert not cat.fuzzy
    entries = messages(lang)
    assert len(entries) > 400
    untranslated = [m.id for m in entries if not tools._translated(m)]
    fuzzy = [m.id for m in entries if m.fuzzy]
    assert untranslated == [] and fuzzy == []


@pytest.mark.parametrize("lang", LANGS)
def test_catalog_matches_the_pot(lang: str) -> None:
    pot = tools.msgids(tools.read_catalog(tools.POT))
    assert tools.msgids(catalog(lang)) == pot


@pytest.mark.parametrize("lang", LANGS)
def test_plural_rules(lang: str) -> None:
    cat = catalog(lang)
    assert cat.num_plurals == NPLURALS[lang]
    for m in messages(lang):
        if isinstance(m.id, tuple):
            assert len(m.string) == NPLURALS[lang], m.id


def test_russian_plural_forms_are_chosen_by_gettext() -> None:
    t = i18n.translation("ru")
    forms = [t.ngettext("{n} legal move:", "{n} legal moves:", n).format(n=n) for n in (1, 3, 7)]
    assert forms == ["1 допустимый ход:", "3 допустимых хода:", "7 допустимых ходов:"]
    assert t.ngettext("{n} legal move:", "{n} legal moves:", 21).startswith("{n} допустимый")
    fi = i18n.translation("fi")
    assert fi.ngettext("Took back {n} move.", "Took back {n} moves.", 2) == "{n} siirtoa peruttu."


@pytest.mark.parametrize("lang", LANGS)
def test_placeholders_match_the_source(lang: str) -> None:
    """Every ``{name}`` of the source is in the translation (each plural form too) and no
    other: a wrong one would raise KeyError at run time, a missing one lose information."""
    found = [p for p in tools.problems(lang) if "placeholders" in p or "plural forms" in p]
    assert found == []
    for m in messages(lang):
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        source = set().union(*(tools.placeholders(i) for i in ids))
        for text in strings:
            assert tools.placeholders(text) <= source, (m.id, text)
            # And the translation formats: the same format specs ({win:.0%}) are kept.
            values = {name: 1 for name in source}
            text.format(**values)
    assert tools.placeholders("a {x} b {y:.1f} {z!r} {{not}}") == {"x", "y", "z"}


def test_the_checker_finds_placeholder_mistakes(tmp_path: Path) -> None:
    po = tmp_path / "xx" / "LC_MESSAGES" / "patchwork.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgid "score now {s}"\nmsgstr "pisteet {x}"\n\n'
        'msgid "{n} move"\nmsgid_plural "{n} moves"\nmsgstr[0] "siirto"\nmsgstr[1] "siirtoa"\n\n'
        '#, fuzzy\nmsgid "Quit"\nmsgstr "Lopeta"\n\nmsgid "Undo"\nmsgstr ""\n',
        encoding="utf-8",
    )
    original = tools.po_path
    try:
        tools.po_path = lambda lang: po  # type: ignore[assignment]
        found = tools.problems("xx")
    finally:
        tools.po_path = original  # type: ignore[assignment]
    text = "\n".join(found)
    assert "placeholders ['x']" in text and "'pisteet {x}'" in text
    assert "'siirtoa'" in text  # the last plural form lost {n}
    assert "fuzzy: 'Quit'" in text and "untranslated: 'Undo'" in text
    assert "no compiled catalog" in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_compiled_catalog_is_the_po_file(lang: str) -> None:
    """The committed .mo files are compiled from the committed .po files (run
    ``python -m patchwork.i18n.tools compile`` after editing a .po)."""
    assert [p for p in tools.problems(lang) if ".mo" in p] == []
    t = i18n.translation(lang)
    for m in messages(lang):
        if isinstance(m.id, tuple) or m.context:
            continue
        assert t.gettext(m.id) == m.string


def test_catalogs_compile_with_babel(tmp_path: Path) -> None:
    from babel.messages.mofile import write_mo

    for lang in LANGS:
        out = tmp_path / f"{lang}.mo"
        with out.open("wb") as f:
            write_mo(f, catalog(lang))
        assert out.read_bytes() == tools.po_path(lang).with_suffix(".mo").read_bytes()


def test_the_pot_is_up_to_date_with_the_source() -> None:
    """Re-extract the source (Python and the web client's JavaScript) and compare msgids:
    a text added or changed in the code needs ``python -m patchwork.i18n.tools all``."""
    missing, gone = tools.stale_pot()
    assert missing == set(), f"not in the POT yet: {sorted(missing, key=str)[:5]}"
    assert gone == set(), f"in the POT but no longer in the source: {sorted(gone, key=str)[:5]}"


def test_no_text_hides_where_the_extractor_cannot_see_it() -> None:
    """Babel reads neither a Python f-string's fields nor a JavaScript template literal's:
    a ``_("...")`` inside ``{...}`` or ``${...}`` never reaches the catalogs."""
    src = Path(i18n.__file__).resolve().parent.parent
    literal = r"_\(\s*[\"'`]"  # _("a text"), not _(a_variable)
    hidden = re.compile(rf"\$\{{\s*{literal}|\bf\"[^\"]*\{{\s*{literal}|\bf'[^']*\{{\s*{literal}")
    found = [
        f"{path.relative_to(src)}:{n}"
        for path in [*src.rglob("*.py"), *src.rglob("*.js")]
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if hidden.search(line)
    ]
    assert found == []


def test_the_pot_holds_every_part_of_the_program() -> None:
    pot = tools.read_catalog(tools.POT)
    files = {loc[0] for m in pot for loc in m.locations}
    for part in ("src/patchwork/cli.py", "src/patchwork/tui/", "src/patchwork/server/games/"):
        assert any(f.startswith(part) for f in files), part
    ids = tools.msgids(pot)
    assert ("", "Rotate") in ids and ("key", "space") in ids
    assert ("", "it is player {seat}'s turn") in ids  # a server message
    assert ("", "usage: patchwork COMMAND [options]") in ids  # the command line


# -- the Persian digits policy ---------------------------------------------------------------

# What may keep ASCII digits in Persian: move notation, square names, keys, orientation
# names, agent names, addresses and URLs (things a person types or reads as code).
CODE = re.compile(
    r"\{[^{}]*\}"  # placeholders
    r"|\d{1,2}[rf]\d{1,3}@[a-i][1-9]"  # 17r90@c4
    r"|\b[rf](?:0|90|180|270)\b"  # orientations
    r"|\b[a-i][1-9]\b"  # squares
    r"|\b[a-i]-[a-i]\b|\b1-9\b|\b1-3\b|1 2 3"  # ranges of squares and keys
    r"|level\d+|\b\d+(?:\.\d+){3}\b"  # agent names, addresses
    r"|'moves 17'|moves 17|\S+://\S+"  # a typed command, URLs
)


def test_persian_uses_persian_digits() -> None:
    for m in messages("fa"):
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for text in strings:
            rest = CODE.sub("", text)
            assert not re.search(r"[0-9]", rest), (m.id, text)
    t = i18n.translation("fa")
    assert i18n.fill("Player {n}", {"n": 2}, i18n.translator("fa")) == "بازیکن ۲"
    assert "۱۰ دقیقه + ۵ ثانیه" in t.gettext("10 minutes + 5 s a move")
    assert "17r90@c4" in (i18n.howto_markdown("fa") or "")


def test_digit_helpers() -> None:
    assert i18n.digits(1234567890, "fa") == "۱۲۳۴۵۶۷۸۹۰"
    assert i18n.digits("a1 is 7", "fa") == "a۱ is ۷"  # only for text without notation
    assert i18n.digits(42, "ru") == "42" and i18n.digits(5, "pt_BR") == "5"
    assert i18n.number(-5, lang="fa") == "\u200e\u2212۵"
    assert i18n.number(0.5, ".0%", "fa") == "۵۰٪"
    assert i18n.number(1.5, "+.1f", "fa") == "\u200e+۱٫۵"
    # Every other language's signs from CLDR: decimal commas, the minus sign, the percent's space.
    assert i18n.number(-3, lang="fi") == "\u22123" and i18n.number(-3, lang="de") == "-3"
    assert i18n.number(1.5, ".1f", "de") == "1,5" and i18n.number(1.5, ".1f", "ja") == "1.5"
    assert i18n.number(0.54, ".0%", "fr") == "54\xa0%" and i18n.number(0.54, ".0%", "it") == "54%"
    assert i18n.number(1234567, ",", "de") == "1.234.567" and i18n.number(7, lang="xx") == "7"
    assert i18n.native_digits("fa_IR") == "۰۱۲۳۴۵۶۷۸۹"
    assert i18n.ascii_digits("۱۷r90@c۴ ٣") == "17r90@c4 3"


def test_fmt_writes_numbers_in_the_language_and_leaves_notation_alone() -> None:
    template = "{name} buys patch {id} ({move}): {win:.0%}, {buttons} buttons"
    values: dict[str, Any] = {"name": "A", "id": 17, "move": "17r90@c4", "win": 0.25}
    try:
        i18n.set_language("fa")
        assert i18n.fmt(template, buttons=5, **values) == (
            "A buys patch ۱۷ (17r90@c4): ۲۵٪, ۵ buttons"
        )
        assert i18n.fmt("{ok}", ok=True) == "True"  # booleans are not numbers
        i18n.set_language("ru")  # a Russian percentage has a (no-break) space before its sign
        assert i18n.fmt(template, buttons=5, **values) == (
            "A buys patch 17 (17r90@c4): 25\xa0%, 5 buttons"
        )
        i18n.set_language("ja")
        assert i18n.fmt(template, buttons=5, **values) == template.format(buttons=5, **values)
    finally:
        i18n.set_language("en")
    t = i18n.translator("fa")
    assert t.format("Player {n}", n=2) == "بازیکن ۲"
    assert i18n.translator("ko").language == "en"


def test_language_names_and_directions() -> None:
    assert [i18n.language_name(c) for c in i18n.LANGUAGES] == [
        "English",
        "فارسی",
        "Português",
        "Русский",
        "Suomi",
        "Deutsch",
        "Français",
        "Español",
        "Italiano",
        "简体中文",
        "日本語",
    ]
    assert i18n.direction("fa") == "rtl" and i18n.direction("pt_BR") == "ltr"
    assert i18n.lang_option(["--seed", "3", "--lang", "fa"]) == "fa"
    assert i18n.lang_option(["--lang=ru"]) == "ru"
    assert i18n.lang_option(["--", "--lang", "fa"]) is None
    assert i18n.supported("pt-BR") == "pt" and i18n.supported("ko") is None
    assert i18n.supported("zh-Hans-CN") == "zh" and i18n.supported("ja_JP.UTF-8") == "ja"


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_how_to_play_in_every_language(lang: str) -> None:
    text = i18n.howto_markdown(lang)
    assert text is not None and text.startswith("# ")
    # The same sections and the same notation examples in every language.
    assert text.count("\n## ") == 7
    for code in ("`A`", "`17r90@c4`", "`S@e5`", "`r0 r90 r180 r270`", "`f0 f90 f180 f270`"):
        assert code in text, code
    assert i18n.howto_markdown("xx") is None
