"""The ladder for people: thirteen levels, each beating the one below in 60-80% of its games.

The lowest levels play as people learning the game play (``GreedyAgent`` with a person's
blind spots: income bought late, time spent freely, a corner walled off); level 2 is the
playout policy with a lot of noise; level 4 looks one move ahead with nothing missed; from
level 5 up Monte Carlo tree search looks further, each level with more iterations. Every
level but the top is set in search iterations, not seconds, so it plays the same on a slow
server as on a fast one (and the same game again with the same seed); level 13 is the
strongest the machine can do in 5 s. The measured steps are in docs/strength.md.

Before this ladder there were five levels. Records and games that name one of those
(``FORMER_LEVELS``) are read as the level here that plays as it did (the top one now with
the learned value, ``ai.value``, which levels below the top leave out).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..engine.errors import PatchworkError
from ..i18n import N_
from .agents import FULL_SIGHT, Agent, GreedyAgent, Sight
from .limit import Limit
from .mcts import Params
from .policy_agent import PolicyAgent
from .search import MCTSAgent

PERSON, POLICY, SEARCH = "person", "policy", "search"  # what a level's agent is


@dataclass(frozen=True)
class Rung:
    """One level: who it plays like (English, marked for the catalogs), and its agent: a
    person's look one move ahead (``sight``, ``noise``), the noisy playout policy, or search
    (``iterations``, or ``seconds`` on ``workers`` processes)."""

    description: str
    kind: str  # PERSON, POLICY or SEARCH
    sight: Sight = FULL_SIGHT
    noise: float = 0.0
    iterations: int | None = None
    seconds: float | None = None
    workers: int = 1
    exact_endgame: bool = True
    # Whether its leaves use the learned value (``ai.value``), which came after the ladder
    # was measured: the levels below the top play as they did when their steps were measured.
    learned_value: bool = False


LADDER: dict[int, Rung] = {
    1: Rung(
        N_("plays its first game: buys the biggest patches and leaves holes"),
        PERSON,
        Sight(income=0.0, time=0.5, packing=0.0),
        noise=4.0,
    ),
    2: Rung(N_("a beginner: buys what shines, often at the wrong moment"), POLICY, noise=2.0),
    3: Rung(
        N_("a learner: sees income and time, still walls off a corner"),
        PERSON,
        Sight(income=0.4, time=0.8, packing=0.3),
        noise=3.5,
    ),
    4: Rung(N_("a casual player: weighs every move, one move ahead"), PERSON),
    # Levels 5-8 leave the exact endgame search to the stronger levels.
    5: Rung(
        N_("an improver: looks a little past the next move"),
        SEARCH,
        iterations=13,
        exact_endgame=False,
    ),
    6: Rung(N_("a club player: plans a few turns"), SEARCH, iterations=25, exact_endgame=False),
    7: Rung(
        N_("a keen club player: plans for the next paydays"),
        SEARCH,
        iterations=50,
        exact_endgame=False,
    ),
    8: Rung(
        N_("a strong club player: sound, with slips near the end"),
        SEARCH,
        iterations=100,
        exact_endgame=False,
    ),
    9: Rung(N_("a tournament player: plays the last moves perfectly"), SEARCH, iterations=250),
    10: Rung(N_("a strong tournament player who rarely wastes a square"), SEARCH, iterations=800),
    11: Rung(N_("an expert: sound in every part of the game"), SEARCH, iterations=3_000),
    12: Rung(N_("a master: deep and quick"), SEARCH, iterations=10_000),
    13: Rung(
        N_("the full searcher: thinks hardest, a few seconds a move"),
        SEARCH,
        seconds=5.0,
        workers=2,
        learned_value=True,
    ),
}
LEVELS = tuple(LADDER)
DEFAULT_LEVEL = 4  # what a game against the AI is when nobody chose: weighs every move
DESCRIPTIONS = {n: rung.description for n, rung in LADDER.items()}

# The five levels before this ladder, by the level here that plays as each did (exactly, but
# for level 13's learned value): what a record of version 2 or less, or a game stored before
# migration 0013, means.
FORMER_LEVELS: Mapping[int, int] = {1: 2, 2: 4, 3: 8, 4: 11, 5: 13}


def level(n: int, seed: int | None = None, **options: Any) -> Agent:
    """The agent for level ``n``; options override the level's settings."""
    rung = LADDER.get(n)
    if rung is None:
        raise PatchworkError(f"there is no level {n!r}: levels are 1-{len(LADDER)}")
    name = f"level{n}"
    if rung.kind == POLICY:
        return PolicyAgent(noise=options.pop("noise", rung.noise), seed=seed, name=name, **options)
    if rung.kind == PERSON:
        options.setdefault("sight", rung.sight)
        options.setdefault("noise", rung.noise)
        return GreedyAgent(seed=seed, name=name, **options)
    options.setdefault("workers", rung.workers)
    options.setdefault("exact_endgame", rung.exact_endgame)
    options.setdefault("params", Params() if rung.learned_value else Params(value_mix=0.0))
    limit = options.pop("limit", Limit(time=rung.seconds, iterations=rung.iterations))
    return MCTSAgent(limit=limit, seed=seed, name=name, **options)


def former(n: int) -> int:
    """The level here that plays as level ``n`` of the five-level ladder did."""
    if n not in FORMER_LEVELS:
        raise PatchworkError(f"there was no level {n!r}: the former levels were 1-5")
    return FORMER_LEVELS[n]


def recorded_kind(kind: str, version: int) -> str:
    """A seat's kind as a record of ``version`` wrote it, in this ladder's names: a version-2
    record's "level3" (the former ladder's) is "level8"; anything else is as written."""
    number = kind.removeprefix("level")
    if version < 3 and kind.startswith("level") and number.isdigit():
        return f"level{former(int(number))}"
    return kind


@cache
def ponders(n: int) -> bool:
    """Whether level ``n`` thinks on the opponent's time (``MCTSAgent.ponders``)."""
    agent = level(n)
    return isinstance(agent, MCTSAgent) and agent.ponders
