"""Agents by name: what ``--opponent``, tournaments and the protocol accept."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.errors import PatchworkError
from . import solo_value, value
from .agents import Agent, GreedyAgent, RandomAgent, Sight
from .levels import LEVELS, level
from .limit import Limit
from .mcts import Params
from .policy_agent import PolicyAgent
from .rollout import load_weights
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


# What a spec's options may set, and how their text is read.
SPEC_OPTIONS: dict[str, Callable[[str], Any]] = {
    "time": float,
    "iterations": int,
    "workers": int,
    "exact_endgame": lambda text: _flag(text),
    "endgame_spaces": int,
    "reuse": lambda text: _flag(text),
    "noise": float,
    "sight": Sight.parse,  # greedy's: income:time:packing
    "worlds": int,  # the searcher's sampled orders of Automa's deck, in a solo game
}
# The searcher's constants (mcts.Params), settable the same way so matches can tune them:
# ``mcts@c_uct=0.5,margin_weight=0.3``.
PARAM_OPTIONS: dict[str, Callable[[str], Any]] = {
    "c_uct": float,
    "c_place": float,
    "widen_c": float,
    "widen_alpha": float,
    "playout_noise": float,
    "rollout_tau": float,
    "rollout_weights": load_weights,  # a file ``patchwork train`` wrote
    "tries": int,
    "margin_weight": float,
    "margin_scale": float,
    "solve_spaces": int,
    "solve_budget": int,
    "solo_solve_spaces": int,
    "solo_weights": load_weights,  # a file ``patchwork train --solo`` wrote
    "value_mix": float,
    "value_weights": value.load,  # a file benchmarks/value_net.py fit wrote
    "solo_observe": lambda text: _flag(text),
    "solo_fresh_worlds": lambda text: _flag(text),
    "solo_value_mix": float,
    "solo_value_weights": solo_value.load,  # fitted to solo self-play (value_net.py)
}


def _flag(text: str) -> bool:
    if text.lower() in ("1", "true", "yes", "on"):
        return True
    if text.lower() in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{text!r} is not yes or no")


def _literal(text: str) -> Any:
    """A setting no agent of ours declares, as its text reads: a number, true/false, or text."""
    for read in (int, float):
        try:
            return read(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def parse_spec(spec: str, open_keys: bool = False) -> tuple[str, dict[str, Any]]:
    """``"level11@iterations=10000,workers=2"`` -> ``("level11", {"limit": ..., "workers": 2})``:
    a name with settings, so tournaments and benchmarks can vary an agent from the command line.
    With ``open_keys`` (an agent from outside the package, which declares its own settings) a
    key not listed here is passed on as its text reads, rather than refused."""
    name, _at, settings = spec.partition("@")
    options: dict[str, Any] = {}
    limit: dict[str, Any] = {}
    params: dict[str, Any] = {}
    for item in filter(None, (s.strip() for s in settings.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip().replace("-", "_")
        read = SPEC_OPTIONS.get(key) or PARAM_OPTIONS.get(key) or (_literal if open_keys else None)
        if not eq or read is None:
            raise PatchworkError(
                f"bad setting {item!r} in agent {spec!r}: write key=value with a key among "
                f"{', '.join([*SPEC_OPTIONS, *PARAM_OPTIONS])}"
            )
        try:
            parsed = read(value.strip())
        except (ValueError, PatchworkError) as e:
            raise PatchworkError(f"bad value for {key} in agent {spec!r}: {e}") from None
        if key in PARAM_OPTIONS:
            params["noise" if key == "playout_noise" else key] = parsed
        else:
            (limit if key in ("time", "iterations") else options)[key] = parsed
    if limit:
        options["limit"] = Limit(**limit)
    if params:
        options["params"] = Params(**params)
    return name, options


def get_agent(name: str, **options: Any) -> Agent:
    """Build an agent by name, e.g. ``get_agent("level3", seed=7)``; ``level1``-``level13``
    are the ladder for people (``ai.levels``), ``mcts`` the searcher with its options. The
    name may carry settings after ``@``: ``get_agent("mcts@iterations=5000,workers=2")``."""
    base, settings = parse_spec(name)
    key = base.strip().lower().replace(" ", "")
    factory = AGENTS.get(key)
    if factory is None:
        raise PatchworkError(f"unknown agent {name!r}: choose one of {', '.join(AGENTS)}")
    try:
        return factory(**{**settings, **options})
    except TypeError as e:
        raise PatchworkError(f"bad options for agent {name!r}: {e}") from None
