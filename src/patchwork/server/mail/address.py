"""What a mail address may look like: at most 254 characters, ``name@example.com`` with an
ASCII name part and a domain of at least two labels (an international domain is written in
its ASCII form, ``xn--...``). A plausible address only: whether it receives mail is what the
confirmation link proves."""

from __future__ import annotations

import re

from ...i18n import N_
from ..common.errors import ServerError
from ..common.tokens import token_hash

MAX_LENGTH = 254  # RFC 5321's limit on a path, less the angle brackets
MAX_LOCAL = 64
_LOCAL = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*")
_LABEL = re.compile(r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
_TOP = re.compile(r"[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59}")


def _bad(text: str) -> ServerError:
    return ServerError(
        "bad_address",
        N_("{address!r} is not a mail address: write it as name@example.com"),
        {"address": text[:MAX_LENGTH]},
    )


def normalize(text: str) -> str:
    """``text`` as the address to store (its domain in lower case), or ``bad_address``."""
    text = text.strip()
    if not text:
        raise ServerError("bad_address", N_("enter a mail address (name@example.com)"))
    if len(text) > MAX_LENGTH:
        raise ServerError(
            "bad_address",
            N_("a mail address is at most {limit} characters long"),
            {"limit": MAX_LENGTH},
        )
    local, at, domain = text.rpartition("@")
    if not at or not local or not domain:
        raise _bad(text)
    if not local.isascii():
        raise ServerError(
            "bad_address",
            N_("the part before the @ may have only Latin letters, digits and . _ + -"),
        )
    try:
        domain = domain.encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise _bad(text) from None
    labels = domain.split(".")
    if (
        len(local) > MAX_LOCAL
        or not _LOCAL.fullmatch(local)
        or len(labels) < 2
        or not all(_LABEL.fullmatch(label) for label in labels)
        or not _TOP.fullmatch(labels[-1])
    ):
        raise _bad(text)
    address = f"{local}@{domain}"
    if len(address) > MAX_LENGTH:
        raise _bad(text)
    return address


def address_key(address: str) -> str:
    """The hash an address is known by in the outbox (``mails.sent_to``): the same for any
    spelling in upper or lower case."""
    return token_hash("mailto:" + address.lower())
