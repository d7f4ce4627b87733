"""Passwords: argon2id hashes (argon2-cffi), checked and made off the event loop.

Hashing is slow and memory-hard on purpose (that is what makes a stolen hash costly to
guess), so it runs on worker threads, a few at a time, never on the event loop. A password is
hashed in Unicode's composed form (NFC), so that "é" typed as one character or as "e" and an
accent is one password, whatever keyboard or system sends it."""

from __future__ import annotations

import asyncio
import functools
import unicodedata
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ...i18n import N_
from ..common.errors import ServerError

MIN_LENGTH = 8
MAX_LENGTH = 200
# At most this many hashes at once: each takes its memory (64 MiB by default) for a moment.
_PARALLEL = 4

_hasher = PasswordHasher()  # argon2id, the library's (RFC 9106 low-memory) costs: 64 MiB
_slots: asyncio.Semaphore | None = None
_dummy: str | None = None
T = TypeVar("T")


def set_memory(mib: int) -> None:
    """Each new hash's memory, set as the server starts (argon2's time grows with it: less is
    quicker to sign in and cheaper to guess). A hash made at another setting still verifies,
    its costs being written in it, and is made again at the owner's next sign-in."""
    global _hasher, _dummy
    _hasher = PasswordHasher(memory_cost=mib * 1024)
    _dummy = None


def check_strength(password: str) -> str:
    """``password`` if its length is allowed, else ServerError ``weak_password``."""
    if not MIN_LENGTH <= len(password) <= MAX_LENGTH:
        raise ServerError(
            "weak_password",
            N_("a password has {min} to {max} characters"),
            {"min": MIN_LENGTH, "max": MAX_LENGTH},
        )
    return password


async def _off_loop(fn: functools.partial[T]) -> T:
    global _slots
    if _slots is None:
        _slots = asyncio.Semaphore(_PARALLEL)
    async with _slots:
        return await asyncio.to_thread(fn)


def _composed(password: str) -> str:
    return unicodedata.normalize("NFC", password)


async def hash_password(password: str) -> str:
    return await _off_loop(functools.partial(_hasher.hash, _composed(password)))


def _verify(stored: str, password: str) -> bool:
    # A hash made before passwords were composed may be of the form as typed then: a
    # password that is not in composed form is tried as it came too.
    tries = dict.fromkeys((_composed(password), password))
    for attempt in tries:
        try:
            if _hasher.verify(stored, attempt):
                return True
        except (VerificationError, InvalidHashError):
            continue
    return False


async def verify(stored: str, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from."""
    return await _off_loop(functools.partial(_verify, stored, password))


def needs_rehash(stored: str) -> bool:
    """Whether ``stored`` was made with other parameters than today's (made anew at sign-in)."""
    try:
        return _hasher.check_needs_rehash(stored)
    except InvalidHashError:
        return True


async def verify_nobody(password: str) -> bool:
    """Check ``password`` against a hash of nobody's (always False): an unknown name then takes
    as long to refuse as a wrong password, so the answer does not tell which names exist."""
    global _dummy
    if _dummy is None:
        _dummy = await hash_password("not anybody's password")
    await verify(_dummy, password)
    return False
