"""What a client may send, beyond its JSON type: numbers the database columns hold, names
that every record the server writes can carry (docs/server.md, "Limits")."""

from __future__ import annotations

import unicodedata
from typing import Any

from pydantic import ConfigDict

# Every request model is strict (docs/server.md, "Strict requests"): a value of the wrong JSON
# type is refused, never converted ("1" is not 1, true is not 1), and unknown fields too.
STRICT = ConfigDict(extra="forbid", strict=True)

# Versions, plies and every other count a client sends reach the database's 32-bit integer
# columns (``events.version``, ``games.version``, ``moves.ply``); a game changes a few hundred
# times at most, so the bound is never near, and a larger number is refused, not queried.
MAX_COUNT = 2**31 - 1

# Line and paragraph separators and control characters (NUL, newline, tab...) in a name
# would break the one-line tags of a text record and PostgreSQL's text columns (NUL); lone
# surrogates cannot be stored as UTF-8 at all. Format characters such as the zero-width
# non-joiner stay allowed: Persian names need them.
_REFUSED = frozenset({"Cc", "Cs", "Zl", "Zp"})


# The characters that reorder the text around them (embeddings, overrides, isolates): in a name
# they could turn the words beside it around on someone else's screen ("\u202e" reverses).
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# What a person sees: letters, marks on them, digits, punctuation and symbols.
_VISIBLE = ("L", "N", "P", "S")


def check_name(name: str) -> str:
    """``name`` if it holds no character a record or the database cannot keep, none that
    reorders the text around it, and something a person can see; else ValueError."""
    for ch in name:
        if unicodedata.category(ch) in _REFUSED:
            raise ValueError(
                f"a name may not hold control characters or line breaks (U+{ord(ch):04X})"
            )
        if ch in _BIDI_CONTROLS:
            raise ValueError(f"a name may not hold text direction controls (U+{ord(ch):04X})")
    if not any(unicodedata.category(ch).startswith(_VISIBLE) for ch in name):
        raise ValueError("a name needs a letter, digit or sign that can be seen")
    return name


def not_a_bool(value: Any) -> Any:
    """A before-validator: JSON true and false are not the numbers 1 and 0."""
    if isinstance(value, bool):
        raise ValueError("a number or a word is expected here, not true or false")
    return value
