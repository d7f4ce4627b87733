"""Agents by name: what ``--opponent``, tournaments and the protocol accept."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.errors import PatchworkError
from .agents import Agent, GreedyAgent, RandomAgent
from .levels import LEVELS, level
from .policy_agent import PolicyAgent
from .search import MCTSAgent


def _level(n: int) -> Callable[..., Agent]:
    def build(**options: Any) -> Agent:
        return level(n, **options)

    return build


AGENTS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "policy": PolicyAgent,
    "mcts": MCTSAgent,
    **{f"level{n}": _level(n) for n in LEVELS},
}


def agent_names() -> tuple[str, ...]:
    """The names ``get_agent`` accepts (for option choices and help texts)."""
    return tuple(AGENTS)


def get_agent(name: str, **options: Any) -> Agent:
    """Build an agent by name, e.g. ``get_agent("level3", seed=7)``; ``level1``-``level5``
    are the ladder for people, ``mcts`` the searcher with its options."""
    key = name.strip().lower().replace(" ", "")
    factory = AGENTS.get(key)
    if factory is None:
        raise PatchworkError(f"unknown agent {name!r}: choose one of {', '.join(AGENTS)}")
    try:
        return factory(**options)
    except TypeError as e:
        raise PatchworkError(f"bad options for agent {name!r}: {e}") from None
