"""User names: the form allowed, and the look-alike key that makes them unique.

Names are plain ASCII (as lichess's) so that every name reads the same in every language and
font; the key folds case and the characters people mistake for one another, so that nobody
can sign up as a double of someone else ("Anna" and "ANNA", "Bill" and "BiII", "Mo" and "rno").
"""

from __future__ import annotations

import re

from ...i18n import N_
from ..common.errors import ServerError

MIN_LENGTH = 3
MAX_LENGTH = 20
NAME_FORM = "^[A-Za-z][A-Za-z0-9_-]*$"
_FORM = re.compile(NAME_FORM)
# Applied in this order, after lower-casing: single characters first, then the pairs that
# read as one letter. A "w" is first spelt "vv", so that every run of v's and w's pairs up the
# same way wherever its w's fall ("xvw", "xwv" and "xvvv" have one key); an "m" needs no such
# care, as "rn" pairs never overlap.
_SINGLE = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l", "-": "_", "w": "vv"})
_PAIRS = (("rn", "m"), ("vv", "w"))


def is_valid(name: str) -> bool:
    return MIN_LENGTH <= len(name) <= MAX_LENGTH and _FORM.match(name) is not None


def check_name(name: str) -> str:
    """``name`` if it is a valid user name, else ServerError ``bad_name`` saying what is allowed."""
    if not is_valid(name):
        raise ServerError(
            "bad_name",
            N_(
                "a user name has {min} to {max} characters: ASCII letters, digits, _ and -, "
                "starting with a letter"
            ),
            {"min": MIN_LENGTH, "max": MAX_LENGTH},
        )
    return name


def name_key(name: str) -> str:
    """The look-alike key: two names with one key are one name (the database keeps it unique).
    It is never longer than the name."""
    key = name.lower().translate(_SINGLE)
    for pair, letter in _PAIRS:
        key = key.replace(pair, letter)
    return key
