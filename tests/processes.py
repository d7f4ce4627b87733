"""The processes of this checkout, read from /proc (Linux): who descends from whom, and which
were left behind by a parent that is gone. Used to check that no test leaves any running; and
a short-pathed folder for the sockets of the processes a test starts."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

# This checkout's interpreter (the .venv's python, not the one it links to, which other
# checkouts share): every process the tests start runs it.
_VENV_PYTHONS = {os.path.normpath(sys.executable)}


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    start: int  # clock ticks after boot
    cmdline: str


def _read(pid: int) -> Proc | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may hold spaces: split after it.
    fields = stat[stat.rindex(")") + 2 :].split()
    if fields[0] == "Z":  # a zombie has exited; its parent has yet to reap it
        return None
    cmdline = raw.replace(b"\0", b" ").decode(errors="replace").strip()
    return Proc(pid, int(fields[1]), int(fields[19]), cmdline)


def snapshot() -> dict[int, Proc]:
    if not Path("/proc/self/stat").exists():
        return {}
    procs = (_read(int(p.name)) for p in Path("/proc").iterdir() if p.name.isdigit())
    return {p.pid: p for p in procs if p is not None}


def runs_this_checkout(p: Proc) -> bool:
    """Started with this checkout's .venv python (not another checkout's, not the system's);
    a relative path (``.venv/bin/python -m pytest``) is read from the process's directory."""
    if p.pid == os.getpid():
        return True
    first = p.cmdline.split(" ", 1)[0]
    if first and not os.path.isabs(first):
        try:
            first = os.path.join(os.readlink(f"/proc/{p.pid}/cwd"), first)
        except OSError:
            return False
    return os.path.normpath(first) in _VENV_PYTHONS


def ancestors(p: Proc, procs: dict[int, Proc]) -> list[Proc]:
    chain = []
    while p.ppid in procs and p.ppid != p.pid:
        p = procs[p.ppid]
        chain.append(p)
    return chain


def descendants(pid: int, procs: dict[int, Proc] | None = None) -> list[Proc]:
    procs = snapshot() if procs is None else procs
    return [p for p in procs.values() if any(a.pid == pid for a in ancestors(p, procs))]


def start_time(pid: int) -> int:
    p = _read(pid)
    assert p is not None
    return p.start


# What the tests start beneath themselves: servers, and multiprocessing's helpers and workers
# (forkserver, resource tracker, spawned or forked pool workers). Each has a parent running
# this checkout's python for as long as it is wanted.
_HELPERS = ("-m patchwork.server", "from multiprocessing.", "--multiprocessing-fork")


def orphans(since: int) -> list[Proc]:
    """Servers and multiprocessing helpers of this checkout started at or after ``since`` whose
    parent is no longer one of this checkout's processes (adopted by init or a subreaper):
    left behind by an owner that is gone."""
    procs = snapshot()
    return [
        p
        for p in procs.values()
        if p.start >= since
        and runs_this_checkout(p)
        and any(h in p.cmdline for h in _HELPERS)
        and not (p.ppid in procs and runs_this_checkout(procs[p.ppid]))
    ]


def wait_gone(pids: set[int], timeout: float) -> set[int]:
    """The processes of ``pids`` still running after up to ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        alive = {pid for pid in pids if _read(pid) is not None}
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)  # processes exiting: there is no event to await from here


def ctrl_c_live() -> None:
    """In a child about to run a program: undo an inherited ignored SIGINT (a suite run in
    the background of a shell without job control ignores it), as a terminal's program
    starts with Ctrl-C live."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextmanager
def socket_folder(prefix: str) -> Iterator[Path]:
    """A temporary folder for processes that make sockets in theirs, in the system's /tmp (a
    socket's path under a checkout's output folder can pass the 107 bytes AF_UNIX allows, and
    CI's checkout path is long); removed afterwards, whatever was left in it."""
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
