"""The pure rules of tournaments (issue 41): Swiss pairing checked on many simulated events with
random results, the Swiss tie-breaks on a table worked out by hand, the arena's points, table
and pairing, and the clear error when a round cannot be paired."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import pytest

from patchwork.server.tournaments.arena import (
    ArenaPlayer,
    Waiting,
    are_last_opponents,
    arena_standings,
    game_points,
    on_fire,
    pair_waiting,
)
from patchwork.server.tournaments.standings import (
    Bye,
    Entrant,
    Game,
    next_round_players,
    swiss_standings,
)
from patchwork.server.tournaments.swiss import (
    FIRST,
    MAX_DIFFERENCE,
    SECOND,
    NoPairing,
    Pair,
    Pairing,
    SwissPlayer,
    colour_cost,
    guaranteed_rounds,
    have_met,
    pair_round,
    score_cost,
)

# -- brute force: every complete pairing of a small round ----------------------------------------

Key = tuple[int, int, int, int]  # (bye's rank from the bottom, score cost, strong, weak misses)


def perfect_matchings(items: list[SwissPlayer]) -> Iterator[list[tuple[SwissPlayer, ...]]]:
    """Every perfect matching of ``items`` (even length) without a rematch."""
    if not items:
        yield []
        return
    head, rest = items[0], items[1:]
    for k, other in enumerate(rest):
        if have_met(head, other):
            continue
        for tail in perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(head, other), *tail]


def bye_candidates(active: Sequence[SwissPlayer]) -> list[SwissPlayer]:
    """Who may get the bye, lowest-placed first (everyone if all have had one)."""
    fresh = [p for p in active if not p.had_bye] or list(active)
    return list(reversed(fresh))


def best_key(active: Sequence[SwissPlayer]) -> Key | None:
    """The lexicographic optimum over all complete pairings, each pair in its cheaper seating;
    None when there is no complete pairing without a rematch."""
    options: list[tuple[int, list[SwissPlayer]]] = (
        [
            (rank, [p for p in active if p is not bye])
            for rank, bye in enumerate(bye_candidates(active))
        ]
        if len(active) % 2
        else [(0, list(active))]
    )
    best: Key | None = None
    for rank, rest in options:
        if best is not None and rank > best[0]:
            break
        for matching in perfect_matchings(rest):
            score = sum(score_cost(a, b) for a, b in matching)
            strong = weak = 0
            for a, b in matching:
                s, w = min(colour_cost(a, b), colour_cost(b, a))
                strong, weak = strong + s, weak + w
            key = (rank, score, strong, weak)
            if best is None or key < best:
                best = key
    return best


def key_of(active: Sequence[SwissPlayer], pairing: Pairing) -> Key:
    by_id = {p.id: p for p in active}
    rank = 0
    if pairing.bye is not None:
        rank = [p.id for p in bye_candidates(active)].index(pairing.bye)
    score = strong = weak = 0
    for pair in pairing.pairs:
        first, second = by_id[pair.first], by_id[pair.second]
        score += score_cost(first, second)
        s, w = colour_cost(first, second)
        strong, weak = strong + s, weak + w
    return rank, score, strong, weak


# -- simulated Swiss events ------------------------------------------------------------------------


def check_round(players: Sequence[SwissPlayer], pairing: Pairing, brute_force: bool) -> None:
    """Everything one round must satisfy (see the test's docstring)."""
    active = [p for p in players if not p.withdrawn]
    by_id = {p.id: p for p in players}
    seated = [pid for pair in pairing.pairs for pid in (pair.first, pair.second)]
    covered = seated + ([pairing.bye] if pairing.bye is not None else [])
    # Everyone active is paired or has the bye, once; withdrawn players never appear.
    assert sorted(covered) == sorted(p.id for p in active)
    # A bye exactly when the active players are odd, to someone without one unless all had one.
    assert (pairing.bye is not None) == (len(active) % 2 == 1)
    if pairing.bye is not None and by_id[pairing.bye].had_bye:
        assert all(p.had_bye for p in active)
    for pair in pairing.pairs:
        first, second = by_id[pair.first], by_id[pair.second]
        assert not have_met(first, second), f"rematch {pair}"
        # Colours: each pair takes the cheaper of its two seatings (strong misses first).
        assert colour_cost(first, second) <= colour_cost(second, first)
    # Boards ordered by their higher-placed player.
    place = {p.id: i for i, p in enumerate(players)}
    tops = [min(place[pair.first], place[pair.second]) for pair in pairing.pairs]
    assert tops == sorted(tops)
    if brute_force:
        # The bye, then score groups, then colours: the brute-force optimum, to the unit.
        assert key_of(active, pairing) == best_key(active)


def play(
    rng: random.Random, first: SwissPlayer, second: SwissPlayer, ratings: dict[str, float]
) -> float:
    """A random result, the better-rated more likely to win; a draw now and then."""
    if rng.random() < 0.05:
        return 0.5
    expected = 1 / (1 + 10 ** ((ratings[second.id] - ratings[first.id]) / 400))
    return 1.0 if rng.random() < expected else 0.0


def simulate(rng: random.Random, size: int, stats: dict[str, int]) -> None:
    """One event: rounds up to the guarantee must pair; small events (brute-forced every round)
    go on until a round cannot be paired, and then no complete pairing may exist."""
    entrants = [Entrant(f"p{i:02d}", float(rng.randrange(1000, 2200))) for i in range(size)]
    ratings = {e.id: e.rating for e in entrants}
    games: list[Game] = []
    byes: list[Bye] = []
    withdrawn: set[str] = set()
    brute_force = size <= 10
    for number in range(1, size + 2):
        players = next_round_players(entrants, games, byes, withdrawn)
        active = [p for p in players if not p.withdrawn]
        guaranteed = number - 1 < guaranteed_rounds(len(active))
        if not guaranteed and not brute_force:
            break
        try:
            pairing = pair_round(players)
        except NoPairing:
            assert not guaranteed, f"round {number} of {len(active)} players must pair"
            assert best_key(active) is None
            stats["no pairing"] += 1
            break
        check_round(players, pairing, brute_force)
        stats["rounds"] += 1
        for pair in pairing.pairs:
            by_id = {p.id: p for p in players}
            result = play(rng, by_id[pair.first], by_id[pair.second], ratings)
            games.append(Game(number, pair.first, pair.second, result))
        if pairing.bye is not None:
            byes.append(Bye(number, pairing.bye))
        if len(active) > 4 and rng.random() < 0.08:
            withdrawn.add(rng.choice(active).id)
    # At most one bye each (the fallback to a second one never arises in these events).
    assert len({b.player for b in byes}) == len(byes)
    final = next_round_players(entrants, games, byes, withdrawn)
    for p in final:
        stats["players"] += 1
        stats["balance beyond 2"] += abs(p.balance) > MAX_DIFFERENCE
        games_seats = p.games
        stats["three in a row"] += any(
            games_seats[k] == games_seats[k + 1] == games_seats[k + 2]
            for k in range(len(games_seats) - 2)
        )


def test_simulated_swiss_events() -> None:
    """300 events of 3 to 24 players with random results (seeded), some with withdrawals.
    After every round: every active player is paired or has the bye, once; withdrawn players
    never appear; a bye only with an odd count and only to someone without one; no rematch;
    each pair in its cheaper seating by :func:`colour_cost`; and for events of at most 10
    players the round's (bye rank, score cost, strong colour misses, weak colour misses) equals
    the brute-force optimum over every complete pairing without a rematch. Rounds up to
    :func:`guaranteed_rounds` of the active players always pair; the small events go on past it
    and a :class:`NoPairing` must mean that no complete pairing exists. Over all events, colour
    balances beyond ±2 and three games in a row on a seat must stay rare (they happen only when
    the score groups force them)."""
    rng = random.Random(41)
    stats = dict.fromkeys(
        ("rounds", "players", "no pairing", "balance beyond 2", "three in a row"), 0
    )
    for _ in range(300):
        simulate(rng, rng.randint(3, 24), stats)
    assert stats["rounds"] > 1500
    assert stats["no pairing"] > 0  # the small events do reach rounds that cannot pair
    assert stats["balance beyond 2"] <= stats["players"] // 100
    assert stats["three in a row"] <= stats["players"] // 20


def test_guaranteed_rounds_are_tight_and_the_error_says_why() -> None:
    """Six players who met as two triangles against each other (the complete bipartite graph,
    three rounds) have no fourth round: the pairs not met are two triangles."""
    a, b = ["a1", "a2", "a3"], ["b1", "b2", "b3"]
    games = [Game(r + 1, a[i], b[(i + r) % 3], 1.0) for r in range(3) for i in range(3)]
    entrants = [Entrant(pid, 1500.0) for pid in a + b]
    players = next_round_players(entrants, games)
    assert guaranteed_rounds(6) == 3
    with pytest.raises(NoPairing, match="No complete pairing without a rematch") as raised:
        pair_round(players)
    assert raised.value.active == 6 and raised.value.rounds_played == 3
    # Two players who met have nothing left either; a withdrawal leaves the others pairable.
    with pytest.raises(NoPairing):
        pair_round(next_round_players(entrants[:2], [Game(1, "a1", "a2", 1.0)]))
    ok = pair_round(next_round_players(entrants, games, withdrawn={"a1", "b1"}))
    assert ok.bye is None and len(ok.pairs) == 2


def test_score_groups_and_the_bye() -> None:
    """Four players on 1, 1, 0, 0 pair inside their groups; an odd count gives the bye to the
    lowest-placed player without one; a rematch inside a group sends both across."""

    def player(pid: str, score: float, met: str = "") -> SwissPlayer:
        return SwissPlayer(pid, score, frozenset(met.split()) if met else frozenset())

    def matched(pairing: Pairing) -> set[str]:
        return {"".join(sorted((p.first, p.second))) for p in pairing.pairs}

    assert matched(
        pair_round([player("a", 1), player("b", 1), player("c", 0), player("d", 0)])
    ) == {
        "ab",
        "cd",
    }
    had = SwissPlayer("e", 0, seats=("bye",))
    pairing = pair_round([player("a", 1), player("b", 1), player("c", 0), player("d", 0), had])
    assert pairing.bye == "d"
    rematch = [player("a", 1, "b"), player("b", 1, "a"), player("c", 0), player("d", 0)]
    assert matched(pair_round(rematch)) in ({"ac", "bd"}, {"ad", "bc"})
    with pytest.raises(ValueError):
        pair_round([player("a", 1), player("a", 0)])


def test_colours() -> None:
    """Who moves first: the one due it; in round 1 the higher-placed player of each board moves
    first on board 1, second on board 2; a third game in a row on a seat and a balance of 3
    cost strong misses, avoided when the other player can take the seat."""
    boards = pair_round([SwissPlayer(f"p{i}", 0) for i in range(4)]).pairs
    assert boards[0].first == "p0"
    assert boards[1].second == min(boards[1].first, boards[1].second)
    twice_first = SwissPlayer("x", 2, frozenset(), (FIRST, FIRST))
    after_second = SwissPlayer("y", 2, frozenset(), (FIRST, SECOND))
    assert colour_cost(twice_first, after_second) == (2, 3)  # 3 in a row, balance 3; both not due
    assert colour_cost(after_second, twice_first) == (0, 0)
    assert pair_round([twice_first, after_second]).pairs == (Pair("y", "x"),)
    after_first = SwissPlayer("z", 2, frozenset(), (SECOND, FIRST))
    assert pair_round([after_first, after_second]).pairs == (Pair("y", "z"),)
    # A strong miss outweighs weak ones, whoever is placed higher.
    assert pair_round([twice_first, after_first]).pairs == (Pair("z", "x"),)
    assert pair_round([after_first, twice_first]).pairs == (Pair("z", "x"),)
    # Both due second alike: the higher-placed gets it.
    a, b = SwissPlayer("a", 1, seats=(SECOND, FIRST)), SwissPlayer("b", 1, seats=(SECOND, FIRST))
    assert pair_round([a, b]).pairs == (Pair("b", "a"),)
    assert pair_round([b, a]).pairs == (Pair("a", "b"),)


def test_a_strong_colour_miss_outweighs_weak_ones() -> None:
    """Six players on one score whose pairs not yet met form the cycle p-q-t-v-u-r-p, so the
    round is either {pq, tv, ur} or {qt, uv, rp}. p and q played second, first, first: the
    first pairing seats one of them first a third time in a row (1 strong, 2 weak); the second
    costs 6 weak misses (r and t due second, u and v due first, each pair one of them not) and
    no strong one, so it is chosen."""
    allowed = {"pq", "tv", "ur", "qt", "uv", "rp"}
    seats = {
        "p": (SECOND, FIRST, FIRST),
        "q": (SECOND, FIRST, FIRST),
        "r": (FIRST,),
        "t": (FIRST,),
        "u": (SECOND,),
        "v": (SECOND,),
    }
    players = [
        SwissPlayer(
            pid,
            1.0,
            frozenset(
                o for o in seats if o != pid and pid + o not in allowed and o + pid not in allowed
            ),
            history,
        )
        for pid, history in seats.items()
    ]
    pairs = pair_round(players).pairs
    assert {"".join(sorted((p.first, p.second))) for p in pairs} == {"qt", "uv", "pr"}
    by_id = {p.id: p for p in players}
    assert sum(colour_cost(by_id[p.first], by_id[p.second])[0] for p in pairs) == 0


# -- the Swiss table ------------------------------------------------------------------------------


def test_tie_breaks_by_hand() -> None:
    """Five players, three rounds:

    round 1: A-B 1-0, C-D ½-½, E bye;  round 2: A-C 1-0, E-B 0-1, D bye;
    round 3: D-A 1-0, C-E 1-0, B bye.
    Scores: A 1+1+0 = 2, B 0+1+1 = 2, C ½+0+1 = 1½, D ½+1+1 = 2½, E 1+0+0 = 1 (9 = 6 games
    and 3 byes). A bye is a win over someone with the player's own score.
    Buchholz: A = B 2 + C 1½ + D 2½ = 6; B = A 2 + E 1 + own 2 = 5; C = D 2½ + A 2 + E 1 = 5½;
    D = C 1½ + own 2½ + A 2 = 6; E = own 1 + B 2 + C 1½ = 4½.
    Sonneborn-Berger: A = B 2 + C 1½ = 3½; B = E 1 + own 2 = 3; C = ½ D 2½ + E 1 = 2¼;
    D = ½ C 1½ + own 2½ + A 2 = 5¼; E = own 1.
    Table: D 2½; A 2 (Bu 6) before B 2 (Bu 5); C 1½; E 1."""
    entrants = [Entrant(pid, 1500.0) for pid in "ABCDE"]
    games = [
        Game(1, "A", "B", 1.0), Game(1, "C", "D", 0.5),
        Game(2, "A", "C", 1.0), Game(2, "E", "B", 0.0),
        Game(3, "D", "A", 1.0), Game(3, "C", "E", 1.0),
    ]  # fmt: skip
    byes = [Bye(1, "E"), Bye(2, "D"), Bye(3, "B")]
    table = swiss_standings(entrants, games, byes)
    assert [(r.place, r.id, r.score, r.buchholz, r.sonneborn_berger) for r in table] == [
        (1, "D", 2.5, 6.0, 5.25),
        (2, "A", 2.0, 6.0, 3.5),
        (3, "B", 2.0, 5.0, 3.0),
        (4, "C", 1.5, 5.5, 2.25),
        (5, "E", 1.0, 4.5, 1.0),
    ]
    players = next_round_players(entrants, games, byes, withdrawn={"E"})
    assert [p.id for p in players] == ["D", "A", "B", "C", "E"]
    assert players[0].seats == (SECOND, "bye", FIRST) and players[-1].withdrawn
    assert players[1].opponents == frozenset("BCD")


def test_sonneborn_berger_then_rating_break_ties() -> None:
    """Sonneborn-Berger: four players, a round robin (so equal scores mean equal Buchholz,
    6 - own score): round 1 A-B 1-0, C-D 0-1; round 2 C-A 1-0, B-D 1-0; round 3 A-D 1-0,
    B-C ½-½. Scores A 2, B 1½, C 1½, D 1; Buchholz B = C = 4½. Sonneborn-Berger:
    B = D 1 + ½ C 1½ = 1¾, C = A 2 + ½ B 1½ = 2¾: C goes above B despite B's better rating.

    Rating: six players, two rounds: round 1 P-X 1-0, Q-Z 1-0, Y-W 1-0; round 2 Y-P 1-0,
    X-Q 1-0, Z-W 1-0. Scores Y 2, P = Q = X = Z 1, W 0. Buchholz: P = X 1 + Y 2 = 3,
    Q = Z 1 + X 1 = 2, X = P 1 + Q 1 = 2, Z = Q 1 + W 0 = 1. Q and X tie on Buchholz 2 and on
    Sonneborn-Berger (Q beat Z: 1; X beat Q: 1): X's rating 1900 beats Q's 1800."""
    robin = [Entrant("A", 1500.0), Entrant("B", 2000.0), Entrant("C", 1400.0), Entrant("D", 1500.0)]
    games = [
        Game(1, "A", "B", 1.0), Game(1, "C", "D", 0.0),
        Game(2, "C", "A", 1.0), Game(2, "B", "D", 1.0),
        Game(3, "A", "D", 1.0), Game(3, "B", "C", 0.5),
    ]  # fmt: skip
    table = swiss_standings(robin, games)
    assert [(r.id, r.score, r.buchholz, r.sonneborn_berger) for r in table] == [
        ("A", 2.0, 4.0, 2.5),
        ("C", 1.5, 4.5, 2.75),
        ("B", 1.5, 4.5, 1.75),
        ("D", 1.0, 5.0, 1.5),
    ]

    ratings = {"P": 1500.0, "Q": 1800.0, "X": 1900.0, "Y": 1600.0, "Z": 1700.0, "W": 1400.0}
    entrants = [Entrant(pid, r) for pid, r in ratings.items()]
    games = [
        Game(1, "P", "X", 1.0), Game(1, "Q", "Z", 1.0), Game(1, "Y", "W", 1.0),
        Game(2, "Y", "P", 1.0), Game(2, "X", "Q", 1.0), Game(2, "Z", "W", 1.0),
    ]  # fmt: skip
    assert [r.id for r in swiss_standings(entrants, games)] == ["Y", "P", "X", "Q", "Z", "W"]
    with pytest.raises(ValueError):
        swiss_standings(entrants, [Game(1, "P", "X", 0.7)])


# -- arenas ---------------------------------------------------------------------------------------


def test_arena_points_and_streaks() -> None:
    W, D, L = 1.0, 0.5, 0.0
    assert game_points([W, W, W, W, D, W, W, W, L]) == [2, 2, 4, 4, 2, 2, 2, 4, 0]
    assert game_points([L, W, W, L, W, D, W]) == [0, 2, 2, 0, 2, 1, 2]
    assert on_fire([L, W, W]) and not on_fire([W, W, D]) and not on_fire([W])
    table = arena_standings(
        [
            ArenaPlayer("many", 1500.0, (W, L, W, L)),  # 4 points in 4 games
            ArenaPlayer("few", 1400.0, (W, W)),  # 4 points in 2 games: placed first
            ArenaPlayer("rated", 1600.0, (W, L, W, L)),  # 4 in 4, the better rating
            ArenaPlayer("fire", 1000.0, (W, W, W)),  # 8
        ]
    )
    assert [(r.id, r.points, r.games) for r in table] == [
        ("fire", 8, 3), ("few", 4, 2), ("rated", 4, 4), ("many", 4, 4)
    ]  # fmt: skip
    assert table[0].on_fire and table[1].on_fire and not table[2].on_fire


def fewest_repeats(waiting: Sequence[Waiting]) -> int:
    """Brute force: the fewest pairs of last opponents any maximum pairing must have."""
    n = len(waiting)
    best = n
    for left in range(n) if n % 2 else [None]:
        rest = [w for i, w in enumerate(waiting) if i != left]
        for order in _pairings(list(range(len(rest)))):
            best = min(best, sum(are_last_opponents(rest[i], rest[j]) for i, j in order))
    return best


def _pairings(items: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not items:
        yield []
        return
    for k in range(1, len(items)):
        for tail in _pairings(items[1:k] + items[k + 1 :]):
            yield [(items[0], items[k]), *tail]


def test_arena_pairing() -> None:
    """Neighbours in the table play; the lowest-placed waits when they are odd; last opponents
    meet again only when no pairing avoids it (random lists of 2 to 9, brute-forced)."""
    plain = [Waiting(f"p{i}") for i in range(5)]
    result = pair_waiting(plain)
    assert [(p.first, p.second) for p in result.pairs] == [("p0", "p1"), ("p2", "p3")]
    assert result.waits == "p4"
    # p0 and p1 just played each other: each meets someone else, p2 waits less than a rematch.
    trio = [Waiting("p0", "p1"), Waiting("p1", "p0"), Waiting("p2", "p9")]
    result = pair_waiting(trio)
    assert len(result.pairs) == 1 and {result.pairs[0].first, result.pairs[0].second} != {
        "p0",
        "p1",
    }
    assert result.waits == "p1"  # the lowest-placed who can wait without forcing a rematch
    # Two who just played and nobody else: they play again rather than wait.
    assert len(pair_waiting(trio[:2]).pairs) == 1
    assert pair_waiting([]).waits is None and pair_waiting(trio[:1]).waits == "p0"
    # Colours: fewer firsts moves first.
    assert pair_waiting([Waiting("a", balance=1), Waiting("b", balance=0)]).pairs == (
        Pair("b", "a"),
    )

    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(2, 9)
        ids = [f"w{i}" for i in range(n)]
        last: dict[str, str | None] = dict.fromkeys(ids)
        shuffled = ids[:]
        rng.shuffle(shuffled)
        for a, b in zip(shuffled[::2], shuffled[1::2], strict=False):
            if rng.random() < 0.7:  # they just played each other and both came back
                last[a], last[b] = b, a
        for pid in ids:
            if last[pid] is None and rng.random() < 0.5:
                last[pid] = rng.choice([*ids, "gone"])  # an opponent still playing, or left
        waiting = [Waiting(pid, last[pid] if last[pid] != pid else None) for pid in ids]
        result = pair_waiting(waiting)
        seated = [x for p in result.pairs for x in (p.first, p.second)]
        assert len(result.pairs) == n // 2
        assert (result.waits is None) == (n % 2 == 0)
        assert sorted(seated + ([result.waits] if result.waits else [])) == sorted(ids)
        by_id = {w.id: w for w in waiting}
        repeats = sum(are_last_opponents(by_id[p.first], by_id[p.second]) for p in result.pairs)
        assert repeats == fewest_repeats(waiting)
