"""Message catalogs and the helpers that pick a language.

Every text a person reads goes through :func:`_` (or :func:`ngettext` for counts), looked up
in the gettext domain ``patchwork`` under ``locale/<lang>/LC_MESSAGES/patchwork.mo`` inside
this package. Without a catalog for the language the English source text is shown, so a
translation is added by dropping in a catalog, without touching the code that uses it.

The language comes from ``--lang`` when given, else from the system locale
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, the order gettext itself uses). The
server picks one per request instead (:func:`negotiate`, :func:`translator`): the functions
``_`` and friends translate into the one language of a terminal program.

Numbers: :func:`fmt` fills a translated template and writes its numbers as the language writes
them: its own digits (Persian: ``۰``-``۹``) and, from Babel's CLDR data, its decimal sign, minus
sign and percent (``1,5`` and ``54 %`` in German), while text values such as move notation and
square names (``17r90@c4``, ``e5``) are left exactly as they are, in every language.
"""

from __future__ import annotations

import gettext
import os
import re
import string
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

DOMAIN = "patchwork"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
HOWTO_DIR = Path(__file__).resolve().parent / "howto"
SOURCE_LANGUAGE = "en"
# The languages the project ships (English is the source; the others have catalogs).
LANGUAGES = ("en", "fa", "pt", "ru", "fi", "de", "fr", "es", "it", "zh", "ja")
RIGHT_TO_LEFT = frozenset({"fa", "ar", "he", "ur"})
ENVIRONMENT_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
# Each language's name in that language (what a language menu shows).
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "fa": "فارسی",
    "pt": "Português",
    "ru": "Русский",
    "fi": "Suomi",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "it": "Italiano",
    "zh": "简体中文",
    "ja": "日本語",
}
# The digit policy: languages written with their own digits in the interface. Persian uses
# the Extended Arabic-Indic digits, as Intl.NumberFormat("fa") does in the browser.
PERSIAN_DIGITS = "۰۱۲۳۴۵۶۷۸۹"
NATIVE_DIGITS: dict[str, str] = {"fa": PERSIAN_DIGITS}
_ASCII_DIGITS = "0123456789"
# Persian and Arabic-Indic digits typed by a person, read back as ASCII.
_TO_ASCII = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", _ASCII_DIGITS * 2)

_active: gettext.NullTranslations = gettext.NullTranslations()
_language: str = SOURCE_LANGUAGE


def normalize(code: str) -> str:
    """``pt_BR.UTF-8`` -> ``pt_BR``, ``ru-RU`` -> ``ru_RU``, ``C``/``POSIX``/empty -> ``en``."""
    text = code.strip().split(".", 1)[0].split("@", 1)[0].replace("-", "_")
    if text.upper() in ("", "C", "POSIX"):
        return SOURCE_LANGUAGE
    lang, _sep, region = text.partition("_")
    return f"{lang.lower()}_{region.upper()}" if region else lang.lower()


def base_language(code: str) -> str:
    """``pt_BR`` -> ``pt``."""
    return normalize(code).split("_", 1)[0]


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


