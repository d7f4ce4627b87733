"""The Swiss table, and the next round's players read from the games played.

Order: score, then Buchholz, then Sonneborn-Berger, then rating (higher first each), then the
id, so that two calls always agree. The tie-breaks, with final scores throughout:

- Buchholz: the sum of the scores of everyone the player met;
- Sonneborn-Berger: the sum of the scores of the opponents they beat, plus half the scores of
  those they drew;
- a bye counts, in both, as a won game against a virtual opponent whose score is the player's
  own (so it neither lifts nor sinks them against players who met real opponents of their own
  strength, the way FIDE counts an unplayed round against the player themself);
- a round a player missed (withdrawn, absent) adds nothing; a game lost by an absent player
  is a game like any other.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from .swiss import BYE, BYE_POINTS, FIRST, SECOND, PlayerId, Seat, SwissPlayer


@dataclass(frozen=True)
class Entrant:
    """A player of the event: ``rating`` (or seed) breaks the last ties."""

    id: PlayerId
    rating: float


@dataclass(frozen=True)
class Game:
    """One finished game of a round: ``result`` is the first player's score (1, 0.5 or 0)."""

    round: int
    first: PlayerId
    second: PlayerId
    result: float


@dataclass(frozen=True)
class Bye:
    round: int
    player: PlayerId


@dataclass(frozen=True)
class Standing:
    """One row of the table; ``place`` counts from 1."""

    place: int
    id: PlayerId
    score: float
    buchholz: float
    sonneborn_berger: float
    rating: float


def swiss_standings(
    entrants: Sequence[Entrant], games: Sequence[Game], byes: Sequence[Bye] = ()
) -> list[Standing]:
    """The table after ``games`` and ``byes``, best first (the module's rules)."""
    known = {e.id for e in entrants}
    scores = {e.id: 0.0 for e in entrants}
    # Each player's results: (opponent or None for a bye, the player's score in that round).
    results: dict[PlayerId, list[tuple[PlayerId | None, float]]] = {e.id: [] for e in entrants}
    for game in games:
        _check(game.result)
        for who in (game.first, game.second):
            if who not in known:
                raise ValueError(f"a game names {who!r}, who is not in the event")
        scores[game.first] += game.result
        scores[game.second] += 1.0 - game.result
        results[game.first].append((game.second, game.result))
        results[game.second].append((game.first, 1.0 - game.result))
    for bye in byes:
        if bye.player not in known:
            raise ValueError(f"a bye names {bye.player!r}, who is not in the event")
        scores[bye.player] += BYE_POINTS
        results[bye.player].append((None, BYE_POINTS))

    rows = []
    for e in entrants:
        buchholz = sonneborn = 0.0
        for opponent, mine in results[e.id]:
            theirs = scores[e.id] if opponent is None else scores[opponent]
            buchholz += theirs
            sonneborn += theirs * mine  # all of a beaten one's score, half a drawn one's
        rows.append(Standing(0, e.id, scores[e.id], buchholz, sonneborn, e.rating))
    rows.sort(key=lambda r: (-r.score, -r.buchholz, -r.sonneborn_berger, -r.rating, r.id))
    return [replace(row, place=place) for place, row in enumerate(rows, start=1)]


def next_round_players(
    entrants: Sequence[Entrant],
    games: Sequence[Game],
    byes: Sequence[Bye] = (),
    withdrawn: Collection[PlayerId] = (),
) -> list[SwissPlayer]:
    """What :func:`swiss.pair_round` takes for the next round: every entrant in the table's
    order, with their score, opponents, seats by round and whether they withdrew."""
    seats: dict[PlayerId, list[tuple[int, Seat]]] = {e.id: [] for e in entrants}
    opponents: dict[PlayerId, set[PlayerId]] = {e.id: set() for e in entrants}
    for game in games:
        seats[game.first].append((game.round, FIRST))
        seats[game.second].append((game.round, SECOND))
        opponents[game.first].add(game.second)
        opponents[game.second].add(game.first)
    for bye in byes:
        seats[bye.player].append((bye.round, BYE))
    return [
        SwissPlayer(
            id=row.id,
            score=row.score,
            opponents=frozenset(opponents[row.id]),
            seats=tuple(seat for _, seat in sorted(seats[row.id])),
            withdrawn=row.id in withdrawn,
        )
        for row in swiss_standings(entrants, games, byes)
    ]


def _check(result: float) -> None:
    if result not in (0.0, 0.5, 1.0):
        raise ValueError(f"a game's result is 1, 0.5 or 0, not {result!r}")
