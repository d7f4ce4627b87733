"""Glicko-2 against Glickman's worked example ("Example of the Glicko-2 system"), and the AI
levels' ratings computed from the measured ladder."""

from __future__ import annotations

import math

import pytest

from patchwork.ai.levels import LEVELS, former
from patchwork.server.ratings import glicko2
from patchwork.server.ratings.glicko2 import Game, Rating
from patchwork.server.ratings.rating import (
    AI_RD,
    ANCHOR_RATING,
    LEVEL_RATINGS,
    MEASURED_WIN_RATES,
    elo_difference,
    level_ratings,
)

PLAYER = Rating(1500, 200, 0.06)
PAPER_GAMES = [
    Game(Rating(1400, 30), 1.0),
    Game(Rating(1550, 100), 0.0),
    Game(Rating(1700, 300), 0.0),
]


def test_the_papers_example() -> None:
    after = glicko2.rate(PLAYER, PAPER_GAMES)
    # The paper: r' = 1464.06, RD' = 151.52, sigma' = 0.05999. (It rounds its intermediate
    # values, mu' = -0.2069, to four places; exact arithmetic gives 1464.0507.)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert round(after.rd, 2) == 151.52
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)
    assert round(after.mu, 4) == -0.2069
    assert round(after.phi, 4) == 0.8722


def test_the_papers_intermediate_quantities() -> None:
    mu, phi = PLAYER.mu, PLAYER.phi
    assert (round(mu, 4), round(phi, 4)) == (0.0, 1.1513)
    gs = [glicko2.g(game.opponent.phi) for game in PAPER_GAMES]
    es = [glicko2.expected(mu, game.opponent.mu, game.opponent.phi) for game in PAPER_GAMES]
    assert [round(x, 4) for x in gs] == [0.9955, 0.9531, 0.7242]
    assert [round(x, 3) for x in es] == [0.639, 0.432, 0.303]
    v = 1 / sum(g * g * e * (1 - e) for g, e in zip(gs, es, strict=True))
    delta = v * sum(g * (x.score - e) for g, e, x in zip(gs, es, PAPER_GAMES, strict=True))
    # The paper computes v and delta from its rounded g and E: the same to its precision.
    assert v == pytest.approx(1.7785, abs=1e-3)
    assert delta == pytest.approx(-0.4834, abs=1e-3)
    assert glicko2.new_volatility(0.06, phi, v, delta) == pytest.approx(0.05999, abs=1e-5)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = glicko2.rate(PLAYER, [])
    assert after.rating == PLAYER.rating and after.volatility == PLAYER.volatility
    expected = glicko2.SCALE * math.sqrt(PLAYER.phi**2 + PLAYER.volatility**2)
    assert after.rd == pytest.approx(expected)
    assert after.rd > PLAYER.rd
    assert glicko2.idle(PLAYER) == after


def test_outcomes_are_symmetric() -> None:
    """Two equal players: the winner gains what the loser loses; a draw changes nothing;
    each side's expected scores add up to one."""
    a = b = Rating()
    win = glicko2.rate(a, [Game(b, 1.0)])
    loss = glicko2.rate(b, [Game(a, 0.0)])
    assert win.rating - 1500 == pytest.approx(1500 - loss.rating)
    assert win.rd == pytest.approx(loss.rd) and win.rd < a.rd
    draw = glicko2.rate(a, [Game(b, 0.5)])
    assert draw.rating == pytest.approx(1500)
    strong, weak = Rating(1700, 80), Rating(1400, 80)
    total = glicko2.expected_score(strong, weak) + glicko2.expected_score(weak, strong)
    assert total == pytest.approx(1.0)
    # An upset moves the ratings more than the expected result does.
    upset = glicko2.rate(weak, [Game(strong, 1.0)]).rating - weak.rating
    expected = glicko2.rate(strong, [Game(weak, 1.0)]).rating - strong.rating
    assert upset > expected > 0


def test_the_ai_ladder_comes_from_the_measured_win_rates() -> None:
    assert LEVEL_RATINGS[former(1)] == ANCHOR_RATING == 800  # the former beginner keeps 800
    levels = sorted(LEVEL_RATINGS)
    assert levels == list(LEVELS)
    steps = [LEVEL_RATINGS[n] - LEVEL_RATINGS[n - 1] for n in levels[1:]]
    assert all(step > 0 for step in steps)  # monotone
    assert steps == [pytest.approx(elo_difference(MEASURED_WIN_RATES[n])) for n in levels[1:]]
    # docs/strength.md "Strength": level 2 won 65.0% against level 1, +108.
    assert round(elo_difference(0.65)) == 108 and round(LEVEL_RATINGS[1]) == 692
    assert [round(LEVEL_RATINGS[n]) for n in levels] == [
        692, 800, 889, 1049, 1213, 1418, 1561, 1684, 1875, 2080, 2195, 2314, 2451,
    ]  # fmt: skip
    evens = dict.fromkeys(levels[1:], 0.5)
    assert level_ratings(evens, 1000) == dict.fromkeys(levels, 1000)
    assert AI_RD == 60
