"""What is played: the games of a round robin, each with its circle and its agents' seeds.

Circles depend only on the tournament seed and the setup number (every pair sees the same
ones), and each agent's seed only on the tournament seed, the game number and the seat.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from ..ai import Limit
from ..engine import Rules, standard_circle


@dataclass(frozen=True)
class GameSpec:
    """One game to play: everything a worker process needs, and nothing it must remember."""

    index: int
    setup: int
    pair: tuple[int, int]  # player indices, in the order given
    seats: tuple[int, int]  # player index in seat 0 (moves first) and seat 1
    agents: tuple[str, str]  # agent names in seat 0 and seat 1
    circle_seed: int
    circle: tuple[int, ...]
    agent_seeds: tuple[int, int]
    rules: Rules
    limit: Limit | None
    stop_on_fault: bool = False  # an agent's failure ends the tournament, not just its game


def derive_seed(*parts: object) -> int:
    """A stable 32-bit seed from the tournament seed and a game's coordinates (unlike
    ``hash``, the same in every process and on every run)."""
    text = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=4).digest(), "big")


def schedule(
    agents: Sequence[str],
    games: int,
    seed: int,
    rules: Rules,
    limit: Limit | None,
    stop_on_fault: bool = False,
) -> list[GameSpec]:
    """The games of a round robin, setup by setup, so a stopped tournament is still balanced:
    for every setup each pair plays the circle twice, seats swapped. ``games`` (per pair)
    must be even."""
    specs: list[GameSpec] = []
    pairs = list(combinations(range(len(agents)), 2))
    for setup in range(games // 2):
        circle_seed = derive_seed(seed, "circle", setup)
        circle = tuple(standard_circle(circle_seed))
        for pair in pairs:
            for seats in (pair, pair[::-1]):
                index = len(specs)
                specs.append(
                    GameSpec(
                        index=index,
                        setup=setup,
                        pair=pair,
                        seats=seats,
                        agents=(agents[seats[0]], agents[seats[1]]),
                        circle_seed=circle_seed,
                        circle=circle,
                        agent_seeds=(
                            derive_seed(seed, "agent", index, 0),
                            derive_seed(seed, "agent", index, 1),
                        ),
                        rules=rules,
                        limit=limit,
                        stop_on_fault=stop_on_fault,
                    )
                )
    return specs


def player_labels(agents: Sequence[str]) -> list[str]:
    """Display names, numbered where the same agent plays more than once."""
    out: list[str] = []
    for i, name in enumerate(agents):
        if agents.count(name) > 1:
            out.append(f"{name}#{agents[: i + 1].count(name)}")
        else:
            out.append(name)
    return out
