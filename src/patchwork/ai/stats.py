"""Statistics for match results: win rates, Elo and their 95% intervals.

Patchwork has no draws (ties are broken by who finished first), so every game is one win and
one loss; all functions here count wins out of games. Pure functions of counts, kept apart from
the tournament runner so they can be checked against known values.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""

ELO_SCALE = 400.0
"""Elo points per factor of ten in the odds of winning."""


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a win rate: unlike the normal one it stays inside
    [0, 1] and is sensible for 0 or all wins, which small tournaments often give."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    z2 = z * z
    denom = 1.0 + z2 / games
    centre = (p + z2 / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / denom
    # The ends are exact at 0 and at all wins (the formula gives them up to rounding).
    lo = 0.0 if wins <= 0 else max(0.0, centre - half)
    hi = 1.0 if wins >= games else min(1.0, centre + half)
    return lo, hi


def elo_from_score(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (0.75 is about +191).

    A score of 0 or 1 gives -inf or +inf: no finite rating explains it."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -ELO_SCALE * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger (the logistic curve)."""
    return 1.0 / (1.0 + math.pow(10.0, min(300.0, -elo / ELO_SCALE)))


def elo_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """A 95% interval for the Elo difference: the Wilson interval of the score mapped through
    the logistic curve (monotone, so the coverage carries over; unbounded at 0 or all wins)."""
    lo, hi = wilson_interval(wins, games, z)
    return elo_from_score(lo), elo_from_score(hi)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """The mean and the half-width of its normal 95% interval (0 for fewer than two values)."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, z * math.sqrt(var / n)


# -- Bradley-Terry ----------------------------------------------------------------------------


def has_mle(wins: Sequence[Sequence[float]]) -> bool:
    """Whether Bradley-Terry ratings exist: every player must beat, directly or through a
    chain, every other (the "i beat j" graph is strongly connected); otherwise someone's best
    rating is infinite."""
    k = len(wins)

    def reach(edge: bool) -> int:
        seen = {0}
        todo = [0]
        while todo:
            i = todo.pop()
            for j in range(k):
                won = wins[i][j] if edge else wins[j][i]
                if j not in seen and won > 0:
                    seen.add(j)
                    todo.append(j)
        return len(seen)

    return k <= 1 or (reach(True) == k and reach(False) == k)


def bradley_terry(
    wins: Sequence[Sequence[float]],
    prior: float = 0.0,
    anchor: int | None = 0,
    tol: float = 1e-10,
    max_iterations: int = 10_000,
) -> list[float]:
    """Maximum-likelihood Elo ratings from ``wins[i][j]`` (games i won against j).

    Uses the minorise-maximise iteration of Hunter (2004), which always increases the
    likelihood and needs no step size. ``prior`` adds that many virtual wins each way to
    every pair that played, so the fit exists even when someone won or lost everything.
    Ratings are relative to player ``anchor`` (0 there), or average 0 with ``anchor=None``.
    Raises ValueError when the ratings do not exist (see :func:`has_mle`) and prior is 0.
    """
    k = len(wins)
    if k == 0:
        return []
    played = [[wins[i][j] + wins[j][i] > 0 for j in range(k)] for i in range(k)]
    w = [
        [wins[i][j] + (prior if played[i][j] and i != j else 0.0) for j in range(k)]
        for i in range(k)
    ]
    if not has_mle(w):
        raise ValueError("no finite ratings: some player won or lost every game that links it")
    n = [[w[i][j] + w[j][i] if i != j else 0.0 for j in range(k)] for i in range(k)]
    total = [sum(w[i][j] for j in range(k) if j != i) for i in range(k)]
    gamma = [1.0] * k
    for _ in range(max_iterations):
        new = [
            total[i] / sum(n[i][j] / (gamma[i] + gamma[j]) for j in range(k) if n[i][j] > 0)
            for i in range(k)
        ]
        # Fix the scale (the likelihood only sees ratios): geometric mean 1.
        g = math.exp(sum(math.log(x) for x in new) / k)
        new = [x / g for x in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, gamma, strict=True))
        gamma = new
        if change < tol:
            break
    elo = [ELO_SCALE * math.log10(x) for x in gamma]
    shift = elo[anchor] if anchor is not None else sum(elo) / k
    return [e - shift for e in elo]


def win_matrix(outcomes: Sequence[tuple[int, int]], players: int) -> list[list[float]]:
    """``wins[i][j]`` from (winner, loser) pairs."""
    wins = [[0.0] * players for _ in range(players)]
    for winner, loser in outcomes:
        wins[winner][loser] += 1.0
    return wins


def fit_elo(wins: Sequence[Sequence[float]], anchor: int | None = 0) -> list[float]:
    """Bradley-Terry Elo, with half a virtual win each way per pair only when the plain fit
    does not exist (a clean sweep), so ordinary results are not shrunk.

    All NaN when even that fails: the pairs that played do not link every player (an
    interrupted round robin)."""
    try:
        return bradley_terry(wins, prior=0.0 if has_mle(wins) else 0.5, anchor=anchor)
    except ValueError:
        return [math.nan] * len(wins)


def bootstrap_elo_intervals(
    outcomes: Sequence[tuple[int, int]],
    players: int,
    samples: int = 200,
    seed: int = 0,
    anchor: int | None = 0,
    level: float = 0.95,
) -> list[tuple[float, float]]:
    """Percentile-bootstrap intervals for :func:`fit_elo`, resampling whole games with a fixed
    seed (reproducible, and cheap for the handful of players a tournament has)."""
    if not outcomes:
        return [(-math.inf, math.inf)] * players
    rng = random.Random(seed)
    fits: list[list[float]] = []
    m = len(outcomes)
    for _ in range(samples):
        sample = [outcomes[rng.randrange(m)] for _ in range(m)]
        fits.append(fit_elo(win_matrix(sample, players), anchor=anchor))
    tail = (1.0 - level) / 2
    out = []
    for i in range(players):
        values = sorted(f[i] for f in fits if not math.isnan(f[i]))
        if not values:
            out.append((math.nan, math.nan))
            continue
        s = len(values)
        lo = values[min(s - 1, math.floor(tail * s))]
        hi = values[max(0, math.ceil((1.0 - tail) * s) - 1)]
        out.append((lo, hi))
    return out
