"""Work mapped to results in parallel, behind one interface: in this process, in worker
processes (``--workers``), or on a Ray cluster (``--ray``).

The tournament (its games) and the game review (its positions) give an executor a function
and the work items, and take each result as it is done (``Executor.map_unordered``). Every
item carries its own seeds, so the executor changes the speed and nothing else. Modules:
``executor`` (the interface, this process, worker processes) and ``cluster`` (Ray, an
optional extra imported only when ``--ray`` asks for it).
"""

from __future__ import annotations

import argparse

from .executor import Executor, Hooks, InProcess, ProcessPool, StopFlag

__all__ = [
    "LOCAL",
    "Executor",
    "Hooks",
    "InProcess",
    "ProcessPool",
    "StopFlag",
    "add_ray_option",
    "open_executor",
]

LOCAL = "local"  # Ray's address for a Ray of this machine started for the run


def add_ray_option(parser: argparse.ArgumentParser, help: str) -> None:
    """``--ray [ADDRESS]``: ``args.ray`` is None without it, ``local`` without an address."""
    parser.add_argument("--ray", nargs="?", const=LOCAL, metavar="ADDRESS", help=help)


def open_executor(
    workers: int | None = 1, ray: str | None = None, hooks: Hooks | None = None
) -> Executor:
    """The executor for ``workers`` items at once: on the Ray cluster at ``ray`` when given
    (``local``, ``auto``, ``HOST:PORT`` or ``ray://HOST:PORT``; ``workers`` None: one per CPU
    there), else in that many processes (1: in this one). Raises PatchworkError when Ray is
    not installed or the cluster cannot be reached."""
    if ray is not None:
        from .cluster import RayExecutor  # importing Ray takes a second: only when asked

        return RayExecutor(ray, workers, hooks)
    if workers is None or workers <= 1:
        return InProcess(hooks)
    return ProcessPool(workers, hooks)
