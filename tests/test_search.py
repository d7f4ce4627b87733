"""The AI: agents only play legal moves, searches are reproducible, analysis is consistent."""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import patchwork as pw
from helpers import EMPTY_QUILT, position
from patchwork.ai import (
    Limit,
    MCTSAgent,
    PolicyAgent,
    analyse,
    endgame,
    get_agent,
    level,
    mcts,
    search,
)
from patchwork.engine import kernels
from patchwork.engine.data import FINAL_SPACE

FEW = Limit(iterations=60)


def random_state(seed: int, plies: int, rules: pw.Rules | None = None) -> pw.State:
    """A state reached by ``plies`` uniformly random moves (or the end, if sooner)."""
    rng = random.Random(seed)
    s = pw.new_game(seed=seed, rules=rules or pw.Rules())
    for _ in range(plies):
        if s.is_terminal():
            break
        s = s.apply(rng.choice(s.legal_moves()))
    return s


def touches_edge_or_patch(move: pw.Buy, covered: frozenset[tuple[int, int]]) -> bool:
    for r, c in move.squares:
        for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if not (0 <= rr < 9 and 0 <= cc < 9) or (rr, cc) in covered:
                return True
    return False


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 60),
    edition=st.sampled_from(["revised", "original"]),
    rotation=st.booleans(),
    flip=st.booleans(),
)
def test_agents_only_play_legal_moves(
    seed: int, plies: int, edition: str, rotation: bool, flip: bool
) -> None:
    s = random_state(seed, plies, pw.Rules(edition, rotation, flip))
    if s.is_terminal():
        with pytest.raises(pw.PatchworkError, match="game is over"):
            MCTSAgent(seed=1).choose(s, FEW)
        return
    for agent in (MCTSAgent(seed=seed, limit=FEW), PolicyAgent(seed=seed), level(1, seed=seed)):
        assert agent.choose(s) in s.legal_moves()


def test_pending_special_patch_is_placed_by_every_agent() -> None:
    s = position(f"26,5,0,{EMPTY_QUILT}", f"30,5,0,{EMPTY_QUILT}", pending="1@0")
    for name in ("random", "greedy", "policy", "mcts", "level1", "level2"):
        move = get_agent(name, seed=3).choose(s, FEW)
        assert isinstance(move, pw.PlaceSpecial)
        assert move in s.legal_moves()


def test_mcts_plays_whole_games_legally_with_tree_reuse() -> None:
    agent = MCTSAgent(seed=5, limit=Limit(iterations=200))
    game = pw.Game(pw.new_game(seed=11))
    reused = 0
    while not game.state.is_terminal():
        before = agent._tree.root if agent._tree is not None else 0
        move = agent.choose(game.state)
        reused += agent._tree is not None and agent._tree.root != 0 and before != 0
        game.push(move)  # both seats: the tree is reused across our own moves too
    assert game.state.is_terminal()
    assert reused > 0


def test_pondering_grows_the_tree_the_next_search_starts_from() -> None:
    """``ponder`` searches the opponent's position until told to stop (and only then); the
    search after the opponent's move keeps the subtree grown meanwhile."""
    agent = MCTSAgent(seed=2, limit=Limit(time=5.0), workers=2)
    s = random_state(4, 6)
    stop = threading.Event()
    timer = threading.Timer(0.5, stop.set)
    timer.start()
    agent.ponder(s, stop)
    assert stop.is_set() and agent._tree is not None and agent._pool is None  # one process
    pondered = int(agent._tree.visits[agent._tree.root])
    assert 32 <= pondered < search.PONDER_ITERATIONS  # ended by the stop, not its bound
    assert not agent.stop_event.is_set()  # its own stop request stays untouched
    reply = s.apply(pw.Advance())  # a position with 287 moves: it is searched
    result = agent.search(reply, Limit(iterations=50))
    assert result.iterations == 50  # the move's own search: 50 in all, over both processes
    assert int(agent._tree.visits[agent._tree.root]) > 25  # the pondered visits are kept
    agent.ponder(s, threading.Event(), iterations=300)  # without a stop, its bound ends it
    tree = agent._tree
    assert tree is not None and int(tree.visits[tree.root]) == 300
    assert tree.capacity - tree.size >= search._capacity(agent.default_limit)  # room kept
    agent.close()


