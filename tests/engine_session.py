"""An engine of the text protocol in the test's own process: send lines, read its answers."""

from __future__ import annotations

import io
import time

from patchwork.protocol.engine_server import EngineServer


class Session:
    """An engine in this process: send lines, read what it answered."""

    def __init__(self) -> None:
        self.out = io.StringIO()
        self.server = EngineServer(self.out)
        self.seen = 0
        self.mark = 0

    def send(self, *lines: str) -> list[str]:
        self.mark = self.seen  # wait_for looks from here: answers may come before we return
        for line in lines:
            assert self.server.handle(line)
        return self.new_lines()

    def new_lines(self) -> list[str]:
        lines = self.out.getvalue().splitlines()
        fresh, self.seen = lines[self.seen :], len(lines)
        return fresh

    def wait_for(self, prefix: str, timeout: float = 30.0) -> list[str]:
        """Every line since the last send() once one starts with ``prefix``."""
        got: list[str] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.new_lines()
            got = self.out.getvalue().splitlines()[self.mark :]
            if any(line.startswith(prefix) for line in got):
                return got
            time.sleep(0.01)
        raise AssertionError(f"no {prefix!r} line within {timeout} s: {got}")

    def search(self, go: str, timeout: float = 120.0) -> list[str]:
        """Send ``go ...`` and wait for its bestmove (or error)."""
        got = self.send(go)
        deadline = time.monotonic() + timeout
        while not any(line.startswith(("bestmove", "error")) for line in got):
            assert time.monotonic() < deadline, f"no bestmove within {timeout} s: {got}"
            time.sleep(0.01)
            got += self.new_lines()
        return got

    def close(self) -> None:
        self.server.shutdown()
