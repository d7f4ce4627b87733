"""Patchwork for AI research: Gymnasium, PettingZoo and OpenSpiel adapters (docs/envs.md).

The shared action ids and observation vector live in :mod:`patchwork.envs.encoding` (numpy
only). Each framework's adapter is its own submodule, imported on demand, so this package
needs none of them:

    patchwork.envs.gymnasium    PatchworkEnv, registered as "Patchwork-v0"   [rl]
    patchwork.envs.pettingzoo   AEC env (env(), raw_env)                       [rl]
    patchwork.envs.openspiel    python_patchwork for pyspiel.load_game         [openspiel]
"""

from __future__ import annotations

from ..engine.errors import PatchworkError
from .encoding import (
    NUM_ACTIONS,
    OBS_SIZE,
    action_to_move,
    encode_observation,
    legal_action_mask,
    legal_actions,
    move_to_action,
)

__all__ = [
    "NUM_ACTIONS",
    "OBS_SIZE",
    "MissingExtraError",
    "action_to_move",
    "encode_observation",
    "legal_action_mask",
    "legal_actions",
    "missing_extra",
    "move_to_action",
]


class MissingExtraError(PatchworkError, ImportError):
    """A framework an adapter needs is not installed."""


def missing_extra(module: str, extra: str) -> MissingExtraError:
    """The error to raise when an adapter's framework cannot be imported."""
    return MissingExtraError(
        f"{module} is not installed; this adapter needs it: install patchwork-game[{extra}] "
        f"(in a checkout: pip install '.[{extra}]')"
    )
