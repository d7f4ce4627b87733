"""The searcher in solo games: Automa's turns inside the search are the engine's, and the
search sees only what the person may know (D6)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import patchwork as pw
from patchwork.ai import Limit, analyse, endgame, mcts, policy
from patchwork.ai import solo as S
from patchwork.ai.search import MCTSAgent
from patchwork.engine import automa as A
from patchwork.engine import kernels as K
from patchwork.engine import layout as L
from patchwork.engine.automa import Automa
from patchwork.engine.state import State
from patchwork.engine.tables import PL_PATCH


def solo_game(level: int = 3, deck: str = "normal", seed: int = 4) -> State:
    return pw.new_game(seed=seed, rules=pw.Rules(solo=Automa(level, deck)))


def same_view_other_deck(state: State, seed: int) -> State:
    """The same position as the person sees it, with another hidden deck."""
    assert state.automa is not None
    other = A.sample_hidden(state.automa, random.Random(seed))
    assert other.deck != A.hidden_part(state).deck  # type: ignore[union-attr]
    return State(state.vector, state.rules, other)


@pytest.mark.parametrize(("level", "deck"), [(1, "normal"), (3, "tactical"), (5, "normal")])
def test_automa_inside_the_search_plays_as_the_engine_does(level: int, deck: str) -> None:
    # In the world of the game's real deck, the compiled replies and scores are the engine's.
    rng = random.Random(level)
    state = solo_game(level, deck, seed=10 + level)
    hidden = A.hidden_part(state)
    assert hidden is not None
    world = S.world_of(state, hidden)
    run = np.zeros(3, dtype=np.int64)
    S.start_run(world.settings, run)
    v = state.vector.copy()
    while not state.is_terminal():
        code = int(rng.choice(list(state.legal_move_codes())))
        state = state.apply_code(code)
        K.apply_move(v, code)
        S.automa_turns(v, world.settings, world.cards[0], run)
        assert np.array_equal(v, state.vector)
    won, margin = S.result(v, world.settings, run)
    person, automa = state.scores()
    assert (won == 1.0, margin) == (state.winner() == 0, person - automa)


def test_a_world_is_the_unseen_cards_then_whole_reshuffles() -> None:
    state = solo_game(2, "tactical").apply(pw.Advance())
    view = state.automa
    assert view is not None
    world = S.sample_worlds(state, random.Random(0), 1)
    deck = [int(c) for c in world.cards[0, : view.cards_in_deck]]
    assert not set(deck) & set(view.cards_seen)
    assert A.CARDS[deck[0]].budget == view.next_budget
    rest = [int(c) for c in world.cards[0, view.cards_in_deck :]]
    for i in range(0, len(rest) - 12, 12):
        assert sorted(rest[i : i + 12]) == sorted(A.deck_cards("tactical"))


@pytest.mark.parametrize("deck", ["normal", "tactical"])
def test_a_fresh_world_is_drawn_as_the_sampled_ones_are(deck: str) -> None:
    # draw_world (the search's own draw, each iteration with solo_fresh_worlds) draws from
    # the same deck orders as automa.sample_hidden: the unseen cards, the top one showing the
    # budget on its back, then whole reshuffles; each unseen card as often in each place.
    state = solo_game(5, deck, seed=21)
    for move in ("A", "A", "A"):
        state = state.apply(pw.Move.parse(move, state))
    view = state.automa
    assert view is not None and view.cards_seen
    worlds = S.sample_worlds(state, random.Random(2), 3000)
    row = np.empty(worlds.cards.shape[1], dtype=np.int64)
    policy.seed(11)  # (numba's random state, which the search seeds too)
    drawn = np.array([row.copy() for _ in range(3000) if S.draw_world(worlds.settings, row)])
    assert len(drawn) == 3000
    n = view.cards_in_deck
    unseen = set(A.deck_cards(deck)) - set(view.cards_seen)
    for r in drawn[:200]:
        assert set(r[:n].tolist()) <= unseen and len(set(r[:n].tolist())) == n
        for i in range(n, len(r) - 12, 12):
            assert sorted(r[i : i + 12].tolist()) == sorted(A.deck_cards(deck))
    if view.next_budget is not None:
        assert {A.CARDS[int(c)].budget for c in drawn[:, 0]} == {view.next_budget}
    for place in (0, 1, n, n + 5):
        ours = np.bincount(drawn[:, place], minlength=25)
        theirs = np.bincount(worlds.cards[:, place], minlength=25)
        assert set(np.flatnonzero(ours)) == set(np.flatnonzero(theirs))
        assert np.abs(ours - theirs).max() < 0.25 * theirs.max() + 60


def test_a_known_world_is_never_drawn_again() -> None:
    # The ceiling's one true world (world_of) names no cards to draw from.
    state = solo_game(5, "normal")
    hidden = A.hidden_part(state)
    assert hidden is not None
    world = S.world_of(state, hidden)
    row = world.cards[0].copy()
    assert not S.draw_world(world.settings, row)
    assert np.array_equal(row, world.cards[0])


def test_the_search_never_peeks_at_the_deck() -> None:
    # Two positions that differ only in the hidden order get the same search, figure for figure.
    state = solo_game(4, "normal", seed=8)
    for move in ("A", "A"):
        state = state.apply(pw.Move.parse(move, state))
    twin = same_view_other_deck(state, 99)
    assert twin.automa == state.automa and twin != state
    for params in (mcts.Params(solo_fresh_worlds=False), mcts.Params(solo_fresh_worlds=True)):
        a = MCTSAgent(limit=Limit(iterations=600), params=params, seed=3, reuse=False)
        b = MCTSAgent(limit=Limit(iterations=600), params=params, seed=3, reuse=False)
        x, y = a.search(state), b.search(twin)
        assert x.best_move == y.best_move and x.move_stats == y.move_stats
        assert (x.win_probability, x.margin) == (y.win_probability, y.margin)


def test_hints_in_a_solo_game() -> None:
    state = solo_game(3, "tactical")
    report = analyse(state, Limit(iterations=800), seed=1)
    assert state.is_legal(report.best_move)
    assert 0.0 <= report.win_probability <= 1.0 and report.iterations >= 800 - 8
    assert {c.move for c in report.candidates} <= set(state.legal_moves())
    two = analyse(state, Limit(iterations=800), workers=2, seed=1)
    assert state.is_legal(two.best_move) and two.iterations >= 800 - 8


def test_the_searcher_beats_the_intern() -> None:
    # Intern scores 0 or 7 (rule 17): a searcher that plays sensibly wins every game.
    for seed in range(3):
        state = solo_game(1, "normal", seed=seed)
        agent = MCTSAgent(limit=Limit(iterations=1000), seed=seed, reuse=False)
        while not state.is_terminal():
            state = state.apply(agent.choose(state))
        assert state.winner() == 0, state.scores()


def near_the_end(level: int, deck: str, seed: int, spaces: int) -> State:
    """A solo game played by the searcher until both tokens together are ``spaces`` from
    the end or nearer."""
    state = solo_game(level, deck, seed)
    agent = MCTSAgent(limit=Limit(iterations=300), seed=seed, reuse=False)
    while endgame.spaces_left(state.vector) > spaces:
        state = state.apply(agent.choose(state))
    return state


def best_value(state: State) -> int:
    """The person's best outcome from ``state`` by the engine itself (its real deck), as
    the exact endgame counts it: winning first, then the margin."""
    if state.is_terminal():
        person, automa = state.scores()
        return (endgame.WIN if state.winner() == 0 else -endgame.WIN) + person - automa
    return max(best_value(state.apply(m)) for m in state.legal_moves())


@pytest.mark.parametrize(("deck", "seed"), [("normal", 21), ("tactical", 22)])
def test_the_exact_endgame_in_a_world_is_the_engines_best_line(deck: str, seed: int) -> None:
    # In the world of the real deck, the solver's value is the best the engine's own game
    # allows, and its line reaches it.
    state = near_the_end(5, deck, seed, 8)
    hidden = A.hidden_part(state)
    assert hidden is not None and not state.is_terminal()
    world = S.world_of(state, hidden)
    run = np.zeros(3, dtype=np.int64)
    S.start_run(world.settings, run)
    work = endgame.workspace(len(state.vector))
    runs = np.zeros((endgame.MAX_PLIES, 3), dtype=np.int64)
    value, n, nodes = S.solve_in(
        state.vector, world.settings, world.cards[0], run, 10**6, *work, runs
    )
    assert nodes > 0 and value == best_value(state)
    line = work[3][0, :n]  # the principal line of the first ply
    for code in line:
        state = state.apply_code(int(code))
    assert state.is_terminal()
    assert best_value(state) == value


def test_the_exact_endgame_never_peeks_at_the_deck() -> None:
    # Near the end, where every sampled world's leaves are solved exactly, two positions that
    # differ only in the hidden order still get the same search.
    state = near_the_end(5, "normal", 23, 16)
    twin = same_view_other_deck(state, 7)
    params = mcts.Params(solo_solve_spaces=16)
    a = MCTSAgent(limit=Limit(iterations=400), params=params, seed=5, reuse=False).search(state)
    b = MCTSAgent(limit=Limit(iterations=400), params=params, seed=5, reuse=False).search(twin)
    assert a.move_stats == b.move_stats and a.best_move == b.best_move


@pytest.mark.parametrize("observe", [True, False])
def test_one_tree_across_worlds_holds_only_moves_some_world_allows(observe: bool) -> None:
    # One tree over the person's moves, each descent in another world: wherever Automa's
    # cards change what is on offer, a node's children are those legal in some world, and
    # every world reaches the nodes its own game allows. With solo_observe, a move Automa
    # answers leads to a node for each thing its turns showed, and a world goes on from the
    # one its own cards show.
    state = solo_game(5, "normal", seed=31)
    for move in ("A", "A", "A"):
        state = state.apply(pw.Move.parse(move, state))
    worlds = S.sample_worlds(state, random.Random(2), 16)
    tree = mcts.Tree(20_000)
    params = mcts.Params(solo_observe=observe, solo_fresh_worlds=False)  # these 16 in turn
    tree.run(state.vector, 6000, params, worlds)
    reached: set[int] = set()

    def walk(node: int, v: np.ndarray, cards: np.ndarray, run: np.ndarray) -> None:
        reached.add(node)
        if K.is_terminal(v):
            return
        moves = np.empty(K.MAX_MOVES, dtype=np.int64)
        legal = set(moves[: K.legal_moves(v, moves)].tolist())
        for child in tree.children(node):
            code = int(tree.code[child])
            if code < 0:  # a patch chosen: its placements are the legal moves that buy it
                if any(m >= K.BUY_BASE and PL_PATCH[m - K.BUY_BASE] == -code - 1 for m in legal):
                    walk(child, v, cards, run)
            elif code in legal:
                after, more = v.copy(), run.copy()
                K.apply_move(after, code)
                S.automa_turns(after, worlds.settings, cards, more)
                if observe and more[S.CURSOR] > run[S.CURSOR]:
                    reached.add(child)
                    seen = S.seen(worlds.settings, cards, int(run[S.CURSOR]), more)
                    assert all(int(tree.code[c]) >= mcts.SEEN for c in tree.children(child))
                    child = tree.child_with_code(child, mcts.SEEN + seen)
                    if child < 0:
                        continue  # no descent in a world that showed this has come here yet
                walk(child, after, cards, more)

    for cards in worlds.cards:
        run = np.zeros(3, dtype=np.int64)
        S.start_run(worlds.settings, run)
        walk(tree.root, state.vector.copy(), cards, run)
    assert reached == set(range(tree.size))
    seen_nodes = [n for n in range(tree.size) if int(tree.code[n]) >= mcts.SEEN]
    if observe:  # Automa's answers to one move were told apart (different cards turned up)
        assert max(sum(int(tree.code[c]) >= mcts.SEEN for c in tree.children(int(tree.parent[n])))
                   for n in seen_nodes) > 1  # fmt: skip
    else:
        assert not seen_nodes
    # ... and Automa's cards did change what the person could do further down.
    offers = set()
    for cards in worlds.cards:
        v, run = state.vector.copy(), np.zeros(3, dtype=np.int64)
        S.start_run(worlds.settings, run)
        K.apply_move(v, K.ADVANCE)
        S.automa_turns(v, worlds.settings, cards, run)
        offers.add(tuple(v[L.CIRCLE : L.CIRCLE + 3].tolist()))
    assert len(offers) > 1


@pytest.mark.parametrize("fresh", [True, False])
def test_with_fresh_worlds_each_descent_draws_its_own(fresh: bool) -> None:
    # Told apart by what Automa's turns showed, the node after a move has a child for each
    # answer the descents met: a single world taken each time gives nothing to tell apart;
    # when every descent draws a world of its own (from the sampled world's settings), the
    # answers differ.
    state = solo_game(5, "normal", seed=31).apply(pw.Advance())
    worlds = S.sample_worlds(state, random.Random(2), 1)
    tree = mcts.Tree(20_000)
    policy.seed(4)
    tree.run(state.vector, 3000, mcts.Params(solo_observe=True, solo_fresh_worlds=fresh), worlds)
    answers = [sum(int(tree.code[x]) >= mcts.SEEN for x in tree.children(c))
               for c in tree.children(tree.root) if tree.code[c] >= 0]  # fmt: skip
    assert answers and (max(answers) > 1) == fresh


@pytest.mark.parametrize("deck", ["normal", "tactical"])
def test_what_the_person_sees_of_automas_turns_is_the_cards_turned_up(deck: str) -> None:
    # Worlds that turned up the same cards are one game to the person, whatever follows;
    # with the tactical deck the budget on the next card's back is seen too, not its face.
    worlds = S.sample_worlds(solo_game(5, deck, seed=8), random.Random(1), 2)
    run = np.array([3, 0, 0], dtype=np.int64)
    cards = worlds.cards[0].copy()

    def seen(row: np.ndarray) -> int:
        return int(S.seen(worlds.settings, row, 1, run))

    other = cards.copy()
    other[1] = next(c for c in cards if c != cards[1])
    assert seen(other) != seen(cards)  # another card turned up
    other = cards.copy()
    other[0] = next(c for c in cards if c != cards[0])  # before the turns: not theirs
    assert seen(other) == seen(cards)
    same_budget = [c for c in A.deck_cards(deck) if c != cards[3] and
                   S.CARD_BUDGET[c] == S.CARD_BUDGET[cards[3]]]  # fmt: skip
    other_budget = [c for c in A.deck_cards(deck) if S.CARD_BUDGET[c] != S.CARD_BUDGET[cards[3]]]
    for card in same_budget:
        other = cards.copy()
        other[3] = card
        assert seen(other) == seen(cards)
    other = cards.copy()
    other[3] = other_budget[0]
    assert (seen(other) != seen(cards)) == (deck == "tactical")
