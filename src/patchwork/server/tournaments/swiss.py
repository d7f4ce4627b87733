"""One Swiss round: its pairs and its bye, from plain data (who is placed where, with what
score, whom they met, which seats they had).

The round is a maximum weight matching (networkx's blossom algorithm) on the graph whose
vertices are the active players, plus one vertex standing for the bye when their number is
odd, and whose edges are the pairs that have not met: a rematch is not an edge, so it can never
be chosen. Every edge gets an integer weight ``base - cost``, where ``cost`` is built in tiers
so that a lower tier can never outweigh one unit of a higher one, and the matching is asked
for maximum cardinality first. In this priority the round:

1. pairs every active player (or gives them the bye); if no such pairing exists it raises
   :class:`NoPairing` instead of pairing someone twice or leaving someone out;
2. gives the bye (odd number of active players only) to the lowest-placed player who has not
   had one, unless no complete pairing of the others exists then, in which case to the next
   one up, and so on; if every active player has had a bye, the lowest-placed one gets a
   second one (by the guarantee below this cannot happen in :func:`guaranteed_rounds`);
3. keeps pairs within score groups: a pair costs the square of its score difference counted
   in half points (:func:`score_cost`), and the round minimises the sum. A pair inside a group
   is free, so pairs cross groups only where the groups cannot be paired inside (an odd group,
   or rematches); among crossings the closest scores win, and two crossings of one step
   (cost 1 + 1) are preferred to one crossing of two steps (cost 4), as the Dutch system's
   top-down brackets would float them;
4. balances colours (seat 0, ``"first"``, moves first): each pair is costed by the better of
   its two seatings (:func:`colour_cost`), first the strong misses (a third game in a row on
   the same seat, or a player's firsts and seconds more than 2 apart), then the weak ones (a
   player not given the seat they are due).

A player is due the seat they have had fewer times (firsts minus seconds, byes not counted);
if they are even, the seat opposite to their last game; before any game nothing. In a pair
whose two seatings cost the same, the higher-placed player gets the seat they are due; if
neither is due anything (round 1), the higher-placed player moves first on boards 1, 3, 5...
and second on boards 2, 4, 6..., so the first round's seats are balanced too.

Results are 1, 0.5 or 0 (a Patchwork game always has a winner, but a draw is supported), and a
bye scores as a win without a game: :data:`BYE_POINTS`, no seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from .matching import NOBODY, cheapest_pairs

PlayerId = str
Seat = Literal["first", "second", "bye"]
FIRST: Seat = "first"  # seat 0: moves first
SECOND: Seat = "second"
BYE: Seat = "bye"  # a round without a game, scored as a win
BYE_POINTS = 1.0
MAX_DIFFERENCE = 2  # firsts minus seconds beyond this is a strong colour miss


class NoPairing(Exception):
    """No complete pairing without a rematch exists for this round: every way of pairing the
    active players would leave one unpaired or pair two who have met. Small events in late
    rounds get here; the event should end (or the organiser allow fewer rounds)."""

    def __init__(self, active: int, rounds_played: int) -> None:
        self.active = active
        self.rounds_played = rounds_played
        super().__init__(
            f"No complete pairing without a rematch exists for {active} active players after "
            f"{rounds_played} rounds: every way of pairing them would pair two who have met "
            f"(an event of {active} players can always be paired for "
            f"{guaranteed_rounds(active)} rounds)."
        )


@dataclass(frozen=True)
class SwissPlayer:
    """One player as the next round sees them. ``seats`` lists their rounds in order: the seat
    of each game, ``"bye"`` for a bye (rounds they missed are left out); who had a bye is read
    from there. ``opponents`` are everyone they have played."""

    id: PlayerId
    score: float
    opponents: frozenset[PlayerId] = frozenset()
    seats: tuple[Seat, ...] = ()
    withdrawn: bool = False

    @property
    def had_bye(self) -> bool:
        return BYE in self.seats

    @cached_property
    def games(self) -> tuple[Seat, ...]:
        """The seats of the games played, byes left out: what colour balance counts."""
        return tuple(s for s in self.seats if s != BYE)

    @cached_property
    def balance(self) -> int:
        """Firsts minus seconds."""
        games = self.games
        return games.count(FIRST) - games.count(SECOND)

    @property
    def due(self) -> Seat | None:
        """The seat this player should get next, if any (see the module's rules)."""
        balance, games = self.balance, self.games
        if balance != 0:
            return FIRST if balance < 0 else SECOND
        if games:
            return SECOND if games[-1] == FIRST else FIRST
        return None


@dataclass(frozen=True)
class Pair:
    """One game of a round: ``first`` moves first (seat 0)."""

    first: PlayerId
    second: PlayerId


@dataclass(frozen=True)
class Pairing:
    """A round: its pairs by board (board 1 holds the highest-placed player) and the bye."""

    pairs: tuple[Pair, ...]
    bye: PlayerId | None


def guaranteed_rounds(active: int) -> int:
    """How many rounds an event of ``active`` players can always be paired for, whatever the
    earlier rounds were: ``active // 2``. Proof: with r rounds played, each player has met at
    most r others, so in the graph of pairs that have not met (after taking out any bye) every
    one of the n players has degree at least n - 1 - r; when that is at least n / 2, Dirac's
    theorem gives a Hamiltonian cycle, hence a perfect matching, and that holds exactly while
    r < active // 2 (for odd ``active`` too, since n = active - 1 then; every bye of the first
    r rounds went to a different player, so someone has not had one). The bound is tight: six
    players who played three rounds as two triangles against each other (the complement of two
    triangles is three perfect matchings) have no fourth round. Later rounds usually pair too;
    when one does not, :func:`pair_round` raises :class:`NoPairing`. With withdrawals, count
    the players still active: the round is guaranteed while rounds played < active // 2."""
    return active // 2


def score_cost(a: SwissPlayer, b: SwissPlayer) -> int:
    """The score-group cost of pairing ``a`` with ``b``: their score difference in half points,
    squared (0 inside a score group)."""
    return (_half_points(a.score) - _half_points(b.score)) ** 2


def seat_misses(player: SwissPlayer, seat: Seat) -> tuple[int, int]:
    """What giving ``player`` this seat costs: (strong misses, weak misses). Strong: a third
    game in a row on one seat (byes and missed rounds skipped), and a balance beyond ±2, one
    each. Weak: not the seat they are due, 2 when their balance is off, 1 when it is even
    (alternation only)."""
    games = player.games
    strong = int(len(games) >= 2 and games[-1] == games[-2] == seat)
    after = player.balance + (1 if seat == FIRST else -1)
    strong += int(abs(after) > MAX_DIFFERENCE)
    due = player.due
    weak = 0 if due is None or due == seat else (2 if player.balance != 0 else 1)
    return strong, weak


def colour_cost(first: SwissPlayer, second: SwissPlayer) -> tuple[int, int]:
    """The colour cost of one seating, ``first`` moving first: (strong, weak) of both."""
    s1, w1 = seat_misses(first, FIRST)
    s2, w2 = seat_misses(second, SECOND)
    return s1 + s2, w1 + w2


def pair_colour_cost(a: SwissPlayer, b: SwissPlayer) -> tuple[int, int]:
    """The colour cost of pairing ``a`` with ``b``: the better of the two seatings."""
    return min(colour_cost(a, b), colour_cost(b, a))


def have_met(a: SwissPlayer, b: SwissPlayer) -> bool:
    return b.id in a.opponents or a.id in b.opponents


def pair_round(players: Sequence[SwissPlayer]) -> Pairing:
    """Pair the next round. ``players`` are everyone in the event in their current order
    (score, then tie-breaks, then rating or seed: the best first); withdrawn players are never
    paired and never get the bye. Raises :class:`NoPairing` when no complete pairing without a
    rematch exists, ``ValueError`` when an id appears twice."""
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise ValueError("a player appears twice in the round's players")
    active = [p for p in players if not p.withdrawn]
    n = len(active)
    if n == 0:
        return Pairing((), None)

    # The tiers' units, each larger than everything the tiers below can add up to in a round.
    strong_unit = 2 * n + 1  # weak misses: at most 2 per player
    score_unit = strong_unit * 2 * n + 2 * n + 1  # strong misses: at most 2 per player
    spread = max(_half_points(p.score) for p in active) - min(_half_points(p.score) for p in active)
    bye_unit = score_unit * ((n // 2) * spread**2 + 1)

    # Each player's seat misses, once: (strong, weak) as first, then as second.
    misses = [(seat_misses(p, FIRST), seat_misses(p, SECOND)) for p in active]
    costs: dict[tuple[int, int], int] = {}
    for i in range(n):
        for j in range(i + 1, n):
            a, b = active[i], active[j]
            if have_met(a, b):
                continue  # no rematch, ever: not an edge
            strong, weak = min(
                (misses[i][0][0] + misses[j][1][0], misses[i][0][1] + misses[j][1][1]),
                (misses[j][0][0] + misses[i][1][0], misses[j][0][1] + misses[i][1][1]),
            )  # pair_colour_cost(a, b)
            costs[i, j] = score_unit * score_cost(a, b) + strong_unit * strong + weak
    if n % 2:
        may_have_bye = [i for i in range(n) if not active[i].had_bye] or list(range(n))
        # The lowest-placed costs nothing, the next one up one unit, and so on.
        for rank, i in enumerate(reversed(may_have_bye)):
            costs[NOBODY, i] = bye_unit * rank

    matching = cheapest_pairs(range(n), costs)
    if 2 * len(matching) < n + n % 2:
        rounds_played = max(len(p.seats) for p in active)
        raise NoPairing(n, rounds_played)

    bye: PlayerId | None = None
    boards: list[tuple[int, int]] = []
    for u, v in matching:
        if u == NOBODY:
            bye = active[v].id
        else:
            boards.append((u, v))
    pairs = tuple(_seat(active[i], active[j], board) for board, (i, j) in enumerate(boards))
    return Pairing(pairs, bye)


def _seat(higher: SwissPlayer, lower: SwissPlayer, board: int) -> Pair:
    """Seat one pair: the cheaper seating; on a tie the higher-placed player gets the seat they
    are due, or, due nothing, first on odd boards (counted from 1) and second on even ones."""
    one, other = colour_cost(higher, lower), colour_cost(lower, higher)
    if one != other:
        return Pair(higher.id, lower.id) if one < other else Pair(lower.id, higher.id)
    due = higher.due
    if due is None:
        due = FIRST if board % 2 == 0 else SECOND
    return Pair(higher.id, lower.id) if due == FIRST else Pair(lower.id, higher.id)


def _half_points(score: float) -> int:
    return round(2 * score)
