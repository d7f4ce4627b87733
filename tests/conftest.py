"""Session-wide checks: no test leaves a process of this checkout running after the session."""

from __future__ import annotations

import os
from collections.abc import Iterator
from types import ModuleType

import pytest

import processes

# The helpers of the tests that start servers and bots.
_SLOW_HELPERS = {"server_fixtures", "bot_fixtures"}


def _starts_processes(module: ModuleType) -> bool:
    """A file of browser, terminal, server or bot tests (the slow ones)."""
    if "web" in module.__name__.split(".") or module.__name__.startswith("test_tui"):
        return True
    names = {getattr(v, "__module__", None) for v in vars(module).values()}
    return bool(names & _SLOW_HELPERS) or any(
        getattr(v, "__name__", None) in _SLOW_HELPERS for v in vars(module).values()
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files that start servers, bots, browsers or terminals first, each file's tests kept
    together and in order: the workers (``--dist loadfile --no-loadscope-reorder`` hands out
    whole files in this order) then end on the many quick files together, rather than some
    waiting while another runs a slow file that came last."""
    slow = {
        item.module.__name__: _starts_processes(item.module)
        for item in items
        if isinstance(item, pytest.Function)
    }
    items.sort(key=lambda item: not slow.get(getattr(item.module, "__name__", ""), False))


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
