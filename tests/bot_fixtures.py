"""``patchwork bot`` run as a person runs it, for the tests: a child process in a session of
its own (its engine programs with it), its log in the test's directory, stopped (then
killed with its whole group) however the test ends."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

import processes
from server_fixtures import PASSWORD, WAIT, Account, ServerProcess, eventually, fetch

LONG = 60.0  # a whole game, or a bridge's start on a busy machine


A = TypeVar("A", bound=Account)


def bot_account(server: ServerProcess, kind: type[A] = Account) -> tuple[A, str]:  # type: ignore[assignment]
    """A new account (a ``kind``) made a bot: the account (its cookie) and an API token."""
    account = kind(server)
    r = account.http.post("/api/account/tokens", json={"name": account.name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    token: str = r.json()["token"]
    r = fetch(
        "POST",
        f"{server.url}/api/account/bot",
        headers={"authorization": f"Bearer {token}"},
        timeout=WAIT,
    )
    assert r.status_code == 200 and r.json()["bot"] is True, r.text
    return account, token


class BridgeProcess:
    """``patchwork bot`` as a child process (a session of its own), its output in a file."""

    def __init__(self, tmp: Path, server_url: str, token: str, *args: str, label: str = "bot"):
        self.log_path = tmp / f"{label}.log"
        env = {
            **os.environ,
            "PATCHWORK_BOT_TOKEN": token,
            "PYTHONUNBUFFERED": "1",
            "LANGUAGE": "en",
        }
        with self.log_path.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "patchwork", "bot", "--server", server_url, *args],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                cwd=tmp,
                start_new_session=True,
                preexec_fn=processes.ctrl_c_live,  # its Ctrl-C is interrupt()'s
            )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for(self, text: str, timeout: float = LONG, count: int = 1) -> None:
        def seen() -> bool:
            assert self.proc.poll() is None, f"the bridge exited:\n{self.log()[-3000:]}"
            return self.log().count(text) >= count

        try:
            eventually(seen, timeout)
        except AssertionError as e:
            tail = self.log()[-3000:]
            raise AssertionError(f"{e}: no {text!r} in the bridge's log:\n{tail}") from None

    def engines(self) -> list[int]:
        """The process ids of the bridge's children (its engine programs)."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == self.proc.pid:
                    found.append(int(entry.name))
        return found

    def interrupt(self, timeout: float = 20.0) -> int:
        """Ctrl-C: the bridge's exit status."""
        self.proc.send_signal(signal.SIGINT)
        return self.proc.wait(timeout)

    def kill(self) -> None:
        """However the test went: the bridge and everything it started, gone."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(10)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(10)


@contextlib.contextmanager
def bridge(
    tmp: Path, server: ServerProcess, token: str, *args: str, label: str = "bot"
) -> Iterator[BridgeProcess]:
    process = BridgeProcess(tmp, server.url, token, *args, label=label)
    try:
        yield process
    finally:
        process.kill()