def test_placements_explore_by_their_own_constant() -> None:
    """``c_place`` spreads the visits among a patch's placements: with none, a placement node
    follows its best placement."""
    state = pw.new_game(seed=5)

    def top_share(c_place: float) -> float:
        """The most visited placement's share of its node's visits, over busy nodes."""
        tree = mcts.Tree(40_000)
        search.policy.seed(1)
        tree.run(state.vector, 6000, mcts.Params(c_place=c_place, widen_c=1.0))
        shares = []
        for node in range(tree.size):
            kids = tree.children(node)
            if tree.code[node] < 0 and len(kids) > 1 and tree.visits[node] >= 200:
                shares.append(max(int(tree.visits[k]) for k in kids) / int(tree.visits[node]))
        return float(np.mean(shares))

    assert top_share(0.0) > top_share(2.0) + 0.2


def test_leaves_near_the_end_are_solved_once_and_never_sampled_again() -> None:
    """With ``solve_spaces`` a new leaf that near the end holds the exact value of its
    position; it grows no children and every later visit backs up that same value."""
    rng = random.Random(2)
    s = pw.new_game(seed=2)
    while sum(FINAL_SPACE - p.position for p in s.players) > 24:
        s = s.apply(rng.choice(s.legal_moves()))
    tree = mcts.Tree(20_000)
    tree.run(s.vector, 4000, mcts.Params(solve_spaces=10))
    solved = [n for n in range(1, tree.size) if tree.exact[n] != mcts.UNSOLVED]
    assert solved
    line = np.zeros(endgame.MAX_PLIES, dtype=np.int64)
    for node in solved[:20]:
        codes = []
        x = node
        while x != tree.root:
            if tree.code[x] >= 0:
                codes.append(int(tree.code[x]))
            x = int(tree.parent[x])
        vector = s.vector.copy()
        for code in reversed(codes):
            kernels.apply_move(vector, code)
        assert endgame.solve(vector, 10**6, line)[0] == tree.exact[node]
        assert tree.n_children[node] == 0
        won = tree.exact[node] > 0
        assert tree.win0[node] == (tree.visits[node] if won else 0)


def test_seeded_search_is_reproducible() -> None:
    s = random_state(3, 10)
    a = MCTSAgent(seed=42, limit=Limit(iterations=400))
    b = MCTSAgent(seed=42, limit=Limit(iterations=400))
    ra, rb = a.search(s), b.search(s)
    assert ra.best_move == rb.best_move
    assert [c.visits for c in ra.candidates] == [c.visits for c in rb.candidates]


def test_seeded_games_are_reproducible() -> None:
    def play() -> list[str]:
        agents = (get_agent("level1", seed=1), MCTSAgent(seed=2, limit=Limit(iterations=100)))
        game = pw.Game(pw.new_game(seed=4))
        while not game.state.is_terminal():
            p = game.state.current_player
            assert p is not None
            game.push(agents[p].choose(game.state))
        return [str(m) for m in game.moves]

    assert play() == play()


