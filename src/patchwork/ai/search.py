"""The main searcher: MCTS over the compiled engine, as an agent and as an analyser.

The compiled loop (``mcts.iterate``) runs in short batches so that Python can keep the
clock, report progress and stop on request. With ``workers > 1`` the search runs in that
many processes at once (root parallelism) and their root statistics are added up; an iteration
limit is their total, and a stop request ends them all. Once few moves remain, an exact search
(``endgame.solve``) replaces the sampling.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import threading
import time
from collections.abc import Callable, MutableSequence
from concurrent.futures import Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from multiprocessing.synchronize import Event
from typing import Protocol

import numpy as np

from ..engine import kernels as K
from ..engine import layout as L
from ..engine.errors import PatchworkError
from ..engine.moves import Buy, Move, move_from_code
from ..engine.state import State, new_game
from . import endgame, mcts, policy, solo
from .limit import Limit

# code -> (visits, reward0, win0, margin0, {placement code -> the same four})
Stats = dict[int, tuple[int, float, float, float, dict[int, tuple[int, float, float, float]]]]

MAX_CAPACITY = 3_000_000
ITERATIONS_PER_SECOND = 40_000  # generous, to size the tree for a time limit
# Pondering stops here at the latest (about 20 s on one core).
PONDER_ITERATIONS = 400_000


class StopSignal(Protocol):
    """What a search polls between batches: a ``threading.Event``, or any signal that says
    when to stop (the server's AI workers read theirs from a queue)."""

    def is_set(self) -> bool: ...


@dataclass(frozen=True)
class Candidate:
    """One decision at the root: advance, a patch (with its best placement) or a square."""

    move: Move
    patch_id: int | None
    visits: int
    win_probability: float
    margin: float
    line: list[Move] = field(default_factory=list)


@dataclass(frozen=True)
class SearchResult:
    """What a search concluded, from the point of view of the player to move."""

    player: int
    best_move: Move
    win_probability: float
    margin: float
    principal_line: list[Move]
    candidates: list[Candidate]
    iterations: int
    nodes: int
    seconds: float
    exact: bool = False
    info: dict[str, float] = field(default_factory=dict)
    # Every move tried at the root, placements apart: move code -> (visits, win probability,
    # margin) for the player to move (a review reads its best move's own figures).
    move_stats: dict[int, tuple[int, float, float]] = field(default_factory=dict)


def _capacity(limit: Limit) -> int:
    estimates = []
    if limit.iterations is not None:
        estimates.append(2 * limit.iterations + 1024)
    if limit.time is not None:
        estimates.append(int(2 * ITERATIONS_PER_SECOND * limit.time) + 1024)
    return min(min(estimates), MAX_CAPACITY)


def _node_stats(tree: mcts.Tree, node: int) -> tuple[int, float, float, float]:
    return (
        int(tree.visits[node]),
        float(tree.reward0[node]),
        float(tree.win0[node]),
        float(tree.margin0[node]),
    )


def root_stats(tree: mcts.Tree) -> Stats:
    out: Stats = {}
    for c in tree.children(tree.root):
        subs = {int(tree.code[x]): _node_stats(tree, x) for x in tree.children(c)}
        out[int(tree.code[c])] = (*_node_stats(tree, c), subs)
    return out


def _merge(into: Stats, more: Stats) -> None:
    for code, (v, r, w, m, subs) in more.items():
        if code not in into:
            into[code] = (v, r, w, m, dict(subs))
            continue
        v0, r0, w0, m0, subs0 = into[code]
        for sc, (sv, sr, sw, sm) in subs.items():
            a = subs0.get(sc, (0, 0.0, 0.0, 0.0))
            subs0[sc] = (a[0] + sv, a[1] + sr, a[2] + sw, a[3] + sm)
        into[code] = (v0 + v, r0 + r, w0 + w, m0 + m, subs0)


def _shares(limit: Limit, processes: int) -> list[Limit]:
    """Each process's limit when ``processes`` search together, the main one's first: the
    time is each one's, the iterations are a total shared out (a share of none is dropped)."""
    if limit.iterations is None:
        return [limit] * processes
    each, rest = divmod(limit.iterations, processes)
    counts = [each + rest] + [each] * (processes - 1)
    return [replace(limit, iterations=n) for n in counts if n]


def _run_tree(
    tree: mcts.Tree,
    vector: np.ndarray,
    limit: Limit,
    params: mcts.Params,
    stop: StopSignal | None = None,
    on_info: Callable[[int, float], None] | None = None,
    worlds: solo.Worlds = solo.NO_WORLDS,
) -> int:
    """Iterate until the limit (or a stop request, or a full tree); returns iterations run."""
    start = time.perf_counter()
    done = 0
    batch = 32
    last_info = start
    while True:
        n = batch if limit.iterations is None else min(batch, limit.iterations - done)
        if n <= 0:
            break
        t0 = time.perf_counter()
        tree.run(vector, n, params, worlds)
        done += n
        now = time.perf_counter()
        # Aim at ~20 ms a batch: short enough to stop on time, long enough to cost nothing.
        batch = max(8, min(4096, int(n * 0.02 / max(now - t0, 1e-6))))
        if limit.time is not None:
            left = limit.time - (now - start)
            if left <= 0:
                break
            batch = max(1, min(batch, int(batch * left / 0.02)))
        if stop is not None and stop.is_set():
            break
        if on_info is not None and now - last_info >= 0.5:
            last_info = now
            on_info(done, now - start)
    return done


# -- worker processes (root parallelism) ----------------------------------------------------

_WORKER_TREE: mcts.Tree | None = None
_WORKER_STATE: State | None = None  # the position at the worker tree's root
_HELPERS: Helpers | None = None  # in a helper process: what it shares with the parent


@dataclass(frozen=True)
class Helpers:
    """What the parent shares with its helper processes: a stop request (a ``stop`` reaches
    them too) and each share's iterations so far (progress counts every process)."""

    stop: Event
    done: MutableSequence[int]  # a shared array, one entry a share (the main process's unused)

    def report(self, share: int) -> Callable[[int, float], None]:
        def report(iterations: int, _seconds: float) -> None:
            self.done[share] = iterations

        return report


def _worker_init(helpers: Helpers) -> None:
    # Ctrl-C is the parent's to handle (it stops the search). The worker's own job, run once
    # on a tiny search, loads the compiled kernels before the first search is timed (the
    # other warm-ups, in ai/warmup.py, sit above this module).
    global _HELPERS
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_search(new_game(seed=0), Limit(iterations=2), mcts.Params(), 0, reuse=False)
    _HELPERS = helpers


def _helper_run(
    share: int, tree: mcts.Tree, vector: np.ndarray, limit: Limit, params: mcts.Params,
    worlds: solo.Worlds = solo.NO_WORLDS,
) -> int:  # fmt: skip
    """``_run_tree`` in a helper process: stopped with the parent, its progress reported."""
    if _HELPERS is None:
        return _run_tree(tree, vector, limit, params, worlds=worlds)
    report = _HELPERS.report(share)
    return _run_tree(tree, vector, limit, params, _HELPERS.stop, report, worlds)


def _worker_search(
    state: State, limit: Limit, params: mcts.Params, seed: int, reuse: bool, share: int = 0
) -> tuple[Stats, int]:
    """A helper's share of a two-player search: its own tree, grown on from its last search
    when ``state`` lies below that one's position (as the parent's tree is)."""
    global _WORKER_TREE, _WORKER_STATE
    root = _WORKER_STATE if reuse else None
    if root is not None and np.array_equal(root.vector, state.vector):
        root = None  # two shares of one search can land in one process: never count one twice
    _WORKER_TREE = tree = _grown(_WORKER_TREE, root, state, _capacity(limit))
    _WORKER_STATE = state
    policy.seed(seed)
    done = _helper_run(share, tree, state.vector, limit, params)
    return root_stats(tree), done


def _worker_solo(
    vector: np.ndarray,
    limit: Limit,
    params: mcts.Params,
    seed: int,
    worlds: solo.Worlds,
    share: int = 0,
) -> tuple[Stats, int]:
    """A helper's share of a solo search: its own tree, over its share of the worlds."""
    global _WORKER_TREE, _WORKER_STATE
    _WORKER_TREE = tree = _emptied(_WORKER_TREE, _capacity(limit))
    _WORKER_STATE = None
    policy.seed(seed)
    done = _helper_run(share, tree, vector, limit, params, worlds)
    return root_stats(tree), done


def _grown(tree: mcts.Tree | None, root: State | None, state: State, capacity: int) -> mcts.Tree:
    """A tree to search ``state`` in: ``tree`` with its root moved down to ``state`` when that
    lies below ``root`` in it and half of ``capacity`` is still free (what was learnt there is
    kept); else ``tree`` emptied, or a new one where it is smaller than ``capacity``."""
    if tree is not None and root is not None:
        node = _find_descendant(tree, root, state)
        if node >= 0 and tree.capacity - tree.size >= capacity // 2:
            tree.meta[1] = node
            return tree
    return _emptied(tree, capacity)


def _emptied(tree: mcts.Tree | None, capacity: int) -> mcts.Tree:
    """``tree`` emptied, or a new tree where it is smaller than ``capacity``."""
    if tree is None or tree.capacity < capacity:
        return mcts.Tree(capacity)
    tree.reset()
    return tree


class MCTSAgent:
    """Monte Carlo tree search with a placement policy and progressive widening, in
    ``workers`` processes (a limit in iterations is their total: the same word on any number)."""

    def __init__(
        self,
        limit: Limit | float | None = None,
        params: mcts.Params | None = None,
        workers: int = 1,
        seed: int | None = None,
        reuse: bool = True,
        exact_endgame: bool = True,
        endgame_budget: int = 300_000,
        endgame_spaces: int = endgame.ENDGAME_SPACES,
        name: str = "mcts",
        worlds: int = 32,
    ) -> None:
        self.name = name
        # Solo games: sampled orders of Automa's deck, taken in turn when the search does not
        # draw each iteration's afresh (``mcts.Params.solo_fresh_worlds``).
        self.worlds = max(1, worlds)
        self.default_limit = Limit.of(limit, Limit(time=1.0))
        self.params = params or mcts.Params()
        self.workers = max(1, min(workers, os.cpu_count() or 1))
        self.reuse = reuse
        self.exact_endgame = exact_endgame
        self.endgame_budget = endgame_budget
        self.endgame_spaces = endgame_spaces  # the exact search is tried this near the end
        self._seed = np.random.SeedSequence(seed).generate_state(1)[0] if seed is not None else None
        self._searches = 0
        self._tree: mcts.Tree | None = None
        self._tree_state: State | None = None
        self._pool: ProcessPoolExecutor | None = None
        self._helpers: Helpers | None = None
        self.stop_event = threading.Event()

    # -- the agent protocol -----------------------------------------------------------------

    def choose(self, state: State, limit: Limit | float | None = None) -> Move:
        return self.search(state, limit, candidates=False).best_move

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def __del__(self) -> None:
        self.close()

    # -- searching --------------------------------------------------------------------------

    def _next_seed(self) -> int:
        self._searches += 1
        if self._seed is None:
            return int(np.random.SeedSequence().generate_state(1)[0])
        return int(self._seed) * 1_000_003 + self._searches

    def search(
        self,
        state: State,
        limit: Limit | float | None = None,
        on_info: Callable[[int, float], None] | None = None,
        candidates: bool = True,
    ) -> SearchResult:
        """Search ``state``; ``on_info(iterations, seconds)`` is called about twice a second.

        Near the end an exact search decides the best move and its line; with ``candidates``
        the sampling search still runs, for figures on every other decision too.
        """
        player = state.current_player
        if player is None:
            raise PatchworkError("the game is over: there is nothing to search")
        limit = Limit.of(limit, self.default_limit)
        try:
            return self._search(state, player, limit, on_info, candidates, self.stop_event)
        finally:
            # A stop asked for before or during this search ends it, and only it.
            self.stop_event.clear()

    @property
    def ponders(self) -> bool:
        """Whether it thinks on the opponent's time: only a searcher set in seconds that
        reuses its tree (one set in iterations would play stronger than its setting)."""
        return self.reuse and self.default_limit.iterations is None

    def ponder(self, state: State, stop: StopSignal, iterations: int = PONDER_ITERATIONS) -> int:
        """Think on the opponent's time (if it ``ponders``): grow the tree of ``state`` (the
        opponent to move) in this process until ``stop`` is set, so that the search after
        their move starts from the subtree already grown; returns the iterations run (0 when the
        exact endgame search settles the position: nothing to grow)."""
        player = state.current_player
        if player is None or not self.ponders:
            return 0
        # The tree it grows (two nodes an iteration at most) keeps room for the next search,
        # which would otherwise start afresh.
        reserve = _capacity(self.default_limit)
        tree = self._prepare_tree(state, Limit(iterations=iterations + reserve // 2))
        room = (tree.capacity - tree.size - reserve) // 2
        if room <= 0:
            return 0
        limit = Limit(time=3600.0, iterations=min(iterations, room))
        result = self._search(state, player, limit, None, False, stop, one_process=True)
        return 0 if result.exact else result.iterations

    def _search(
        self,
        state: State,
        player: int,
        limit: Limit,
        on_info: Callable[[int, float], None] | None,
        candidates: bool,
        stop: StopSignal,
        one_process: bool = False,
    ) -> SearchResult:
        start = time.perf_counter()
        seed = self._next_seed()
        codes = state.legal_move_codes()
        if state.rules.solo is not None:
            return self._solo_search(state, limit, on_info, seed, codes, start)
        solved = (
            endgame.solve_state(state, self.endgame_budget, self.endgame_spaces)
            if self.exact_endgame
            else None
        )
        if solved is not None and not candidates:
            return _exact_result(player, solved, time.perf_counter() - start)
        if limit.time is not None and self.exact_endgame:
            # A failed exact attempt's time is taken from the move's, not added to it.
            limit = replace(limit, time=max(limit.time - (time.perf_counter() - start), 0.01))
        own, *shares = _shares(limit, 1 if len(codes) < 2 or one_process else self.workers)
        tree = self._prepare_tree(state, own)
        futures: list[Future[tuple[Stats, int]]] = []
        if shares:
            pool = self._start_helpers()
            futures = [
                pool.submit(_worker_search, state, share, self.params, seed + i, self.reuse, i)
                for i, share in enumerate(shares, 1)
            ]
        policy.seed(seed)
        done = 0
        if len(codes) > 1 or tree.visits[tree.root] == 0:
            done = _run_tree(
                tree, state.vector, own, self.params, stop, self._counted(on_info, futures)
            )
        stats = root_stats(tree)
        done += self._gather(futures, stats, stop)
        result = self._result(state, tree, stats, done, time.perf_counter() - start)
        return result if solved is None else _with_exact(result, solved)

    def _solo_search(
        self,
        state: State,
        limit: Limit,
        on_info: Callable[[int, float], None] | None,
        seed: int,
        codes: np.ndarray,
        start: float,
    ) -> SearchResult:
        """A solo game: one tree over the person's moves across sampled worlds of Automa's
        deck (``solo``), a tree a process, their root figures added up. Automa is no chooser,
        so the exact two-player endgame does not apply."""
        worlds = self.sample_worlds(state, random.Random(seed))
        processes = 1 if len(codes) < 2 else min(self.workers, len(worlds))
        own, *shares = _shares(limit, processes)
        futures: list[Future[tuple[Stats, int]]] = []
        if shares:
            pool = self._start_helpers()
            futures = [
                pool.submit(_worker_solo, state.vector, share, self.params, seed + i,
                            worlds.part(i, processes), i)
                for i, share in enumerate(shares, 1)
            ]  # fmt: skip
        tree = mcts.Tree(_capacity(own))
        self._tree = self._tree_state = None  # nothing to reuse: the next search draws anew
        policy.seed(seed)
        done = _run_tree(tree, state.vector, own, self.params, self.stop_event,
                         self._counted(on_info, futures), worlds.part(0, processes))  # fmt: skip
        stats = root_stats(tree)
        done += self._gather(futures, stats, self.stop_event)
        return self._result(state, tree, stats, done, time.perf_counter() - start, totals=True)

    def sample_worlds(self, state: State, rng: random.Random) -> solo.Worlds:
        """The orders of Automa's deck a solo search plays in: drawn from those the person
        cannot tell apart (never the real one, which only a benchmark's player may read).
        When each iteration draws its own, a process needs one only (a buffer to draw into)."""
        n = min(self.workers, self.worlds) if self.params.solo_fresh_worlds else self.worlds
        return solo.sample_worlds(state, rng, n)

    def _start_helpers(self) -> ProcessPoolExecutor:
        """The helper processes, told that a new search starts (none has done anything yet)."""
        if self._pool is None:
            ctx = multiprocessing.get_context("spawn")
            self._helpers = Helpers(ctx.Event(), ctx.Array("q", self.workers, lock=False))
            self._pool = ProcessPoolExecutor(
                self.workers - 1, mp_context=ctx, initializer=_worker_init,
                initargs=(self._helpers,),
            )  # fmt: skip
        assert self._helpers is not None
        self._helpers.done[:] = [0] * self.workers
        return self._pool

    def _counted(
        self, on_info: Callable[[int, float], None] | None, futures: list[Future[tuple[Stats, int]]]
    ) -> Callable[[int, float], None] | None:
        """``on_info`` told the iterations of every process (the helpers' as last reported)."""
        helpers = self._helpers
        if on_info is None or not futures or helpers is None:
            return on_info
        return lambda iterations, seconds: on_info(iterations + sum(helpers.done), seconds)

    def _gather(
        self, futures: list[Future[tuple[Stats, int]]], stats: Stats, stop: StopSignal
    ) -> int:
        """Add the helpers' root figures to ``stats``; their iterations. A stop request that
        comes while they search is passed on to them."""
        pending = set(futures)
        while pending:
            if stop.is_set() and self._helpers is not None:
                self._helpers.stop.set()
            pending = wait(pending, timeout=0.02).not_done
        if self._helpers is not None:
            self._helpers.stop.clear()
        done = 0
        for f in futures:
            more, n = f.result()
            _merge(stats, more)
            done += n
        return done

    def _prepare_tree(self, state: State, limit: Limit) -> mcts.Tree:
        root = self._tree_state if self.reuse else None
        self._tree = tree = _grown(self._tree, root, state, _capacity(limit))
        self._tree_state = state
        return tree

    def _result(
        self,
        state: State,
        tree: mcts.Tree,
        stats: Stats,
        iterations: int,
        seconds: float,
        totals: bool = False,
    ) -> SearchResult:
        """The result from the root figures ``stats``; the position's own value is the root
        node's, or with ``totals`` the sum over its children (several trees added up)."""
        player = state.current_player
        assert player is not None
        candidates = []
        sign = 1 if player == 0 else -1
        move_stats: dict[int, tuple[int, float, float]] = {}
        for code, (v, _r, w, m, subs) in stats.items():
            if v == 0:
                continue
            for c, (sv, _sr, sw, sm) in subs.items() if code < 0 else [(code, (v, _r, w, m))]:
                if sv:
                    win = sw / sv if player == 0 else 1 - sw / sv
                    move_stats[c] = (sv, win, sign * sm / sv)
            if code < 0 and subs:
                best_sub = max(subs.items(), key=lambda kv: kv[1][0])[0]
                move = move_from_code(best_sub)
                patch: int | None = -code - 1
            else:
                move = move_from_code(code)
                patch = None
            win = w / v if player == 0 else 1 - w / v
            margin = m / v if player == 0 else -m / v
            line = _principal_line(tree, move, state)
            candidates.append(Candidate(move, patch, v, win, margin, line))
        candidates.sort(key=lambda c: -c.visits)
        if not candidates:  # a single forced move and no time spent
            only = move_from_code(int(state.legal_move_codes()[0]))
            candidates = [Candidate(only, None, 0, 0.5, 0.0)]
        if totals:
            v = max(sum(x[0] for x in stats.values()), 1)
            win0 = sum(x[2] for x in stats.values()) / v
            margin0 = sum(x[3] for x in stats.values()) / v
        else:
            root = tree.root
            v = max(int(tree.visits[root]), 1)
            win0 = float(tree.win0[root]) / v
            margin0 = float(tree.margin0[root]) / v
        return SearchResult(
            player=player,
            best_move=candidates[0].move,
            win_probability=win0 if player == 0 else 1 - win0,
            margin=margin0 if player == 0 else -margin0,
            principal_line=candidates[0].line or [candidates[0].move],
            candidates=candidates,
            iterations=iterations,
            nodes=tree.size,
            seconds=seconds,
            move_stats=move_stats,
        )


def _exact_result(player: int, solved: endgame.Solution, seconds: float) -> SearchResult:
    win = 1.0 if solved.winner == player else 0.0
    margin = float(solved.margin0 if player == 0 else -solved.margin0)
    best = solved.line[0]
    patch = best.patch_id if isinstance(best, Buy) else None
    return SearchResult(
        player=player,
        best_move=best,
        win_probability=win,
        margin=margin,
        principal_line=solved.line,
        candidates=[Candidate(best, patch, 0, win, margin, solved.line)],
        iterations=solved.nodes,
        nodes=solved.nodes,
        seconds=seconds,
        exact=True,
    )


def _with_exact(sampled: SearchResult, solved: endgame.Solution) -> SearchResult:
    """The sampled figures for every decision, with the exact verdict on the best one."""
    exact = _exact_result(sampled.player, solved, sampled.seconds)
    best = exact.candidates[0]
    others = [
        c
        for c in sampled.candidates
        if not (c.move == best.move or (c.patch_id is not None and c.patch_id == best.patch_id))
    ]
    return replace(
        exact,
        candidates=[best, *others],
        iterations=sampled.iterations,
        nodes=sampled.nodes,
    )


def _principal_line(tree: mcts.Tree, first: Move, state: State) -> list[Move]:
    """The best move, then the most visited path below it in the tree."""
    line = [first]
    node = tree.root
    code = first.code(state.rules.mode)
    # Walk to the chosen move's node (through the patch-choice node for a buy).
    for c in tree.children(node):
        cc = int(tree.code[c])
        if cc == code:
            node = c
            break
        if cc < 0 and tree.child_with_code(c, code) >= 0:
            node = tree.child_with_code(c, code)
            break
    else:
        return line
    while len(line) < 40:
        kids = tree.children(node)
        if not kids:
            break
        node = max(kids, key=lambda x: int(tree.visits[x]))
        if int(tree.visits[node]) < 2:
            break
        cc = int(tree.code[node])
        if 0 <= cc < mcts.SEEN:  # (not what Automa's turns showed, in a solo game)
            line.append(move_from_code(cc))
    return line


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
    """The tree node whose state is ``target``, or -1: a depth-first search along the moves
    that could lead there (an advance often could, and turn out not to have)."""
    goal = target.vector

    def below(node: int, vec: np.ndarray, plies: int) -> int:
        if np.array_equal(vec, goal):
            return node
        if plies == 0:
            return -1
        for c in tree.children(node):
            code = int(tree.code[c])
            if code < 0:  # a patch chosen, not yet placed: it must have left the circle
                if (-code - 1) in target.circle:
                    continue
                nxt = vec
            else:
                nxt = vec.copy()
                K.apply_move(nxt, code)
            if _consistent(nxt, goal) and (found := below(c, nxt, plies - 1)) >= 0:
                return found
        return -1

    return below(tree.root, root_state.vector.copy(), 24)
