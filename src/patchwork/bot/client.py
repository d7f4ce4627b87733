"""The HTTP side of the bridge: the server's API with an account's API token (``pwa_...``).

Requests answer the JSON body or raise :class:`ApiError` (the server's ``{"error": {code,
message}}``) or :class:`Unreachable` (no answer: refused, dropped, timed out, a proxy's 502).
:meth:`BotClient.stream` reads a newline-delimited JSON stream and opens it again after it
drops, waiting longer each time (:class:`Backoff`), until it is stopped; each connection
starts with the server's ``welcome``, so a reader knows when it was reconnected.
"""

from __future__ import annotations

import contextlib
import json
import logging
import random
import socket
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import httpx

from .. import __version__
from ..engine import PatchworkError
from ..i18n import _, fmt

log = logging.getLogger("patchwork.bot")

# Seconds. The streams send an empty line every 6 s: three missed means the connection died
# without a word (a cable pulled, a machine gone), and it is opened again.
READ_TIMEOUT = 20.0
CONNECT_TIMEOUT = 10.0
REQUEST_TIMEOUT = 20.0


# What a stream's empty keep-alive line is read as (the client's own marker, not the server's).
KEEP_ALIVE: dict[str, Any] = {"type": "keep_alive"}


class ApiError(PatchworkError):
    """The server answered with an error: its ``code``, HTTP ``status`` and ``message``."""

    def __init__(self, status: int, code: str, message: str, body: Mapping[str, Any]) -> None:
        super().__init__(f"{message} ({code}, HTTP {status})")
        self.status = status
        self.code = code
        self.message = message
        self.body = body

    @property
    def retryable(self) -> bool:
        """A passing trouble (overloaded, rate limited, restarting): worth trying again."""
        return self.status >= 500 or self.status in (408, 429)


class Unreachable(PatchworkError):
    """No answer from the server (refused, dropped, timed out)."""


class Stopped(Exception):
    """The bridge is stopping: a stream or a wait gave up."""


class Backoff:
    """Waits between tries: ``first`` seconds, doubled each time up to ``most``, each with up
    to a quarter more at random (so that many bots do not all come back at one instant)."""

    def __init__(self, most: float = 30.0, first: float = 0.5) -> None:
        self.first = min(first, most)
        self.most = most
        self.next = self.first

    def reset(self) -> None:
        self.next = self.first

    def wait(self, stop: threading.Event) -> None:
        """Sleep the next wait (raise :class:`Stopped` if the bridge stops meanwhile)."""
        seconds = self.next * (1 + random.random() / 4)
        self.next = min(self.most, self.next * 2)
        if stop.wait(seconds):
            raise Stopped


def _error_of(response: httpx.Response) -> ApiError:
    try:
        body = response.json()
        error = body["error"]
        code, message = str(error["code"]), str(error.get("message", ""))
    except (ValueError, KeyError, TypeError):
        body = {}
        code = "http_error"
        message = response.text[:200].strip() or response.reason_phrase
    return ApiError(response.status_code, code, message, body)


