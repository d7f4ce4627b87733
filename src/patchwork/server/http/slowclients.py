"""Slow clients: a connection whose request headers do not arrive in time is closed.

uvicorn closes idle keep-alive connections, but one that sends part of a request's headers
and then nothing stays open for good (a few thousand of them exhaust a server's sockets). The
HTTP protocol class uvicorn picked (httptools or h11) is wrapped so that from the moment a
connection opens, or its last response went out, the next request's headers must be
complete within ``seconds``. The body's own deadline is the guard middleware's.
"""

from __future__ import annotations

import asyncio
from typing import Any


def with_header_timeout(base: type[asyncio.Protocol], seconds: float) -> type[asyncio.Protocol]:
    """``base`` (one of uvicorn's HTTP protocols) with a deadline on request headers."""

    class HeaderDeadline(base):  # type: ignore[valid-type,misc]
        _header_timer: asyncio.TimerHandle | None = None

        def _awaiting_headers(self) -> bool:
            """No request is being served: the connection waits for (more of) headers."""
            cycle = getattr(self, "cycle", None)
            upgraded = self.transport.get_protocol() is not self
            return not upgraded and (cycle is None or cycle.response_complete)

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if self._awaiting_headers() and not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._header_timer is not None and not self._awaiting_headers():
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self._awaiting_headers():
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    HeaderDeadline.__name__ = f"HeaderDeadline{base.__name__}"
    return HeaderDeadline
