"""Session-wide: no test leaves a process of this checkout running after the session, and
the tests' temporary files stay in the checkout's output folder."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import processes

# The tests' temporary folders go under the checkout's output folder (git ignores it), not the
# system's /tmp: pytest's numbered folders (the last three runs kept), so that two runs at once
# in one checkout each have their own.
TEMP_ROOT = Path(__file__).resolve().parent.parent / "test-output"


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    if "PYTEST_DEBUG_TEMPROOT" not in os.environ:
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(TEMP_ROOT)
    # So does what the tests' processes put in the system's temporary folder: multiprocessing's
    # pymp-* folders, which a server stopped by a signal never removes, and the browsers'.
    scratch = TEMP_ROOT / "tmp"
    scratch.mkdir(parents=True, exist_ok=True)  # (a fresh clone has no output folder yet)
    os.environ["TMPDIR"] = tempfile.tempdir = str(scratch)


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
