"""``patchwork train --placements``: fit the placement policy to what placements are worth.

Games are played by the playout policy from random circles. At each of its purchases, up to
``MAX_PLACEMENTS`` of the bought patch's fitting placements are each played out ``samples``
times, all with the same random numbers (so that placements are compared on the same luck),
and valued by the placing player's mean final score margin. A linear model of the placement
features (``policy.PLACEMENT_FEATURES``) is fitted by least squares to those values within
each purchase (values and features less the purchase's mean: only the differences between
placements of one patch count). Its weights, in points of final margin per unit of each
feature, are written as JSON for ``policy.load_placement_weights``; the package ships them in
``patchwork/ai/placement_weights.json``.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import TextIO

import numpy as np
from numba import njit

from ..engine import kernels as K
from ..engine import layout as L
from ..engine.errors import PatchworkError
from ..engine.state import new_game
from ..engine.tables import MODE_COUNT, MODE_INDEX, PL_PATCH
from ..parallel import open_executor
from . import policy, rollout

MAX_PLACEMENTS = 40  # placements valued per purchase, drawn at random when more fit
HELD_OUT = 0.2  # the share of games kept out of the fit to measure how well it generalises
TAU = 1.0  # the playout policy's noise, as the search uses it


@dataclass(frozen=True)
class Purchase:
    """One purchase: each valued placement's features (a row each) and its mean margin."""

    features: np.ndarray
    values: np.ndarray


@njit(cache=True)
def _value_placements(
    s: np.ndarray,
    patch: int,
    samples: int,
    seed: int,
    purchase: np.ndarray,
    placement: np.ndarray,
    features: np.ndarray,
    values: np.ndarray,
) -> int:
    """Value up to ``len(values)`` placements of ``patch`` for the player to move; returns how
    many (their rows in ``features`` and ``values``)."""
    p = K.current_player(s)
    mode = s[L.MODE]
    lo = s[L.QUILT_LO + p]
    hi = s[L.QUILT_HI + p]
    bonus_open = s[L.BONUS] < 0
    fits = np.empty(MODE_COUNT[mode, patch], dtype=np.int64)
    n = 0
    for i in range(MODE_COUNT[mode, patch]):
        if K.footprint_free(mode, patch, i, lo, hi):
            fits[n] = MODE_INDEX[mode, patch, i]
            n += 1
    np.random.seed(seed)
    chosen = np.random.permutation(fits[:n])[: len(values)]
    after = np.empty_like(s)
    game = np.empty_like(s)
    for j in range(len(chosen)):
        policy.placement_features(lo, hi, chosen[j], bonus_open, features[j])
        after[:] = s
        K.apply_move(after, K.BUY_BASE + chosen[j])
        total = 0.0
        for r in range(samples):
            np.random.seed(seed + 1 + r)  # the same luck for every placement
            game[:] = after
            rollout.playout(game, purchase, TAU, 8, placement)
            total += K.score(game, p) - K.score(game, 1 - p)
        values[j] = total / samples
    return len(chosen)


def value_game(item: tuple[int, int, bool]) -> list[Purchase]:
    """One game of the playout policy with its purchases valued: ``(seed, samples,
    heuristic)``; ``heuristic``: the playouts place by the heuristic weights, not the
    package's."""
    seed, samples, heuristic = item
    placement = policy.HEURISTIC_PLACEMENT if heuristic else policy.PLACEMENT_WEIGHTS
    rng = np.random.default_rng(seed)
    s = new_game(seed=seed).vector.copy()
    out = []
    while not K.is_terminal(s):
        policy.seed(int(rng.integers(1 << 31)))
        code = int(rollout.policy_move(s, rollout.WEIGHTS, TAU, 8, placement))
        if code >= K.BUY_BASE:
            features = np.zeros((MAX_PLACEMENTS, policy.N_PLACEMENT_FEATURES))
            values = np.zeros(MAX_PLACEMENTS)
            patch = int(PL_PATCH[code - K.BUY_BASE])
            n = _value_placements(
                s,
                patch,
                samples,
                int(rng.integers(1 << 30)),
                rollout.WEIGHTS,
                placement,
                features,
                values,
            )
            if n > 1:
                out.append(Purchase(features[:n], values[:n]))
        K.apply_move(s, code)
    return out


def _centred(purchases: list[Purchase]) -> tuple[np.ndarray, np.ndarray]:
    """All rows and values, each less its purchase's mean."""
    x = np.concatenate([p.features - p.features.mean(axis=0) for p in purchases])
    y = np.concatenate([p.values - p.values.mean() for p in purchases])
    return x, y


def fit(purchases: list[Purchase]) -> np.ndarray:
    """The weights whose scores best match the placements' values within each purchase."""
    if not purchases:
        raise PatchworkError("no purchases to fit: play more games")
    x, y = _centred(purchases)
    w: np.ndarray = np.linalg.lstsq(x, y, rcond=None)[0]
    return w


def regret(purchases: list[Purchase], w: np.ndarray | None) -> float:
    """The mean margin lost against the best valued placement by taking the one the weights
    ``w`` score highest (None: a placement at random, on average)."""
    lost = [
        p.values.max() - (p.values.mean() if w is None else p.values[np.argmax(p.features @ w)])
        for p in purchases
    ]
    return float(np.mean(lost)) if lost else 0.0


def train(
    games: int,
    samples: int,
    seed: int,
    workers: int = 1,
    heuristic: bool = False,
    log: TextIO = sys.stderr,
) -> dict[str, object]:
    """Play and value ``games`` games, fit, and return the weights file's content."""
    if games < 2:
        raise PatchworkError("--games must be at least 2 (one is held out to check the fit)")
    if samples < 1:
        raise PatchworkError("--samples must be at least 1")
    seeds = np.random.SeedSequence(seed).generate_state(games, dtype=np.uint32)
    per_game: dict[int, list[Purchase]] = {}
    start = last = time.perf_counter()
    with open_executor(workers) as executor:
        items = [(g, (int(s), samples, heuristic)) for g, s in enumerate(seeds)]
        for i, (g, purchases) in enumerate(executor.map_unordered(_indexed, items), start=1):
            per_game[g] = purchases
            now = time.perf_counter()
            if now - last >= 10 or i == games:
                last = now
                elapsed = timedelta(seconds=round(now - start))
                eta = timedelta(seconds=round((now - start) / i * (games - i)))
                n = sum(len(p) for p in per_game.values())
                print(f"games {i}/{games}  purchases {n}  elapsed {elapsed}  eta {eta}", file=log)
    ordered = [per_game[g] for g in range(games)]
    cut = max(1, min(games - 1, round(games * (1 - HELD_OUT))))
    train_set = [p for g in ordered[:cut] for p in g]
    test_set = [p for g in ordered[cut:] for p in g]
    checked = fit(train_set)
    weights = fit(train_set + test_set)
    return {
        "weights": {
            name: round(float(v), 6)
            for name, v in zip(policy.PLACEMENT_FEATURES, weights, strict=True)
        },
        "trained": {
            "games": games,
            "samples": samples,
            "seed": seed,
            "playouts": "heuristic" if heuristic else "learned",
            "purchases": len(train_set) + len(test_set),
            "held_out_games": games - cut,
            "held_out_regret": round(regret(test_set, checked), 4),
            "held_out_heuristic_regret": round(regret(test_set, policy.HEURISTIC_PLACEMENT), 4),
            "held_out_random_regret": round(regret(test_set, None), 4),
        },
    }


def _indexed(item: tuple[int, tuple[int, int, bool]]) -> tuple[int, list[Purchase]]:
    return item[0], value_game(item[1])
