"""Glicko-2, as Mark Glickman's "Example of the Glicko-2 system" sets it out (the steps are
numbered as there): pure functions over a :class:`Rating`.

A rating period takes the player's rating and the games they played in it (each against an
opponent's rating, before the period, with the score: 1 a win, 0.5 a draw, 0 a loss) and
gives the new rating. A period without games only widens the deviation (step 6). The new
volatility is found by the Illinois algorithm of the paper's 2013 version (step 5).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko's scale over Glicko-2's: 400 / ln(10)
TAU = 0.5  # the system constant: how much the volatility may change (0.3 to 1.2)
EPSILON = 0.000001  # the convergence tolerance of step 5
START = (1500.0, 350.0, 0.06)  # an unrated player's rating, deviation and volatility


@dataclass(frozen=True)
class Rating:
    """A player's rating on the Glicko scale: ``rating`` (1500 at the start), ``rd`` (its
    deviation) and ``volatility``."""

    rating: float = START[0]
    rd: float = START[1]
    volatility: float = START[2]

    @property
    def mu(self) -> float:
        return (self.rating - 1500.0) / SCALE

    @property
    def phi(self) -> float:
        return self.rd / SCALE


@dataclass(frozen=True)
class Game:
    """One game of a rating period: the opponent's rating (as it was before the period) and
    the player's score."""

    opponent: Rating
    score: float


def g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / math.pi**2)


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """E: the expected score against an opponent at ``mu_j`` with deviation ``phi_j``."""
    return 1.0 / (1.0 + math.exp(-g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The player's expected score against ``opponent`` (the opponent's deviation counts)."""
    return expected(player.mu, opponent.mu, opponent.phi)


def new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float = TAU) -> float:
    """Step 5: the new volatility σ', the root of f by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        d = phi * phi + v + ex
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def idle(player: Rating) -> Rating:
    """A rating period without games: only the deviation grows (step 6)."""
    phi_star = math.sqrt(player.phi**2 + player.volatility**2)
    return Rating(player.rating, phi_star * SCALE, player.volatility)


def rate(player: Rating, games: Sequence[Game], tau: float = TAU) -> Rating:
    """The player's rating after one rating period in which they played ``games``."""
    if not games:
        return idle(player)
    mu, phi = player.mu, player.phi
    # Steps 3 and 4: the estimated variance v and the estimated improvement Δ.
    inverse_v = 0.0
    improvement = 0.0
    for game in games:
        o = game.opponent
        g_j = g(o.phi)
        e_j = expected(mu, o.mu, o.phi)
        inverse_v += g_j * g_j * e_j * (1.0 - e_j)
        improvement += g_j * (game.score - e_j)
    v = 1.0 / inverse_v
    delta = v * improvement
    sigma = new_volatility(player.volatility, phi, v, delta, tau)
    # Steps 6 to 8: the pre-period deviation, the new deviation and rating, back to scale.
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(SCALE * new_mu + 1500.0, SCALE * new_phi, sigma)
