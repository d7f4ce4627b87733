"""Guards in front of the HTTP routes (pure ASGI, so they see every request first): a rate
limit per client and path on requests that change something, and per client on the reads
that cost (a game loaded, replayed or listed); the body's size, the time it takes to arrive,
its media type and its nesting."""

from __future__ import annotations

import asyncio
import json
import time
from typing import TYPE_CHECKING

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ...i18n import N_, translator
from ..cluster.limits import SharedLimiter
from ..common.errors import scope_language

if TYPE_CHECKING:
    from ..cluster.redis_cluster import Cluster

_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Reads that touch the database or replay a game: limited per client address, whichever
# game, player or puzzle they name (so new ids do not escape the limit).
_COSTLY_READS = (
    "/api/games",
    "/api/players",
    "/api/leaderboard",
    "/api/account/games",
    "/api/puzzles",
)
# Paths whose body may be a form: a mail's one-click stop (RFC 8058), which the route ignores.
_FORM_PATHS = frozenset({"/mail/stop"})
# A rating chart is drawn by matplotlib (tens of milliseconds of a core): a few a second.
_CHARTS = ".svg"
CHART_RATE = 1.0  # charts a second per client address...
CHART_BURST = 10  # ...after a burst of this many


async def send_error(
    send: Send, status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> None:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(k.encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


def _is_json(content_type: bytes | None) -> bool:
    kind = (content_type or b"").split(b";", 1)[0].strip().lower()
    return kind == b"application/json" or (
        kind.startswith(b"application/") and kind.endswith(b"+json")
    )


class GuardMiddleware:
    def __init__(
        self,
        app: ASGIApp,
        max_body_bytes: int,
        rate: float,
        burst: int,
        read_rate: float = 0.0,
        read_burst: int = 1,
        body_timeout: float = 0.0,
        cluster: Cluster | None = None,
    ) -> None:
        self.app = app
        self.max_body = max_body_bytes
        # With several processes the buckets are shared in Redis (cluster/limits.py).
        self.limiter = SharedLimiter(rate, burst, cluster)
        self.reads = SharedLimiter(read_rate, read_burst, cluster)
        self.charts = SharedLimiter(CHART_RATE if read_rate > 0 else 0.0, CHART_BURST, cluster)
        self.body_timeout = body_timeout

    async def _limited(self, scope: Scope, send: Send, limiter: SharedLimiter, key: str) -> bool:
        """Whether the request was refused by ``limiter`` (and answered 429)."""
        if not limiter.enabled:
            return False
        client = scope.get("client")
        wait = await limiter.wait(f"{client[0] if client else '-'} {key}")
        if wait is None:
            return False
        t = translator(scope_language(scope))
        await send_error(
            send,
            429,
            "rate_limited",
            t.format(N_("too many requests; try again in {seconds:.1f} s"), seconds=wait),
            {"retry-after": str(max(1, round(wait)))},
        )
        return True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in _WRITES:
            if scope["type"] == "http" and scope["path"].startswith(_COSTLY_READS):
                if await self._limited(scope, send, self.reads, "read"):
                    return
                chart = scope["path"].endswith(_CHARTS)
                if chart and await self._limited(scope, send, self.charts, "chart"):
                    return
            await self.app(scope, receive, send)
            return
        if await self._limited(scope, send, self.limiter, scope["path"]):
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        t = translator(scope_language(scope))
        too_large = t.format(N_("request bodies are at most {limit} bytes"), limit=self.max_body)
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                await send_error(send, 400, "invalid_request", t.gettext("bad Content-Length"))
                return
            if declared > self.max_body:
                await send_error(send, 413, "too_large", too_large)
                return
        # Read the body up to the limit, and within the time allowed, then hand it on.
        chunks: list[bytes] = []
        size = 0
        deadline = time.monotonic() + self.body_timeout if self.body_timeout > 0 else None
        while True:
            try:
                if deadline is None:
                    message = await receive()
                else:
                    message = await asyncio.wait_for(receive(), deadline - time.monotonic())
            except TimeoutError:
                await send_error(
                    send,
                    408,
                    "timeout",
                    t.format(
                        N_("the request body did not arrive within {seconds:g} s"),
                        seconds=self.body_timeout,
                    ),
                    {"connection": "close"},
                )
                return
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await send_error(send, 413, "too_large", too_large)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body.strip() and scope["path"] not in _FORM_PATHS:
            problem = self._unreadable(body, headers.get(b"content-type"))
            if problem is not None:
                status, code, template = problem
                await send_error(send, status, code, t.gettext(template))
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    def _unreadable(body: bytes, content_type: bytes | None) -> tuple[int, str, str] | None:
        """Why a body cannot be read as the routes' JSON (status, code, message), or None.

        Only what the routes would report obscurely is caught here: a body of another media
        type (read as no body at all), and JSON nested past what a parser follows. Other
        malformed JSON gets the routes' own ``bad_json`` with the parser's details."""
        if not _is_json(content_type):
            return (
                415,
                "unsupported_media_type",
                N_("send the body as JSON, with the header Content-Type: application/json"),
            )
        try:
            json.loads(body)
        except RecursionError:
            return 400, "bad_json", N_("the body is not valid JSON: it is nested too deeply")
        except ValueError:
            pass
        return None