def test_analysis_is_consistent() -> None:
    s = random_state(8, 6)
    report = analyse(s, Limit(iterations=3000), seed=1)
    assert report.player == s.current_player
    assert report.best_move in s.legal_moves()
    assert 0.0 <= report.win_probability <= 1.0
    assert report.principal_line[0] == report.best_move
    # The line replays legally from the position.
    t = s
    for move in report.principal_line:
        t = t.apply(move)
    # Candidates: one per decision, most visited first, the best move among them.
    visits = [c.visits for c in report.candidates]
    assert visits == sorted(visits, reverse=True)
    assert report.candidates[0].move == report.best_move
    decisions = [c.patch_id for c in report.candidates]
    assert len(decisions) == len(set(decisions))
    for c in report.candidates:
        assert c.move in s.legal_moves()
        assert c.line[0] == c.move
        if c.patch_id is not None:
            assert isinstance(c.move, pw.Buy) and c.move.patch_id == c.patch_id
    assert sum(visits) == report.iterations


def _brute_force(s: pw.State) -> int:
    """Minimax value for player 0 (win first, then margin), the slow obvious way."""
    if s.is_terminal():
        a, b = s.scores()
        return (endgame.WIN if s.winner() == 0 else -endgame.WIN) + a - b
    values = [_brute_force(s.apply(m)) for m in s.legal_moves()]
    return max(values) if s.current_player == 0 else min(values)


@pytest.mark.parametrize("seed", range(6))
def test_endgame_solver_matches_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    s = pw.new_game(seed=seed)
    while not endgame.near_end(s, 5) and not s.is_terminal():
        s = s.apply(rng.choice(s.legal_moves()))
    if s.is_terminal():
        return
    line = np.zeros(endgame.MAX_PLIES, dtype=np.int64)
    value, _, nodes = endgame.solve(s.vector, 10_000_000, line)
    assert nodes > 0
    assert value == _brute_force(s)
    solution = endgame.solve_state(s, 10_000_000, spaces=5)
    assert solution is not None
    end = s
    for move in solution.line:
        end = end.apply(move)
    assert end.is_terminal()
    assert solution.margin0 == end.scores()[0] - end.scores()[1]


def test_endgame_gives_up_beyond_its_budget() -> None:
    s = pw.new_game(seed=1)
    line = np.zeros(endgame.MAX_PLIES, dtype=np.int64)
    assert endgame.solve(s.vector, 1000, line)[2] == -1
    assert endgame.solve_state(s, 1000) is None  # not near the end: not even tried


def test_root_parallel_search_adds_up_workers() -> None:
    """An iteration limit is the total over the processes (issue 40: it was each one's)."""
    s = random_state(2, 4)
    agent = MCTSAgent(seed=1, workers=2, limit=Limit(iterations=301))
    try:
        result = agent.search(s)
    finally:
        agent.close()
    assert result.best_move in s.legal_moves()
    assert result.iterations == 301
    assert sum(c.visits for c in result.candidates) == 301


def test_the_tree_is_found_again_below_every_move_it_searched() -> None:
    """Each explored move's node is found from the position it leads to, also where an
    advance would have been consistent with that position too (it is tried first)."""
    s = random_state(2, 4)
    # Wide placement nodes, for many sibling placements to tell apart.
    agent = MCTSAgent(seed=1, limit=Limit(iterations=2000), params=mcts.Params(widen_c=1.0))
    agent.search(s)
    tree = agent._tree
    assert tree is not None
    checked = 0
    for c in tree.children(tree.root):
        code = int(tree.code[c])
        for node in tree.children(c) if code < 0 else [c]:
            move = int(tree.code[node])
            assert search._find_descendant(tree, s, s.apply_code(move)) == node
            checked += 1
    assert checked > 10


