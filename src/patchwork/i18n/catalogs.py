"""The compiled catalogs as data: what the server sends to the web client.

The web client translates with the very catalogs the terminal and the server use: the
``.mo`` file of a language is read here (the GNU gettext format, no Babel needed at run
time) and exported as plain JSON, so no second copy of any translation exists.
"""

from __future__ import annotations

import re
import struct
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import (
    DOMAIN,
    LOCALE_DIR,
    SOURCE_LANGUAGE,
    available_languages,
    direction,
    language_name,
    native_digits,
)

MO_MAGIC = 0x950412DE
ENGLISH_PLURAL = "(n != 1)"
_PLURAL = re.compile(r"plural\s*=\s*(.+?)\s*;?\s*$", re.S)
_NPLURALS = re.compile(r"nplurals\s*=\s*(\d+)")


def mo_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def read_mo(data: bytes) -> dict[str, str]:
    """The entries of a ``.mo`` file: msgid -> msgstr, as stored (a plural entry's id is
    ``singular\\0plural`` and its text the forms joined by ``\\0``; the header's id is "")."""
    if len(data) < 28:
        raise ValueError("not a .mo file: too short")
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == MO_MAGIC else ">"
    if struct.unpack(f"{order}I", data[:4])[0] != MO_MAGIC:
        raise ValueError("not a .mo file: bad magic number")
    _magic, _revision, count, ids_at, strs_at = struct.unpack(f"{order}5I", data[:20])
    entries: dict[str, str] = {}
    for i in range(count):
        id_len, id_off = struct.unpack(f"{order}2I", data[ids_at + 8 * i : ids_at + 8 * i + 8])
        s_len, s_off = struct.unpack(f"{order}2I", data[strs_at + 8 * i : strs_at + 8 * i + 8])
        key = data[id_off : id_off + id_len].decode("utf-8")
        entries[key] = data[s_off : s_off + s_len].decode("utf-8")
    return entries


def headers(entries: dict[str, str]) -> dict[str, str]:
    """The catalog's header fields (``Plural-Forms``, ``Language``, ...)."""
    fields: dict[str, str] = {}
    for line in entries.get("", "").splitlines():
        name, sep, value = line.partition(":")
        if sep:
            fields[name.strip().lower()] = value.strip()
    return fields


def plural_expression(entries: dict[str, str]) -> tuple[int, str]:
    """``(nplurals, C expression in n)`` from the catalog's ``Plural-Forms`` header."""
    forms = headers(entries).get("plural-forms", "")
    n = _NPLURALS.search(forms)
    expr = _PLURAL.search(forms)
    if n is None or expr is None:
        return 2, ENGLISH_PLURAL
    return int(n.group(1)), expr.group(1).strip()


@lru_cache(maxsize=16)
def export(lang: str) -> dict[str, Any] | None:
    """A language's catalog for the web client (None when no catalog is shipped)::

        {"language": "fa", "dir": "rtl", "plural": "(n != 1)", "nplurals": 2,
         "name": "فارسی", "digits": "۰۱۲۳۴۵۶۷۸۹",
         "messages": {msgid: msgstr}, "plurals": {singular: [form0, form1, ...]}}

    English (the source) has no catalog: it is exported empty, and a client shows msgids.
    Untranslated entries are left out, so the client falls back to the source text."""
    if lang == SOURCE_LANGUAGE:
        entries: dict[str, str] = {}
    elif lang in available_languages():
        entries = read_mo(mo_path(lang).read_bytes())
    else:
        return None
    nplurals, plural = plural_expression(entries)
    messages: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    for key, text in entries.items():
        if not key or not text:
            continue
        if "\0" in key:
            plurals[key.split("\0", 1)[0]] = text.split("\0")
        else:
            messages[key] = text
    return {
        "language": lang,
        "name": language_name(lang),
        "dir": direction(lang),
        "plural": plural,
        "nplurals": nplurals,
        "digits": native_digits(lang),
        "messages": messages,
        "plurals": plurals,
    }


def languages() -> list[dict[str, str]]:
    """Every language with a catalog, English first: code, own name, text direction."""
    return [
        {"code": code, "name": language_name(code), "dir": direction(code)}
        for code in available_languages()
    ]
