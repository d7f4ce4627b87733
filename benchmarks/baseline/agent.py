"""The frozen searcher as an agent: one process, the tree kept from move to move, the exact
search once both tokens are within 12 spaces of the end (what ``MCTSAgent.choose`` did)."""

from __future__ import annotations

import time

import numpy as np

from patchwork.ai.limit import Limit
from patchwork.engine import kernels as K
from patchwork.engine import layout as L
from patchwork.engine.errors import PatchworkError
from patchwork.engine.moves import Move, move_from_code
from patchwork.engine.state import State

from . import endgame, mcts, policy

MAX_CAPACITY = 3_000_000
ITERATIONS_PER_SECOND = 40_000
ENDGAME_BUDGET = 300_000


def _capacity(limit: Limit) -> int:
    estimates = []
    if limit.iterations is not None:
        estimates.append(2 * limit.iterations + 1024)
    if limit.time is not None:
        estimates.append(int(2 * ITERATIONS_PER_SECOND * limit.time) + 1024)
    return min(min(estimates), MAX_CAPACITY)


def _run_tree(tree: mcts.Tree, vector: np.ndarray, limit: Limit, params: mcts.Params) -> int:
    """Iterate in batches of about 20 ms until the limit (or a full tree)."""
    start = time.perf_counter()
    done = 0
    batch = 32
    while True:
        n = batch if limit.iterations is None else min(batch, limit.iterations - done)
        if n <= 0:
            break
        t0 = time.perf_counter()
        tree.run(vector, n, params)
        done += n
        now = time.perf_counter()
        batch = max(8, min(4096, int(n * 0.02 / max(now - t0, 1e-6))))
        if limit.time is not None:
            left = limit.time - (now - start)
            if left <= 0:
                break
            batch = max(1, min(batch, int(batch * left / 0.02)))
    return done


class BaselineAgent:
    """The searcher of 68c4c79 (before issue 19), for ``benchmarks/`` matches only."""

    def __init__(
        self,
        limit: Limit | float | None = None,
        seed: int | None = None,
        name: str = "baseline",
    ) -> None:
        self.name = name
        self.default_limit = Limit.of(limit, Limit(time=1.0))
        self.params = mcts.Params()
        self._seed = np.random.SeedSequence(seed).generate_state(1)[0] if seed is not None else None
        self._searches = 0
        self._tree: mcts.Tree | None = None
        self._tree_state: State | None = None

    def _next_seed(self) -> int:
        self._searches += 1
        if self._seed is None:
            return int(np.random.SeedSequence().generate_state(1)[0])
        return int(self._seed) * 1_000_003 + self._searches

    def choose(self, state: State, limit: Limit | float | None = None) -> Move:
        if state.current_player is None:
            raise PatchworkError("the game is over: there is nothing to search")
        limit = Limit.of(limit, self.default_limit)
        seed = self._next_seed()
        solved = endgame.solve_state(state, ENDGAME_BUDGET)
        if solved is not None:
            return solved.line[0]
        tree = self._prepare_tree(state, limit)
        policy.seed(seed)
        if len(state.legal_move_codes()) > 1 or tree.visits[tree.root] == 0:
            _run_tree(tree, state.vector, limit, self.params)
        return _most_visited(tree, state)

    def _prepare_tree(self, state: State, limit: Limit) -> mcts.Tree:
        capacity = _capacity(limit)
        tree = self._tree
        if tree is not None and self._tree_state is not None:
            node = _find_descendant(tree, self._tree_state, state)
            if node >= 0 and tree.capacity - tree.size >= capacity // 2:
                tree.meta[1] = node
                self._tree_state = state
                return tree
        if tree is None or tree.capacity < capacity:
            tree = mcts.Tree(capacity)
        tree.reset()
        self._tree = tree
        self._tree_state = state
        return tree


def _most_visited(tree: mcts.Tree, state: State) -> Move:
    """The root's most visited decision; for a patch, its most visited placement."""
    kids = tree.children(tree.root)
    if not kids:
        return move_from_code(int(state.legal_move_codes()[0]))
    best = max(kids, key=lambda x: int(tree.visits[x]))
    if int(tree.code[best]) < 0:
        best = max(tree.children(best), key=lambda x: int(tree.visits[x]))
    return move_from_code(int(tree.code[best]))


def _consistent(before: np.ndarray, after: np.ndarray) -> bool:
    """Could ``after`` follow from ``before``? (Quilts only gain squares, tokens only move on.)"""
    for p in (0, 1):
        for word in (L.QUILT_LO + p, L.QUILT_HI + p):
            if before[word] & ~after[word]:
                return False
        if before[L.POSITION + p] > after[L.POSITION + p]:
            return False
    return bool(before[L.CIRCLE_LEN] >= after[L.CIRCLE_LEN])


def _find_descendant(tree: mcts.Tree, root_state: State, target: State) -> int:
    """The tree node whose state is ``target``, following the moves between them, or -1."""
    node = tree.root
    vec = root_state.vector.copy()
    goal = target.vector
    for _ in range(24):
        if np.array_equal(vec, goal):
            return node
        for c in tree.children(node):
            code = int(tree.code[c])
            if code < 0:
                if (-code - 1) in target.circle:
                    continue
                nxt = vec
            else:
                nxt = vec.copy()
                K.apply_move(nxt, code)
            if _consistent(nxt, goal):
                node, vec = c, nxt
                break
        else:
            return -1
    return -1