def test_a_helper_process_grows_its_tree_on_from_move_to_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Root parallelism's helpers keep their trees as the parent does: the next position's
    search starts from what the helper learnt below it, but one position is never counted
    twice (two shares of one search may land in one process)."""
    monkeypatch.setattr(search, "_WORKER_TREE", None)
    monkeypatch.setattr(search, "_WORKER_STATE", None)
    s = random_state(2, 4)
    limit, params = Limit(iterations=400), mcts.Params()

    def visits(stats: search.Stats) -> int:
        return sum(v for v, *_ in stats.values())

    first, n = search._worker_search(s, limit, params, 1, reuse=True)
    assert n == 400 and visits(first) == 400
    code, (*_, subs) = max(first.items(), key=lambda kv: kv[1][0])
    if code < 0:  # a patch: its most visited placement
        code = max(subs.items(), key=lambda kv: kv[1][0])[0]
    after = s.apply_code(code)
    grown, n = search._worker_search(after, limit, params, 2, reuse=True)
    assert n == 400 and visits(grown) > 400  # it kept the visits below the move played
    again, _ = search._worker_search(after, limit, params, 3, reuse=True)
    assert visits(again) == 400  # the same position again: a fresh tree
    fresh, _ = search._worker_search(s, limit, params, 1, reuse=False)
    assert visits(fresh) == 400


@pytest.mark.parametrize("name", ["level1", "level3", "level4", "level8"])
def test_placements_touch_the_edge_or_a_patch(name: str) -> None:
    """No scattered patches from the levels that look ahead, the humanlike ones included:
    every patch is sewn against something (level 2 plays the playout policy's placements)."""
    limit = Limit(iterations=300) if name == "level8" else None
    for seed in range(2):
        agent = get_agent(name, seed=seed)
        game = pw.Game(pw.new_game(seed=seed))
        while not game.state.is_terminal():
            s = game.state
            move = agent.choose(s, limit)
            if isinstance(move, pw.Buy):
                assert s.current_player is not None
                assert touches_edge_or_patch(move, s.players[s.current_player].quilt.squares)
            game.push(move)


def test_mcts_beats_greedy() -> None:
    """A small sanity check of strength (the real figures are benchmarks in the README)."""
    wins = 0
    for i in range(4):
        mcts_seat = i % 2
        agents = [get_agent("greedy", seed=i), MCTSAgent(seed=i, limit=Limit(iterations=1500))]
        if mcts_seat == 0:
            agents.reverse()
        game = pw.Game(pw.new_game(seed=100 + i // 2))
        while not game.state.is_terminal():
            p = game.state.current_player
            assert p is not None
            game.push(agents[p].choose(game.state))
        wins += game.state.winner() == mcts_seat
    assert wins >= 3


def test_limits_and_levels_reject_nonsense() -> None:
    with pytest.raises(pw.PatchworkError, match="positive"):
        Limit(time=0)
    with pytest.raises(pw.PatchworkError, match="at least 1"):
        Limit(iterations=0)
    with pytest.raises(pw.PatchworkError, match="levels are 1-13"):
        level(14)
    with pytest.raises(pw.PatchworkError, match="unknown agent"):
        get_agent("deep-blue")
    assert str(Limit(time=0.5, iterations=10)) == "0.5 s or 10 iterations"


def test_tree_capacity_bounds_the_search() -> None:
    tree = mcts.Tree(500)
    nodes = tree.run(pw.new_game(seed=1).vector, 2000, mcts.Params())
    assert nodes <= 500
    assert tree.visits[0] == 2000  # the search goes on with playouts once the tree is full


def test_analysis_near_the_end_is_exact_and_still_lists_every_decision() -> None:
    rng = random.Random(3)
    s = pw.new_game(seed=3)
    while not (endgame.near_end(s, 6) and len(s.offered) and s.current_player is not None):
        s = s.apply(rng.choice(s.legal_moves()))
        assert not s.is_terminal()
    report = analyse(s, Limit(iterations=500), seed=2)
    assert report.exact
    assert report.win_probability in (0.0, 1.0)
    assert report.candidates[0].move == report.best_move
    end = s
    for move in report.principal_line:
        end = end.apply(move)
    assert end.is_terminal()
    assert end.winner() == (report.player if report.win_probability == 1.0 else 1 - report.player)
    # Playing the exact search's move is what choose() does too.
    assert MCTSAgent(seed=2, limit=Limit(iterations=500)).choose(s) == report.best_move
