"""Arenas, lichess style: for the event's duration a player who finishes a game is paired again
at once with a waiting player near them in the standings; points reward winning streaks.

Points of one game (results 1, 0.5, 0 as in Swiss): a win 2, a draw 1, a loss 0. A player is
*on fire* after two wins in a row: every game they play while on fire counts double (a win 4,
a draw 2, a loss 0), and any game that is not a win (a draw or a loss) puts the fire out after
it is counted. So W W W W D W W W L scores 2 2 4 4 2 2 2 4 0: the third and fourth wins are
doubled, the draw is doubled and ends the streak, the next two wins start a new one, and the
win after them is doubled.

The table: points, then games played (fewer first: the same points in fewer games is the
better performance, and playing many quick games to pile up points is not rewarded), then
rating, then id.

Pairing: the waiting players (not playing, not paused), in their order in the table, are paired
by a maximum weight matching (networkx), in this priority: as many pairs as possible (one
waits when their number is odd), as few pairs of last opponents as possible (a player meets
their last opponent again only when nobody else can be paired with them), the lowest-placed
player waits, and partners as close in the table as possible (the sum of the squares of their
distances in the waiting order: neighbours first). In a pair the player with fewer firsts
(firsts minus seconds) moves first; if even, the higher-placed one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .matching import NOBODY, cheapest_pairs
from .swiss import Pair, PlayerId

WIN_POINTS = 2
DRAW_POINTS = 1
STREAK = 2  # wins in a row that light the fire
FIRE = 2  # what the fire multiplies


def game_points(results: Sequence[float]) -> list[int]:
    """The points of each game of a player's results, in the order played."""
    points = []
    wins_in_a_row = 0
    for result in results:
        on_fire = wins_in_a_row >= STREAK
        if result == 1.0:
            base = WIN_POINTS
            wins_in_a_row += 1
        elif result == 0.5:
            base = DRAW_POINTS
            wins_in_a_row = 0
        elif result == 0.0:
            base = 0
            wins_in_a_row = 0
        else:
            raise ValueError(f"a game's result is 1, 0.5 or 0, not {result!r}")
        points.append(base * FIRE if on_fire else base)
    return points


def on_fire(results: Sequence[float]) -> bool:
    """Whether the player's next game counts double (their last two games were won, after
    any game that was not)."""
    tail = list(results[-STREAK:])
    return len(tail) == STREAK and all(r == 1.0 for r in tail)


@dataclass(frozen=True)
class ArenaPlayer:
    """A player of the arena with their results in the order played."""

    id: PlayerId
    rating: float
    results: tuple[float, ...] = ()


@dataclass(frozen=True)
class ArenaStanding:
    place: int
    id: PlayerId
    points: int
    games: int
    rating: float
    on_fire: bool
    results: tuple[float, ...] = ()


def arena_standings(players: Sequence[ArenaPlayer]) -> list[ArenaStanding]:
    """The arena's table, best first (the module's order)."""
    rows = sorted(
        (
            ArenaStanding(
                0,
                p.id,
                sum(game_points(p.results)),
                len(p.results),
                p.rating,
                on_fire(p.results),
                p.results,
            )
            for p in players
        ),
        key=lambda r: (-r.points, r.games, -r.rating, r.id),
    )
    return [replace(row, place=place) for place, row in enumerate(rows, start=1)]


@dataclass(frozen=True)
class Waiting:
    """A player waiting for a game: whom they played last (None before their first game) and
    their firsts minus seconds so far."""

    id: PlayerId
    last_opponent: PlayerId | None = None
    balance: int = 0


@dataclass(frozen=True)
class ArenaPairing:
    """The new games (the pair with the highest-placed player first) and who waits on."""

    pairs: tuple[Pair, ...]
    waits: PlayerId | None


def are_last_opponents(a: Waiting, b: Waiting) -> bool:
    return a.last_opponent == b.id or b.last_opponent == a.id


def pair_waiting(waiting: Sequence[Waiting]) -> ArenaPairing:
    """Pair the waiting players, given in their order in the table (best first)."""
    ids = [w.id for w in waiting]
    if len(set(ids)) != len(ids):
        raise ValueError("a player appears twice among the waiting")
    n = len(waiting)
    if n < 2:
        return ArenaPairing((), waiting[0].id if waiting else None)

    # Tiers, each unit above all the tiers below can add up to.
    wait_unit = (n // 2) * (n - 1) ** 2 + 1  # closeness: at most (n - 1)² a pair
    repeat_unit = wait_unit * n  # who waits: at most n - 1
    costs: dict[tuple[int, int], int] = {}
    for i in range(n):
        for j in range(i + 1, n):
            repeat = are_last_opponents(waiting[i], waiting[j])
            costs[i, j] = repeat_unit * repeat + (j - i) ** 2
    if n % 2:
        for i in range(n):
            costs[NOBODY, i] = wait_unit * (n - 1 - i)

    waits: PlayerId | None = None
    pairs: list[tuple[int, int]] = []
    for u, v in cheapest_pairs(range(n), costs):
        if u == NOBODY:
            waits = waiting[v].id
        else:
            pairs.append((u, v))
    return ArenaPairing(tuple(_seat(waiting[i], waiting[j]) for i, j in pairs), waits)


def _seat(higher: Waiting, lower: Waiting) -> Pair:
    if lower.balance < higher.balance:
        return Pair(lower.id, higher.id)
    return Pair(higher.id, lower.id)
