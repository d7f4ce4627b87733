"""The i18n layer: choosing the language, falling back to English, and real catalogs."""

from __future__ import annotations

import struct
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from patchwork import i18n

PLURAL_HEADER = (
    "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=(n != 1);\n"
)


def write_mo(path: Path, messages: Mapping[str, str]) -> Path:
    """Write a GNU gettext .mo catalog (what msgfmt produces): ``messages`` maps source
    texts to translations; a plural entry is ``"one\\0many" -> "form0\\0form1"``."""
    entries = sorted({"": PLURAL_HEADER, **messages}.items())
    ids = [k.encode() for k, _ in entries]
    strs = [v.encode() for _, v in entries]
    n = len(entries)
    start = 7 * 4 + 16 * n  # header, then the two tables of (length, offset)
    blob = b""
    id_table, str_table = [], []
    for data, table in [(d, id_table) for d in ids] + [(d, str_table) for d in strs]:
        table.append((len(data), start + len(blob)))
        blob += data + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, n, 7 * 4, 7 * 4 + 8 * n, 0, 0)
    tables = b"".join(struct.pack("<2I", *e) for e in id_table + str_table)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(header + tables + blob)
    return path


def catalog(root: Path, lang: str, messages: Mapping[str, str]) -> Path:
    write_mo(root / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo", messages)
    return root


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.set_language("en")


def test_english_source_texts_without_a_catalog() -> None:
    assert i18n.set_language("en") == "en"
    assert i18n._("Rotate") == "Rotate"
    assert i18n.ngettext("{n} move", "{n} moves", 1) == "{n} move"
    assert i18n.ngettext("{n} move", "{n} moves", 3) == "{n} moves"


def test_a_language_without_a_catalog_falls_back_to_english(tmp_path: Path) -> None:
    assert i18n.set_language("fi", localedir=tmp_path) == "fi"
    assert i18n.language() == "fi"
    assert i18n._("Rotate") == "Rotate"
    assert i18n.pgettext("key", "Undo") == "Undo"


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "ru_RU.UTF-8"}, "ru_RU"),
        ({"LANG": "ru_RU.UTF-8", "LC_MESSAGES": "fi_FI.UTF-8"}, "fi_FI"),
        ({"LANG": "ru_RU.UTF-8", "LC_MESSAGES": "fi_FI", "LC_ALL": "pt_BR.utf8"}, "pt_BR"),
        ({"LC_ALL": "pt_BR", "LANGUAGE": "fa:en"}, "fa"),
        ({"LANGUAGE": "", "LANG": "fa_IR"}, "fa_IR"),
        ({"LANGUAGE": ":fi"}, "fi"),
        ({"LANG": "sr_RS@latin"}, "sr_RS"),
    ],
)
def test_language_from_the_locale(environ: dict[str, str], expected: str) -> None:
    assert i18n.system_language(environ) == expected
    assert i18n.resolve_language(None, environ) == expected


def test_lang_option_wins_over_the_locale() -> None:
    env = {"LANG": "ru_RU.UTF-8"}
    assert i18n.resolve_language("pt-br", env) == "pt_BR"
    assert i18n.resolve_language("FI", env) == "fi"
    assert i18n.resolve_language("", env) == "ru_RU"


def test_system_language_reads_the_process_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in i18n.ENVIRONMENT_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "fi_FI.UTF-8")
    assert i18n.system_language() == "fi_FI"
    assert i18n.set_language() == "fi_FI"


def test_a_catalog_translates_texts_and_plurals(tmp_path: Path) -> None:
    root = catalog(
        tmp_path,
        "fi",
        {
            "Rotate": "Käännä",
            "{n} move\0{n} moves": "{n} siirto\0{n} siirtoa",
            "key\x04Undo": "Peru",
        },
    )
    assert i18n.available_languages(root) == ("en", "fi")
    t = i18n.translation("fi", root)
    assert t.gettext("Rotate") == "Käännä"
    assert t.gettext("Not translated") == "Not translated"
    i18n.set_language("fi", localedir=root)
    assert i18n._("Rotate") == "Käännä"
    assert i18n.ngettext("{n} move", "{n} moves", 1).format(n=1) == "1 siirto"
    assert i18n.ngettext("{n} move", "{n} moves", 2).format(n=2) == "2 siirtoa"
    assert i18n.pgettext("key", "Undo") == "Peru"
    assert i18n.N_("Rotate") == "Rotate"  # marked only; translated where it is shown
    i18n.set_language("en", localedir=root)
    assert i18n._("Rotate") == "Rotate"


def test_a_regional_locale_uses_the_language_catalog(tmp_path: Path) -> None:
    root = catalog(tmp_path, "pt", {"Rotate": "Girar"})
    assert i18n.translation("pt_BR", root).gettext("Rotate") == "Girar"
    assert i18n.set_language(None, root) in ("en", i18n.system_language())
    i18n.set_language("pt_BR.UTF-8", root)
    assert i18n._("Rotate") == "Girar"


def test_the_package_catalog_folder_is_where_gettext_looks() -> None:
    assert i18n.LOCALE_DIR.name == "locale"
    assert i18n.LOCALE_DIR.parent == Path(i18n.__file__).parent
    assert i18n.available_languages()[0] == "en"
    assert i18n.translation("en").gettext("Rotate") == "Rotate"


def test_right_to_left_languages() -> None:
    assert i18n.is_right_to_left("fa")
    assert i18n.is_right_to_left("fa_IR")
    assert not i18n.is_right_to_left("fi")
    i18n.set_language("en")
    assert not i18n.is_right_to_left()
