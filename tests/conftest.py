"""Session-wide checks: no test leaves a process of this checkout running after the session."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

import processes


@pytest.fixture(scope="session", autouse=True)
def nothing_left_behind() -> Iterator[None]:
    """Fail the session if a server or an AI process (a forkserver, a pool worker, a resource
    tracker) started during it outlives its owner."""
    since = processes.start_time(os.getpid())
    yield
    left = {p.pid: p for p in processes.orphans(since)}
    # Owners that just went may take their watch period (a second) to be noticed.
    alive = processes.wait_gone(set(left), timeout=10)
    assert not alive, "processes left behind by a test:\n" + "\n".join(
        f"{pid}: {left[pid].cmdline[:200]}" for pid in sorted(alive)
    )
