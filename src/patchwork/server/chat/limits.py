"""What may be said, and how often (docs/server.md, "Chat"): a message is 1 to 140
characters once cleaned (line breaks and tabs become spaces; other control characters, and
those that reorder the text around them, are taken out; spaces trimmed and runs of them made
one); each account (a guest: each address) says at most 5 messages in 10 seconds, never the
same words twice in a row in a room, and reports at most 5 messages in 10 minutes. With
several processes the buckets are shared in Redis (cluster/limits.py)."""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

from ...i18n import N_
from ..cluster.limits import SharedLimiter
from ..common.errors import ServerError, too_soon

if TYPE_CHECKING:
    from ..cluster.redis_cluster import Cluster

MAX_CHARS = 140
HISTORY = 50  # the latest messages of a room sent on (re)connection
SEND_BURST, SEND_SECONDS = 5, 10.0  # 5 messages in 10 s
REPORT_BURST, REPORT_SECONDS = 5, 600.0  # 5 reports in 10 min

_SPACES = frozenset("\t\n\r\v\f\x85\u2028\u2029")
_DROPPED = frozenset({"Cc", "Cs"})  # format characters (ZWNJ, emoji joiners) stay
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_RUNS = re.compile(r"\s{2,}")


def clean(text: str) -> str:
    """``text`` as it is stored and shown, or ServerError ``invalid_message`` when nothing is
    left or it is too long."""
    kept = []
    for ch in text:
        if ch in _SPACES:
            kept.append(" ")
        elif ch in _BIDI or unicodedata.category(ch) in _DROPPED:
            continue
        else:
            kept.append(ch)
    cleaned = _RUNS.sub(" ", "".join(kept)).strip()
    if not cleaned:
        raise ServerError("invalid_message", N_("a chat message needs some words"))
    if len(cleaned) > MAX_CHARS:
        raise ServerError(
            "invalid_message",
            N_("a chat message is at most {limit} characters; this one has {size}"),
            {"limit": MAX_CHARS, "size": len(cleaned)},
        )
    return cleaned


class ChatLimits:
    """The buckets: per account (``user:<id>``) or per guest address (``addr:<host>``)."""

    def __init__(self, cluster: Cluster | None = None) -> None:
        self.sends = SharedLimiter(SEND_BURST / SEND_SECONDS, SEND_BURST, cluster)
        self.reports = SharedLimiter(REPORT_BURST / REPORT_SECONDS, REPORT_BURST, cluster)

    async def send(self, who: str) -> None:
        wait = await self.sends.wait(f"chat send {who}")
        if wait is not None:
            raise too_soon(
                N_(
                    "you are chatting too fast: at most 5 messages in 10 seconds; try again in "
                    "{seconds:.0f} s"
                ),
                wait,
            )

    async def report(self, who: str) -> None:
        wait = await self.reports.wait(f"chat report {who}")
        if wait is not None:
            raise too_soon(N_("too many reports; try again in {seconds:.0f} s"), wait)
