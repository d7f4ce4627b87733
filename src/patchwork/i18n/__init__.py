"""Message catalogs and the helpers that pick a language.

Every text a person reads goes through :func:`_` (or :func:`ngettext` for counts), looked up
in the gettext domain ``patchwork`` under ``locale/<lang>/LC_MESSAGES/patchwork.mo`` inside
this package. Without a catalog for the language the English source text is shown, so a
translation is added by dropping in a catalog, without touching the code that uses it.

The language comes from ``--lang`` when given, else from the system locale
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, the order gettext itself uses).
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "patchwork"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
SOURCE_LANGUAGE = "en"
# The languages the project means to ship (catalogs arrive separately; English is the source).
LANGUAGES = ("en", "fa", "pt", "ru", "fi")
RIGHT_TO_LEFT = frozenset({"fa", "ar", "he", "ur"})
ENVIRONMENT_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_active: gettext.NullTranslations = gettext.NullTranslations()
_language: str = SOURCE_LANGUAGE


def normalize(code: str) -> str:
    """``pt_BR.UTF-8`` -> ``pt_BR``, ``ru-RU`` -> ``ru_RU``, ``C``/``POSIX``/empty -> ``en``."""
    text = code.strip().split(".", 1)[0].split("@", 1)[0].replace("-", "_")
    if text.upper() in ("", "C", "POSIX"):
        return SOURCE_LANGUAGE
    lang, _sep, region = text.partition("_")
    return f"{lang.lower()}_{region.upper()}" if region else lang.lower()


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the system locale asks for (English when none is set)."""
    env = os.environ if environ is None else environ
    for name in ENVIRONMENT_VARIABLES:
        value = env.get(name, "")
        # LANGUAGE may list several languages in order of preference: take the first one.
        first = next((part for part in value.split(":") if part.strip()), "")
        if first:
            return normalize(first)
    return SOURCE_LANGUAGE


def resolve_language(lang: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """``lang`` (from ``--lang``) when given, else the system locale's language."""
    return normalize(lang) if lang else system_language(environ)


def _candidates(language: str) -> list[str]:
    # gettext tries each in turn: "pt_BR" finds a pt_BR catalog or else a pt one.
    base = language.split("_", 1)[0]
    return [language] if base == language else [language, base]


def translation(
    lang: str | None = None, localedir: str | os.PathLike[str] | None = None
) -> gettext.NullTranslations:
    """The catalog for ``lang`` (or the system locale); English source texts when none exists."""
    language = resolve_language(lang)
    return gettext.translation(
        DOMAIN,
        localedir=str(LOCALE_DIR if localedir is None else localedir),
        languages=_candidates(language),
        fallback=True,
    )


def set_language(lang: str | None = None, localedir: str | os.PathLike[str] | None = None) -> str:
    """Make ``lang`` (or the system locale's language) the one ``_`` translates into;
    returns the language chosen."""
    global _active, _language
    _language = resolve_language(lang)
    _active = translation(_language, localedir)
    return _language


def language() -> str:
    """The language set by :func:`set_language` (English until then)."""
    return _language


def is_right_to_left(lang: str | None = None) -> bool:
    """Whether ``lang`` (default: the current language) is written right to left."""
    return (lang or _language).split("_", 1)[0] in RIGHT_TO_LEFT


def available_languages(localedir: str | os.PathLike[str] | None = None) -> tuple[str, ...]:
    """English plus every language with an installed catalog."""
    root = Path(LOCALE_DIR if localedir is None else localedir)
    found = (
        sorted(p.parent.parent.name for p in root.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
        if root.is_dir()
        else []
    )
    return (SOURCE_LANGUAGE, *(lang for lang in found if lang != SOURCE_LANGUAGE))


def _(message: str) -> str:
    """``message`` in the current language."""
    return _active.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count ``n`` in the current language."""
    return _active.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from the same English words used
    elsewhere by ``context`` (e.g. "quilt square" vs "time board space")."""
    return _active.pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it yet (translate it when shown)."""
    return message


__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "_",
    "available_languages",
    "is_right_to_left",
    "language",
    "ngettext",
    "normalize",
    "pgettext",
    "resolve_language",
    "set_language",
    "system_language",
    "translation",
]