def lang_option(argv: list[str]) -> str | None:
    """The value of ``--lang`` in a command line (None when absent), read before the
    parser is built so that its help is already in that language."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def set_language(lang: str | None = None, localedir: str | os.PathLike[str] | None = None) -> str:
    """Make ``lang`` (or the system locale's language) the one ``_`` translates into;
    returns the language chosen."""
    global _active, _language
    _language = resolve_language(lang)
    _active = translation(_language, localedir)
    from .commandline import install  # argparse's own words (usage:, options) follow

    install()
    return _language


def language() -> str:
    """The language set by :func:`set_language` (English until then)."""
    return _language


def is_right_to_left(lang: str | None = None) -> bool:
    """Whether ``lang`` (default: the current language) is written right to left."""
    return base_language(lang or _language) in RIGHT_TO_LEFT


def direction(lang: str | None = None) -> str:
    """``"rtl"`` or ``"ltr"``, as HTML's ``dir`` attribute wants it."""
    return "rtl" if is_right_to_left(lang) else "ltr"


def language_name(lang: str) -> str:
    """A language's name in that language (the code itself when unknown)."""
    return LANGUAGE_NAMES.get(lang, LANGUAGE_NAMES.get(base_language(lang), lang))


def available_languages(localedir: str | os.PathLike[str] | None = None) -> tuple[str, ...]:
    """English plus every language with an installed catalog."""
    root = Path(LOCALE_DIR if localedir is None else localedir)
    found = (
        sorted(p.parent.parent.name for p in root.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
        if root.is_dir()
        else []
    )
    return (SOURCE_LANGUAGE, *(lang for lang in found if lang != SOURCE_LANGUAGE))


@lru_cache(maxsize=1)
def _shipped() -> tuple[str, ...]:
    return available_languages()


def supported(lang: str | None, available: tuple[str, ...] | None = None) -> str | None:
    """The shipped language ``lang`` asks for (``pt_BR`` -> ``pt``), or None."""
    if not lang:
        return None
    langs = _shipped() if available is None else available
    code = normalize(lang)
    for candidate in (code, code.split("_", 1)[0]):
        if candidate in langs:
            return candidate
    return None


_QUALITY = re.compile(r"^q=([0-9.]+)$")


def negotiate(accept_language: str | None, available: tuple[str, ...] | None = None) -> str:
    """The best shipped language for an HTTP ``Accept-Language`` header (English when
    nothing matches): ``"fa-IR,fa;q=0.9,en;q=0.5"`` -> ``"fa"``."""
    wanted: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        tag, *params = (p.strip() for p in part.split(";"))
        quality = 1.0
        for param in params:
            m = _QUALITY.match(param.replace(" ", ""))
            if m:
                try:
                    quality = float(m.group(1))
                except ValueError:
                    quality = 0.0
        if tag and tag != "*" and quality > 0:
            wanted.append((-quality, i, tag))
    for _q, _i, tag in sorted(wanted):
        found = supported(tag, available)
        if found is not None:
            return found
    return SOURCE_LANGUAGE


# -- numbers ---------------------------------------------------------------------------------


def native_digits(lang: str | None = None) -> str:
    """The ten digits ``lang`` (default: the current language) writes numbers with."""
    return NATIVE_DIGITS.get(base_language(lang or _language), _ASCII_DIGITS)


def digits(value: str | int | float, lang: str | None = None) -> str:
    """``value`` with its ASCII digits written in the language's own digits (only the
    digits: use it on numbers and on text that holds no notation)."""
    text = str(value)
    native = native_digits(lang)
    if native == _ASCII_DIGITS:
        return text
    return text.translate(str.maketrans(_ASCII_DIGITS, native))


@lru_cache(maxsize=32)
def _signs(code: str) -> dict[str, str]:
    """What replaces ``.``, ``,``, ``-``, ``+`` and ``%`` of a number Python formatted, in
    ``code``'s way (CLDR's symbols, as Babel gives them): German ``,`` ``.`` and `` %``
    (after a no-break space), Persian ``٫`` and ``٪``, Finnish the minus sign ``−``. English
    and unknown languages: nothing to replace."""
    if code == SOURCE_LANGUAGE:
        return {}
    from babel import Locale, UnknownLocaleError, numbers

    try:
        locale = Locale.parse(code)
    except (UnknownLocaleError, ValueError):
        return {}
    system = "default"
    # The space (if any) between a percentage and its sign: "#,##0\xa0%" -> "\xa0".
    pattern = locale.percent_formats[None].pattern
    before_sign = pattern[pattern.rfind("0") + 1 : pattern.find("%")] if "%" in pattern else ""
    percent = locale.number_symbols[locale.default_numbering_system]["percentSign"]
    signs = {
        ".": numbers.get_decimal_symbol(locale, numbering_system=system),
        ",": numbers.get_group_symbol(locale, numbering_system=system),
        "-": numbers.get_minus_sign_symbol(locale, numbering_system=system),
        "+": numbers.get_plus_sign_symbol(locale, numbering_system=system),
        "%": before_sign + percent,
    }
    return {ascii: sign for ascii, sign in signs.items() if sign != ascii}


def number(value: int | float, spec: str = "", lang: str | None = None) -> str:
    """A number formatted with ``spec`` (as in ``format(value, spec)``) in the language's
    digits and signs: ``number(-5, lang="fa")`` -> ``"‎−۵"``, ``number(0.5, ".0%", "fa")``
    -> ``"۵۰٪"``, ``number(1.5, ".1f", "de")`` -> ``"1,5"``."""
    text = format(value, spec)
    code = base_language(lang or _language)
    signs = _signs(code)
    if signs:
        text = "".join(signs.get(ch, ch) for ch in text)
    return digits(text, code)


def ascii_digits(text: str) -> str:
    """Typed text with Persian or Arabic-Indic digits read as ASCII digits (``۱۷`` -> ``17``)."""
    return text.translate(_TO_ASCII)


class _Formatter(string.Formatter):
    """``str.format`` that writes int and float values with the language's digits; strings
    (names, move notation, squares) are inserted unchanged."""

    def __init__(self, lang: str | None) -> None:
        super().__init__()
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return number(value, format_spec, self.lang)
        text: str = super().format_field(value, format_spec)
        return text


def fmt(template: str, /, **values: Any) -> str:
    """``template.format(**values)`` with the numbers in the current language's digits."""
    return _Formatter(None).format(template, **values)


# -- one language on demand (the server translates per request) ------------------------------


class Translator:
    """The texts of one language, independent of :func:`set_language` (thread-safe: a
    server answers each request in the language that request asks for)."""

    def __init__(self, lang: str, catalog: gettext.NullTranslations) -> None:
        self.language = lang
        self.catalog = catalog
        self._formatter = _Formatter(lang)

    @property
    def direction(self) -> str:
        return direction(self.language)

    def gettext(self, message: str) -> str:
        return self.catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.catalog.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self.catalog.pgettext(context, message)

    def format(self, template: str, /, **values: Any) -> str:
        """``template`` translated, then filled in with this language's digits."""
        return self._formatter.format(self.gettext(template), **values)

    def format_text(self, text: str, /, **values: Any) -> str:
        """An already translated ``text`` filled in with this language's digits."""
        return self._formatter.format(text, **values)


@lru_cache(maxsize=32)
def translator(lang: str | None = None) -> Translator:
    """The :class:`Translator` of a shipped language (English for anything else)."""
    code = supported(lang) or SOURCE_LANGUAGE
    return Translator(code, translation(code))


# -- the current language --------------------------------------------------------------------


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


# -- errors: a template plus its values, translated where they are shown ---------------------


def fill(template: str, params: Mapping[str, Any], translator: Translator | None = None) -> str:
    """An English ``template`` translated and filled in with ``params``, in ``translator``'s
    language (default: the current one), numbers in its digits. A tuple value is a list of
    numbers or names, joined as the language writes a list (``1, 2, 3``; Persian ``۱، ۲، ۳``)."""
    text = (translator.gettext if translator else _)(template) if template else template
    if not params:
        return text
    lang = translator.language if translator else None
    # TRANSLATORS: what separates the items of a list, such as patch numbers ("1, 2, 3").
    separator = pgettext("list separator", ", ")
    if translator is not None:
        separator = translator.pgettext("list separator", ", ")
    values = {
        key: separator.join(
            number(v, lang=lang) if isinstance(v, int | float) and not isinstance(v, bool)
            else str(v)
            for v in value
        )
        if isinstance(value, tuple) else value
        for key, value in params.items()
    }  # fmt: skip
    return translator.format_text(text, **values) if translator else fmt(text, **values)


def error_text(exc: BaseException, translator: Translator | None = None) -> str:
    """What an error says, in ``translator``'s language (default: the current one).

    The engine's errors (``patchwork.PatchworkError``) and the server's carry an English
    ``template`` and its ``params``; any other exception, or one without a template, is
    shown as ``str(exc)``."""
    template = getattr(exc, "template", None)
    params = getattr(exc, "params", None)
    if not isinstance(template, str) or not template or not isinstance(params, Mapping):
        return str(exc)
    return fill(template, params, translator)


# A line of its own in a howto page: where the web page draws a picture (offer, timeboard,
# placement); the terminal, which has none, leaves the line out.
PICTURE = re.compile(r"^\[\[picture:(\w+)\]\]\n\n?", re.MULTILINE)


def howto_markdown(lang: str, pictures: bool = False) -> str | None:
    """The "How to play" page of a shipped language, as Markdown (None when there is none);
    with ``pictures`` it keeps the ``[[picture:name]]`` lines that mark the web page's
    pictures."""
    code = supported(lang, LANGUAGES)
    if code is None:
        return None
    path = HOWTO_DIR / f"{code}.md"
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    return text if pictures else PICTURE.sub("", text)


__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "N_",
    "Translator",
    "_",
    "ascii_digits",
    "available_languages",
    "base_language",
    "digits",
    "direction",
    "error_text",
    "fill",
    "fmt",
    "howto_markdown",
    "is_right_to_left",
    "lang_option",
    "language",
    "language_name",
    "native_digits",
    "negotiate",
    "ngettext",
    "normalize",
    "number",
    "pgettext",
    "resolve_language",
    "set_language",
    "supported",
    "system_language",
    "translation",
    "translator",
]
