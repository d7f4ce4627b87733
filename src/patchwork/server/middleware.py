"""Guards in front of the HTTP routes: request body size, and a rate limit per client and
path on requests that change something (pure ASGI, so it sees every request first)."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..i18n import N_, translator
from .errors import scope_language
from .ratelimit import KeyedLimiter

_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


async def send_error(
    send: Send, status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> None:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(k.encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


class GuardMiddleware:
    def __init__(self, app: ASGIApp, max_body_bytes: int, rate: float, burst: int) -> None:
        self.app = app
        self.max_body = max_body_bytes
        self.limiter = KeyedLimiter(rate, burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in _WRITES:
            await self.app(scope, receive, send)
            return
        if self.limiter.enabled:
            client = scope.get("client")
            key = f"{client[0] if client else '-'} {scope['path']}"
            wait = self.limiter.check(key)
            if wait is not None:
                t = translator(scope_language(scope))
                await send_error(
                    send,
                    429,
                    "rate_limited",
                    t.format(N_("too many requests; try again in {seconds:.1f} s"), seconds=wait),
                    {"retry-after": str(max(1, round(wait)))},
                )
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
        # Read the body up to the limit, then hand it on.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
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
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
