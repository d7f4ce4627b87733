"""The yardstick of issue 19: the searcher as it was before that work began, frozen.

A copy of ``patchwork.ai``'s search at commit 68c4c79 (MCTS with its playout policy and
constants, tree reuse, the exact endgame search from 12 spaces without move ordering), cut to
the two-player game on one process. It plays on the package's engine (the rules, which do not
change strength) and is never shipped to users. Every change to the searcher is measured
against it, e.g.

    patchwork tournament "py:benchmarks.baseline:agent" mcts --time 1 --games 200 --workers 2

run from the checkout's root (``py:`` players are imported from the current directory).
"""

from __future__ import annotations

from typing import Any

from .agent import BaselineAgent

__all__ = ["BaselineAgent", "agent"]


def agent(seed: int | None = None, **settings: Any) -> BaselineAgent:
    """The ``py:benchmarks.baseline:agent[@time=S|iterations=N]`` player of tournaments."""
    return BaselineAgent(seed=seed, **settings)
