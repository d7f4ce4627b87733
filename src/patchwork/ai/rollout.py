"""The playouts' learned purchase policy: which of advance and the offered patches to take.

Each option (advance, or a patch offered in one of the circle's first three slots) is
described by a few numbers (``FEATURES``); its utility is their weighted sum, and a playout
draws an option from the softmax of utility / ``tau`` (a conditional logit at ``tau = 1``;
the best at 0) among those that can be bought and fit. The weights are fitted by
``patchwork train`` (``patchwork.ai.train``) to the choices the searcher itself made in
self-play; the package ships them in ``rollout_weights.json`` (solo games' playouts use them
too: weights fitted to play against the Automa, ``patchwork train --solo``, did no better).
Placements come from the
placement policy, as in ``policy``.

None of this is a rule: legality comes from the engine kernels, which these functions only
consult.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from ..engine import kernels as K
from ..engine import layout as L
from ..engine.errors import PatchworkError
from ..engine.tables import (
    PATCH_BUTTONS,
    PATCH_INCOME,
    PATCH_TIME,
    PAYDAYS_AHEAD,
    SPECIAL_SPACES,
)
from . import policy

# What describes an option, in the order of the weights. Advance has only the features that
# name it; a patch has the rest. Buttons are counted as the rulebook counts them at the end
# (one point each; an empty square costs two).
FEATURES = (
    "advance",  # 1 for advance
    "advance_late",  # for advance: how far along the time board the token is (0 to 1)
    "squares_points",  # the points the patch's squares save (2 a square)
    "income_to_come",  # its button income times the income marks still ahead
    "price",  # minus its price in buttons
    "time",  # the spaces the move costs (for advance: the spaces it moves)
    "buttons_after",  # buttons left after the move, at most 20, in tens
    "rate",  # policy.patch_rate: the heuristic points per space of time
    "specials",  # special patches the move picks up on the time board
    "moves_again",  # the token stays behind (or on top): the same player moves next
    "opponent_offer",  # the best rate the opponent can afford among the next offer
    "own_offer",  # the best rate the player can afford among the next offer, moving again
    "slot",  # the patch's place among the offered three (0 to 2)
    "income",  # its button income
    "squares_emptiness",  # its squares times the share of the quilt still empty
    "buttons_low",  # buttons left after the move, at most 5, in fives
)
N_FEATURES = len(FEATURES)
WEIGHTS_FILE = Path(__file__).with_name("rollout_weights.json")


def load_weights(path: Path | str = WEIGHTS_FILE) -> np.ndarray:
    """The weights in a file ``patchwork train`` wrote, checked against ``FEATURES``."""
    path = Path(path)
    try:
        doc: Any = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise PatchworkError(f"cannot read the rollout weights {path}: {e.strerror}") from e
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise PatchworkError(f"the rollout weights {path} are not JSON: {e}") from e
    if not isinstance(doc, dict) or not isinstance(doc.get("weights"), dict):
        raise PatchworkError(
            f"the rollout weights {path} need an object with 'weights': {{feature: number}}"
        )
    weights = doc["weights"]
    missing = [name for name in FEATURES if name not in weights]
    unknown = sorted(set(weights) - set(FEATURES))
    if missing or unknown:
        raise PatchworkError(
            f"the rollout weights {path} do not match this version's features"
            f" (missing: {', '.join(missing) or 'none'}; unknown: {', '.join(unknown) or 'none'})"
        )
    values = [weights[name] for name in FEATURES]
    if not all(isinstance(v, int | float) and math.isfinite(v) for v in values):
        raise PatchworkError(f"the rollout weights {path} must all be finite numbers")
    return np.array(values, dtype=np.float64)


WEIGHTS = load_weights()


@njit(cache=True)
def _specials_taken(s: np.ndarray, old: int, target: int) -> int:
    """Special patches lying on the spaces a token moving from ``old`` to ``target`` crosses."""
    n = 0
    for i in range(len(SPECIAL_SPACES[s[L.EDITION]])):
        if K.special_between(s, i, old, target):
            n += 1
    return n


@njit(cache=True)
def _best_offer(s: np.ndarray, slot: int, buttons: int, position: int) -> float:
    """The best ``patch_rate`` that ``buttons`` can pay among the patches offered after a move
    that buys the patch at circle ``slot`` (-1: none), for a token at ``position``; 0 if
    none can be paid."""
    best = 0.0
    for k in range(K.next_offer_size(s, slot)):
        patch = K.next_offer(s, slot, k)
        if PATCH_BUTTONS[patch] <= buttons:
            best = max(best, policy.patch_rate(patch, position))
    return best


@njit(cache=True)
def option_features(s: np.ndarray, p: int, slot: int, f: np.ndarray) -> None:
    """Write the features of player ``p``'s option into ``f``: advance (``slot`` -1) or the
    patch offered at ``slot`` (which ``p`` can pay for)."""
    position = s[L.POSITION + p]
    other = s[L.POSITION + 1 - p]
    buttons = s[L.BUTTONS + p]
    f[:] = 0.0
    if slot < 0:
        target = K.advance_target(s, p)
        left = buttons + target - position
        f[0] = 1.0
        f[1] = position / K.FINAL
        f[5] = target - position
        f[6] = min(left, 20) / 10.0
        f[8] = _specials_taken(s, position, target)
        f[10] = _best_offer(s, -1, s[L.BUTTONS + 1 - p], other)
        f[15] = min(left, 5) / 5.0
        return
    patch = s[L.CIRCLE + slot]
    target = min(position + PATCH_TIME[patch], K.FINAL)
    left = buttons - PATCH_BUTTONS[patch]
    f[2] = policy.EMPTY_PENALTY * policy.PATCH_CELLS[patch]
    f[3] = PATCH_INCOME[patch] * PAYDAYS_AHEAD[position]
    f[4] = -PATCH_BUTTONS[patch]
    f[5] = PATCH_TIME[patch]
    f[6] = min(left, 20) / 10.0
    f[7] = policy.patch_rate(patch, position)
    f[8] = _specials_taken(s, position, target)
    if K.moves_again(s, p, target):
        f[9] = 1.0
        f[11] = _best_offer(s, slot, left, target)
    else:
        f[10] = _best_offer(s, slot, s[L.BUTTONS + 1 - p], other)
    f[12] = slot
    f[13] = PATCH_INCOME[patch]
    f[14] = policy.PATCH_CELLS[patch] * K.empty_squares(s, p) / K.NUM_SQUARES
    f[15] = min(left, 5) / 5.0


@njit(cache=True)
def _utility(weights: np.ndarray, f: np.ndarray) -> float:
    # A plain loop: np.dot would need SciPy's BLAS, which the compiled code does without.
    u = 0.0
    for i in range(len(f)):
        u += weights[i] * f[i]
    return u


@njit(cache=True)
def _sample(utility: np.ndarray, tau: float, odds: np.ndarray) -> int:
    """An option drawn from the softmax of ``utility / tau`` (the best at ``tau`` 0): what
    adding Gumbel noise of scale ``tau`` and taking the best would give, at one random draw
    rather than two logarithms an option. Options at minus infinity are never drawn;
    ``odds`` is scratch space as long as ``utility``."""
    best = int(np.argmax(utility))
    if tau <= 0.0:
        return best
    top = utility[best]
    total = 0.0
    for i in range(len(utility)):
        odds[i] = math.exp((utility[i] - top) / tau)
        total += odds[i]
    r = np.random.random() * total
    for i in range(len(utility)):
        r -= odds[i]
        if r < 0.0:
            return i
    return best  # rounding left r a hair above zero


@njit(cache=True)
def policy_move(s: np.ndarray, weights: np.ndarray, tau: float, tries: int) -> int:
    """One move of the learned policy (a legal move code); the state must not be final."""
    options = K.OFFERED + 1
    return policy_move_in(
        s, weights, tau, tries, np.empty(N_FEATURES), np.empty(options), np.empty(options)
    )


@njit(cache=True)
def policy_move_in(
    s: np.ndarray,
    weights: np.ndarray,
    tau: float,
    tries: int,
    f: np.ndarray,
    utility: np.ndarray,
    odds: np.ndarray,
) -> int:
    # The buffers come from the caller: a playout reuses them for every move.
    p = K.current_player(s)
    if s[L.PENDING] > 0:
        return K.SPECIAL_BASE + policy.best_special_square(s, p)
    n = K.offer_size(s)
    utility[:] = -np.inf  # [advance, slot 0, slot 1, slot 2]
    option_features(s, p, -1, f)
    utility[0] = _utility(weights, f)
    for j in range(n):
        if K.affordable(s, p, s[L.CIRCLE + j]):
            option_features(s, p, j, f)
            utility[j + 1] = _utility(weights, f)
    # A patch drawn that fits nowhere drops out and the draw is made again among the rest:
    # the same order as Gumbel noise would give.
    while True:
        best = _sample(utility, tau, odds)
        if best == 0:
            return K.ADVANCE
        k = policy.sample_placement(s, p, s[L.CIRCLE + best - 1], tries)
        if k >= 0:
            return K.BUY_BASE + k
        utility[best] = -np.inf


@njit(cache=True)
def playout(s: np.ndarray, weights: np.ndarray, tau: float, tries: int) -> None:
    """Play the learned policy to the end of the game, in place."""
    f = np.empty(N_FEATURES)
    utility = np.empty(K.OFFERED + 1)
    odds = np.empty(K.OFFERED + 1)
    while not K.is_terminal(s):
        K.apply_move(s, policy_move_in(s, weights, tau, tries, f, utility, odds))