class BotClient:
    """One account's client of one server. Thread-safe: each stream and request opens or
    borrows a connection of its own from the pool."""

    def __init__(self, server: str, token: str, transport: httpx.BaseTransport | None = None):
        self.server = server.rstrip("/")
        self.http = httpx.Client(
            base_url=self.server,
            headers={
                "authorization": f"Bearer {token}",
                "user-agent": f"patchwork-bot/{__version__}",
            },
            timeout=httpx.Timeout(REQUEST_TIMEOUT, connect=CONNECT_TIMEOUT),
            transport=transport,
        )
        self._open: set[httpx.Response] = set()
        self._lock = threading.Lock()

    def close(self) -> None:
        self.interrupt()
        self.http.close()

    # -- requests -----------------------------------------------------------------------------

    def request(self, method: str, path: str, body: Any = None) -> Any:
        try:
            if body is None and method == "GET":
                response = self.http.request(method, path)
            else:
                response = self.http.request(method, path, json=body if body is not None else {})
        except httpx.HTTPError as e:
            raise Unreachable(
                fmt(_("no answer from {server}: {error}"), server=self.server, error=_why(e))
            ) from None
        if response.status_code >= 400:
            error = _error_of(response)
            if response.status_code in (502, 503, 504) and error.code == "http_error":
                raise Unreachable(
                    fmt(
                        _("no answer from {server}: {error}"),
                        server=self.server,
                        error=f"HTTP {response.status_code}",
                    )
                )
            raise error
        if response.status_code == 204 or not response.content:
            return None
        return response.json()

    def me(self) -> dict[str, Any]:
        """The token's account (``GET /api/account/me``)."""
        found: dict[str, Any] = self.request("GET", "/api/account/me")
        return found

    def game(self, game_id: str) -> dict[str, Any]:
        view: dict[str, Any] = self.request("GET", f"/api/games/{game_id}")
        return view

    def accept(self, challenge_id: str) -> dict[str, Any]:
        answer: dict[str, Any] = self.request("POST", f"/api/challenges/{challenge_id}/accept")
        return answer

    def decline(self, challenge_id: str, reason: str) -> dict[str, Any]:
        answer: dict[str, Any] = self.request(
            "POST", f"/api/challenges/{challenge_id}/decline", {"reason": reason}
        )
        return answer

    def challenge(self, to: str, **terms: Any) -> dict[str, Any]:
        """Challenge the player ``to`` (``rules``, ``clock``, ``rated``, ``seat``...)."""
        answer: dict[str, Any] = self.request("POST", "/api/challenges", {"to": to, **terms})
        return answer

    def move(self, game_id: str, move: str, version: int) -> dict[str, Any]:
        answer: dict[str, Any] = self.request(
            "POST", f"/api/games/{game_id}/moves", {"move": move, "version": version}
        )
        return answer

    def resign(self, game_id: str) -> dict[str, Any]:
        answer: dict[str, Any] = self.request("POST", f"/api/games/{game_id}/resign")
        return answer

    def claim(self, game_id: str) -> dict[str, Any]:
        answer: dict[str, Any] = self.request("POST", f"/api/games/{game_id}/claim")
        return answer

    def takeback(self, game_id: str, action: str) -> dict[str, Any]:
        answer: dict[str, Any] = self.request(
            "POST", f"/api/games/{game_id}/takeback", {"action": action}
        )
        return answer

    def chat(self, game_id: str, text: str, presets: tuple[str, ...] = ()) -> None:
        body = {"preset": text} if text in presets else {"text": text}
        self.request("POST", f"/api/games/{game_id}/chat", body)

    # -- streams ------------------------------------------------------------------------------

    def stream(
        self,
        path: str,
        stop: threading.Event,
        params: Callable[[], Mapping[str, Any]] = dict,
        backoff: Backoff | None = None,
    ) -> Iterator[dict[str, Any]]:
        """The messages of the NDJSON stream at ``path``, opened again (with ``params()``
        asked anew) after every drop, after a wait; forever, until ``stop`` is set (then the
        iteration ends) or the server refuses for good (:class:`ApiError`)."""
        backoff = backoff or Backoff()
        while not stop.is_set():
            try:
                for message in self._read(path, params()):
                    if message.get("type") == "welcome":
                        backoff.reset()
                    yield message
                if stop.is_set():
                    return
                log.info(
                    fmt(_("{path}: the server closed the stream; opening it again"), path=path)
                )
            except ApiError as e:
                if not e.retryable:  # a refused token, a game that is not there
                    raise
                log.warning(fmt(_("{path}: {error}; trying again"), path=path, error=str(e)))
            except Unreachable as e:
                if stop.is_set():
                    return
                log.warning(fmt(_("{path}: {error}; trying again"), path=path, error=str(e)))
            try:
                backoff.wait(stop)
            except Stopped:
                return

    def _read(self, path: str, params: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
        timeout = httpx.Timeout(REQUEST_TIMEOUT, connect=CONNECT_TIMEOUT, read=READ_TIMEOUT)
        try:
            with self.http.stream("GET", path, params=dict(params), timeout=timeout) as response:
                if response.status_code >= 400:
                    response.read()
                    error = _error_of(response)
                    if response.status_code in (502, 503, 504) and error.code == "http_error":
                        raise Unreachable(f"HTTP {response.status_code}")
                    raise error
                with self._lock:
                    self._open.add(response)
                try:
                    for line in response.iter_lines():
                        if not line.strip():
                            yield KEEP_ALIVE  # the stream lives: its readers may look around
                            continue
                        try:
                            message = json.loads(line)
                        except ValueError:
                            log.warning(
                                fmt(_("{path}: not JSON: {line}"), path=path, line=line[:80])
                            )
                            continue
                        if isinstance(message, dict):
                            yield message
                finally:
                    with self._lock:
                        self._open.discard(response)
        except httpx.HTTPError as e:
            raise Unreachable(_why(e)) from None
        except (RuntimeError, OSError, ValueError) as e:
            # A response closed by interrupt() from another thread while it was read.
            raise Unreachable(str(e) or type(e).__name__) from None

    def interrupt(self) -> None:
        """Close every stream being read (from any thread): their readers wake up."""
        with self._lock:
            responses = list(self._open)
        for response in responses:
            # A thread blocked reading a socket wakes up when the socket is shut down (closing
            # the response alone waits for that read to end first).
            stream = response.extensions.get("network_stream")
            sock = stream.get_extra_info("socket") if stream is not None else None
            if isinstance(sock, socket.socket):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)


def _why(error: httpx.HTTPError) -> str:
    """An httpx error in a few words (its text, or its kind when it has none)."""
    text = str(error).strip()
    if isinstance(error, httpx.ConnectError):
        return fmt(_("cannot connect ({error})"), error=text or "refused")
    if isinstance(error, httpx.TimeoutException):
        return _("timed out")
    return text or type(error).__name__
