"""Another program on the end of two pipes: every read has a deadline, so nothing hangs.

A reader thread turns the child's standard output into lines on a queue (``LineReader.read``
waits at most ``timeout`` seconds for the next one), a writer thread feeds its standard input
(so a child that stops reading cannot block us), and its standard error is drained in the
background, keeping the last lines for error messages.
"""

from __future__ import annotations

import collections
import contextlib
import os
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from typing import IO

MAX_LINE = 65_536  # bytes; a longer "line" arrives in pieces (and reads as nonsense)
_EOF = None


class ReadTimeout(Exception):
    """No complete line arrived in time."""


class LineReader:
    """Lines from a binary stream, read in a daemon thread; ``read`` waits with a deadline."""

    def __init__(self, stream: IO[bytes], max_line: int = MAX_LINE) -> None:
        self._queue: queue.Queue[tuple[float, str | None]] = queue.Queue(maxsize=10_000)
        self._max = max_line
        self.eof = False
        self.arrived = 0.0  # time.monotonic() when the line last read had arrived
        self._thread = threading.Thread(target=self._pump, args=(stream,), daemon=True)
        self._thread.start()

    def _pump(self, stream: IO[bytes]) -> None:
        # Each line is stamped with the time its first byte arrived: a second line written
        # with an answer counts as written before the next input however the writes fall
        # (print() may write "SKIP\nSKIP" and "\n" apart) and however late this thread reads.
        pending, began = b"", 0.0
        try:
            while True:
                chunk = stream.read1(self._max)  # type: ignore[attr-defined]
                if not chunk:
                    break
                now = time.monotonic()
                if not pending:
                    began = now
                *lines, rest = (pending + chunk).split(b"\n")
                for raw in lines:
                    self._put(began, raw)
                    began = now  # the next line began in this chunk
                pending = rest
                while len(pending) > self._max:  # a line over the limit comes in pieces
                    self._put(began, pending[: self._max])
                    pending, began = pending[self._max :], now
        except (OSError, ValueError):
            pass  # the pipe was closed under us: that is an end of file too
        if pending:
            self._put(began, pending)
        self._queue.put((time.monotonic(), _EOF))

    def _put(self, arrived: float, raw: bytes) -> None:
        for start in range(0, max(len(raw), 1), self._max):
            piece = raw[start : start + self._max]
            self._queue.put((arrived, piece.decode("utf-8", errors="replace").rstrip("\r")))

    def read(self, timeout: float | None) -> str | None:
        """The next line, or None at end of file; ReadTimeout when none came in time."""
        if self.eof:
            return None
        try:
            self.arrived, line = self._queue.get(
                timeout=None if timeout is None else max(timeout, 0.0)
            )
        except queue.Empty:
            raise ReadTimeout from None
        if line is _EOF:
            self.eof = True
        return line

    def pending(self) -> bool:
        """Whether a line (or the end of file) is waiting to be read."""
        return not self._queue.empty()


class LineWriter:
    """Writes queued text to a binary stream in a daemon thread; ``send`` never blocks."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self._queue: queue.Queue[bytes | None] = queue.Queue()
        self.broken = False
        self._thread = threading.Thread(target=self._pump, daemon=True)
        self._thread.start()

    def _pump(self) -> None:
        while True:
            data = self._queue.get()
            if data is None:
                break
            try:
                self._stream.write(data)
                self._stream.flush()
            except (OSError, ValueError):
                self.broken = True
                break
        with contextlib.suppress(OSError, ValueError):
            self._stream.close()

    def send(self, text: str) -> None:
        if not self.broken:
            self._queue.put(text.encode("utf-8"))

    def close(self) -> None:
        self._queue.put(None)


class StderrTail:
    """Drains a stream in a daemon thread, keeping its last lines; ``echo`` sees every line."""

    def __init__(
        self, stream: IO[bytes], keep: int = 20, echo: Callable[[str], None] | None = None
    ) -> None:
        self._lines: collections.deque[str] = collections.deque(maxlen=keep)
        self._echo = echo
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._pump, args=(stream,), daemon=True)
        self._thread.start()

    def _pump(self, stream: IO[bytes]) -> None:
        try:
            while True:
                raw = stream.readline(MAX_LINE)
                if not raw:
                    break
                line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
                with self._lock:
                    self._lines.append(line)
                if self._echo is not None:
                    self._echo(line)
        except (OSError, ValueError):
            pass

    def text(self, wait: float = 0.2) -> str:
        """The last lines (waiting briefly for a dying program's last words)."""
        self._thread.join(wait)
        with self._lock:
            return "\n".join(self._lines)


def split_command(command: str | Sequence[str]) -> list[str]:
    """A command line as arguments (a string is split like a POSIX shell would)."""
    if isinstance(command, str):
        try:
            args = shlex.split(command)
        except ValueError as e:
            raise ValueError(f"cannot read command {command!r}: {e}") from None
    else:
        args = [str(a) for a in command]
    if not args:
        raise ValueError("the command is empty")
    return args


class Child:
    """A running program with line-based pipes on all three standard streams."""

    def __init__(
        self,
        command: str | Sequence[str],
        cwd: str | os.PathLike[str] | None = None,
        env: dict[str, str] | None = None,
        stderr_echo: Callable[[str], None] | None = None,
    ) -> None:
        self.args = split_command(command)
        self.label = " ".join(self.args)
        try:
            self.proc = subprocess.Popen(
                self.args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env=env,
            )
        except OSError as e:
            raise ValueError(f"cannot start {self.label!r}: {e.strerror or e}") from None
        self.started = time.monotonic()
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self.stdout = LineReader(self.proc.stdout)
        self.stdin = LineWriter(self.proc.stdin)
        self.stderr = StderrTail(self.proc.stderr, echo=stderr_echo)

    def send(self, text: str) -> None:
        self.stdin.send(text)

    def read(self, timeout: float | None) -> str | None:
        return self.stdout.read(timeout)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def exit_code(self, wait: float = 0.5) -> int | None:
        try:
            return self.proc.wait(wait)
        except subprocess.TimeoutExpired:
            return None

    def describe_exit(self) -> str:
        """Why the program stopped talking: its exit status and its last error output."""
        code = self.exit_code()
        if code is None:
            what = "closed its output"
        elif code < 0:
            what = f"was killed by signal {-code}"
        else:
            what = f"exited with code {code}"
        tail = self.stderr.text()
        return what + (f"; its last error output:\n{tail}" if tail else "")

    def stop(self, grace: float = 2.0) -> int | None:
        """Close its input, give it ``grace`` seconds to exit, then terminate, then kill."""
        self.stdin.close()
        code = self.exit_code(grace)
        if code is None:
            self.proc.terminate()
            code = self.exit_code(1.0)
        if code is None:
            self.proc.kill()
            code = self.exit_code(1.0)
        # The pipes are left to the reader threads: closing a pipe another thread is reading
        # would wait for that read, which a grandchild holding the pipe open could make endless.
        return code
