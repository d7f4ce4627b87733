"""Monte Carlo tree search, compiled: the search loop never crosses into Python per node.

Shape of the tree (see DESIGN.md, Search):
- A turn is two decisions. A *decision node* offers advance and each offered patch that can
  be bought and fits (at most 4 children, all tried). Choosing a patch leads to a *placement
  node* (move code ``-(1 + patch)``, same state, same player) whose children are that patch's
  placements, ranked by the placement policy and added one by one as the node is visited more
  (progressive widening). A pending special patch is placed the same way.
- Turns do not alternate: each node's statistics are kept for player 0 and the player to move
  at the parent picks by its own value, never by negating.
- Nodes hold no state: each iteration replays the codes from the root state (a handful of
  cheap kernel calls), which keeps a node at 40 bytes.
- Values are score-aware: a playout's reward blends the win (tie-break included) with the
  final score margin.
- Playouts buy by the learned purchase policy (``rollout``) unless ``rollout_tau`` is 0.
- A new leaf's value blends its playout's with a small network's estimate: over both quilts
  and the circle in a two-player game (``value``; ``value_mix`` of it), over the person's
  quilt, the circle and Automa's points in a solo game (``solo_value``; ``solo_value_mix``).
- In a solo game one tree spans the orders of Automa's deck the person cannot rule out
  (``solo``), each iteration in one drawn afresh (``solo_fresh_worlds``; or in a fixed
  sample's, in turn); where they disagree on what the person may do, a node offers what is
  legal in the iteration's world. With ``solo_observe`` (off by default), a move
  Automa answers leads to one node for each thing the person may see of its turns (its
  cards, and with the tactical deck the next budget: code ``SEEN + solo.seen``), so the
  person's later moves are chosen knowing it, as at the table.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..engine import kernels as K
from ..engine import layout as L
from ..engine.tables import MODE_COUNT, MODE_INDEX
from . import endgame, policy, rollout, solo, solo_value
from . import value as valuenet

UNKNOWN = -1
# The share of a two-player leaf's value that comes from the learned value (``value``), the
# rest from its playout: tuned at 0.1 s a move (docs/strength.md, "A learned value").
VALUE_MIX = 0.75
# ... and of a solo leaf's, from the solo network (``solo_value``).
SOLO_VALUE_MIX = 0.75
UNSOLVED = -(1 << 40)
# Codes from here up are what the person saw of Automa's turns (``solo.seen``), not moves.
SEEN = 1 << 40
MAX_DEPTH = 512
# meta ([size, root]), parent, first_child, next_sibling, n_children, total, code, visits,
# reward0, win0, margin0, exact (the solved value for player 0, or UNSOLVED): the node arrays,
# passed to the kernels as one tuple.
TreeArrays = tuple[np.ndarray, ...]


class Params:
    """Search settings (plain floats so they cross into the kernel as arguments)."""

    def __init__(
        self,
        c_uct: float = 0.35,
        widen_c: float = 0.03,
        widen_alpha: float = 0.5,
        noise: float = 0.35,
        tries: int = 8,
        margin_weight: float = 0.4,
        margin_scale: float = 15.0,
        solve_spaces: int = 0,
        solve_budget: int = 2000,
        rollout_tau: float = 1.0,
        rollout_weights: np.ndarray | None = None,
        c_place: float | None = None,
        solo_weights: np.ndarray | None = None,
        solo_solve_spaces: int = 0,
        value_mix: float = VALUE_MIX,
        value_weights: tuple[np.ndarray, ...] | None = None,
        solo_observe: bool = False,
        solo_value_mix: float = SOLO_VALUE_MIX,
        solo_value_weights: tuple[np.ndarray, ...] | None = None,
        solo_fresh_worlds: bool = True,
    ) -> None:
        self.c_uct = c_uct
        # Exploration among a patch's placements (the same as ``c_uct`` unless set).
        self.c_place = c_uct if c_place is None else c_place
        # A placement node has 1 + widen_c * visits ** widen_alpha children: the placement
        # policy's best alone until about 1,100 visits, so the tree looks deeper into what to
        # buy rather than spreading its visits over where (README, Fewer placements).
        self.widen_c = widen_c
        self.widen_alpha = widen_alpha
        self.noise = noise
        self.tries = tries
        self.margin_weight = margin_weight
        self.margin_scale = margin_scale
        # A new leaf this near the end (both tokens' spaces left, summed) is solved exactly
        # (endgame.solve, within solve_budget nodes) and keeps that value: it is never
        # sampled again (MCTS-solver style). 0: off.
        self.solve_spaces = solve_spaces
        # The same in a solo game, in each sampled world (where Automa's turns are fixed):
        # the exact endgame per deck order (solo.solve_in).
        self.solo_solve_spaces = solo_solve_spaces
        self.solve_budget = solve_budget
        # Playouts buy by the learned policy (rollout) at this temperature, from
        # these weights (the package's by default); 0: by the heuristic one (policy), whose
        # noise is ``noise``.
        self.rollout_tau = rollout_tau
        self.rollout_weights = rollout.WEIGHTS if rollout_weights is None else rollout_weights
        # ... and in a solo game the person's, from these (the same unless set).
        self.solo_weights = self.rollout_weights if solo_weights is None else solo_weights
        # A two-player leaf's value blends the playout's with the learned value's (``value``,
        # from these weights: the package's by default) at this share; 1: the network alone,
        # no playout; 0: the playout alone, as the search was before it.
        self.value_mix = value_mix
        self.value_weights = valuenet.WEIGHTS if value_weights is None else value_weights
        # In a solo game, whether the tree tells apart what the person saw of Automa's turns
        # (False: one node after each move whatever Automa did). Off: it played no better
        # against Legend at 2,000 or 10,000 iterations with fixed worlds, 13 points worse
        # with fresh ones (each card drawn its own child), and costs a third of the speed
        # (docs/strength.md, "With fresh worlds: the other settings again").
        self.solo_observe = solo_observe
        # A solo leaf's value blends its playout's with the solo network's (``solo_value``)
        # at this share, as ``value_mix`` does in a two-player game.
        self.solo_value_mix = solo_value_mix
        self.solo_value_weights = (
            solo_value.WEIGHTS if solo_value_weights is None else solo_value_weights
        )
        # In a solo game, whether each iteration draws a world of its own (``solo.draw_world``)
        # rather than taking the sampled worlds in turn. With a fixed sample more time only
        # sharpens the verdict on those few orders; fresh ones judge a move over all the person
        # cannot rule out: against Legend at 1 s, 72.0% and 83.5% (normal, tactical deck) where
        # 32 fixed won 69.5% and 79.5% (docs/strength.md, "A fresh world each iteration").
        self.solo_fresh_worlds = solo_fresh_worlds

    def as_array(self) -> np.ndarray:
        return np.array(
            [
                self.c_uct,
                self.widen_c,
                self.widen_alpha,
                self.noise,
                self.tries,
                self.margin_weight,
                self.margin_scale,
                self.solve_spaces,
                self.solve_budget,
                self.rollout_tau,
                self.c_place,
                self.solo_solve_spaces,
                self.value_mix,
                self.solo_observe,
                self.solo_value_mix,
                self.solo_fresh_worlds,
                *self.rollout_weights,
                *self.solo_weights,
            ],
            dtype=np.float64,
        )


class Tree:
    """Preallocated node arrays; ``size`` nodes are in use, node 0 is the first root."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.parent = np.full(capacity, -1, dtype=np.int32)
        self.first_child = np.full(capacity, -1, dtype=np.int32)
        self.next_sibling = np.full(capacity, -1, dtype=np.int32)
        self.n_children = np.zeros(capacity, dtype=np.int32)
        self.total = np.full(capacity, UNKNOWN, dtype=np.int32)
        self.code = np.zeros(capacity, dtype=np.int64)
        self.visits = np.zeros(capacity, dtype=np.int64)
        self.reward0 = np.zeros(capacity, dtype=np.float64)
        self.win0 = np.zeros(capacity, dtype=np.float64)
        self.margin0 = np.zeros(capacity, dtype=np.float64)
        self.exact = np.full(capacity, UNSOLVED, dtype=np.int64)
        self.meta = np.zeros(2, dtype=np.int64)  # [size, root]

        self.arrays: TreeArrays = (
            self.meta,
            self.parent,
            self.first_child,
            self.next_sibling,
            self.n_children,
            self.total,
            self.code,
            self.visits,
            self.reward0,
            self.win0,
            self.margin0,
            self.exact,
        )

        self.reset()

    def reset(self) -> None:
        """Empty the tree but for a fresh root (node 0)."""
        self.meta[:] = (1, 0)
        fresh = (-1, -1, -1, 0, UNKNOWN, 0, 0, 0.0, 0.0, 0.0, UNSOLVED)
        for array, value in zip(self.arrays[1:], fresh, strict=True):
            array[0] = value

    @property
    def size(self) -> int:
        return int(self.meta[0])

    @property
    def root(self) -> int:
        return int(self.meta[1])

    def children(self, node: int) -> list[int]:
        out = []
        c = int(self.first_child[node])
        while c >= 0:
            out.append(c)
            c = int(self.next_sibling[c])
        return out

    def child_with_code(self, node: int, code: int) -> int:
        for c in self.children(node):
            if int(self.code[c]) == code:
                return c
        return -1

    def run(
        self,
        state: np.ndarray,
        iterations: int,
        params: Params,
        worlds: solo.Worlds = solo.NO_WORLDS,
    ) -> int:
        """Run iterations from the root (whose state is ``state``; in a solo game, across
        ``worlds`` of Automa's deck); returns nodes in use."""
        arrays = self.arrays
        return int(
            iterate(
                state,
                iterations,
                params.as_array(),
                arrays,
                *worlds.arrays,
                params.value_weights,
                params.solo_value_weights,
            )
        )


@njit(cache=True)
def _candidates(s: np.ndarray, node_code: int, out: np.ndarray, scores: np.ndarray) -> int:
    """The children a node may have, best first; returns how many."""
    p = K.current_player(s)
    n = 0
    if s[L.PENDING] > 0:
        lo = s[L.QUILT_LO + p]
        hi = s[L.QUILT_HI + p]
        for sq in range(K.NUM_SQUARES):
            if K.square_is_empty(s, p, sq):
                out[n] = K.SPECIAL_BASE + sq
                scores[n] = policy.special_score(lo, hi, sq)
                n += 1
    elif node_code < 0:
        patch = -node_code - 1
        mode = s[L.MODE]
        lo = s[L.QUILT_LO + p]
        hi = s[L.QUILT_HI + p]
        bonus_open = s[L.BONUS] < 0
        for i in range(MODE_COUNT[mode, patch]):
            if K.footprint_free(mode, patch, i, lo, hi):
                k = MODE_INDEX[mode, patch, i]
                out[n] = K.BUY_BASE + k
                scores[n] = policy.placement_score(lo, hi, k, bonus_open)
                n += 1
    else:
        out[0] = K.ADVANCE
        scores[0] = 0.0
        n = 1
        for j in range(K.offer_size(s)):
            patch = s[L.CIRCLE + j]
            if K.affordable(s, p, patch) and K.fits_somewhere(s, p, patch):
                out[n] = -(1 + patch)
                scores[n] = -float(n)  # keep the offer's order
                n += 1
    # Best first, stable so equal scores keep their generation order.
    order = np.argsort(-scores[:n], kind="mergesort")
    tmp = out[:n].copy()
    for i in range(n):
        out[i] = tmp[order[i]]
    return n


@njit(cache=True)
def _widened(visits: int, widen_c: float, widen_alpha: float) -> int:
    return 1 + int(widen_c * visits**widen_alpha)


@njit(cache=True)
def _add_child(t: TreeArrays, node: int, move: int) -> int:
    meta, parent, first_child, next_sibling, n_children, total, code = t[:7]
    visits, reward0, win0, margin0, exact = t[7:]
    new = meta[0]
    meta[0] += 1
    parent[new] = node
    first_child[new] = -1
    next_sibling[new] = -1
    n_children[new] = 0
    total[new] = UNKNOWN
    code[new] = move
    visits[new] = 0
    reward0[new] = 0.0
    win0[new] = 0.0
    margin0[new] = 0.0
    exact[new] = UNSOLVED
    # Append at the end of the sibling list, so children stay in the policy's order.
    if first_child[node] < 0:
        first_child[node] = new
    else:
        x = first_child[node]
        while next_sibling[x] >= 0:
            x = next_sibling[x]
        next_sibling[x] = new
    n_children[node] += 1
    return new


@njit(cache=True)
def _select_legal(
    t: TreeArrays, node: int, cand: np.ndarray, n: int, tried: int, s: np.ndarray, room: bool,
    c_explore: float,
) -> int:  # fmt: skip
    """At a node whose moves depend on the world (``cand[:n]`` legal in this descent's): the
    first of the ``tried`` best not yet a child becomes one, if there is room; else the best
    child by UCT among those legal here; -1 if none is."""
    first_child, next_sibling, code = t[2], t[3], t[6]
    visits, reward0 = t[7], t[8]
    for i in range(tried if room else 0):
        x = first_child[node]
        while x >= 0 and code[x] != cand[i]:
            x = next_sibling[x]
        if x < 0:
            return _add_child(t, node, cand[i])
    p = K.current_player(s)
    log_n = math.log(max(visits[node], 1))
    best = -1
    best_value = -1e300
    x = first_child[node]
    while x >= 0:
        legal = False
        for i in range(n):
            if cand[i] == code[x]:
                legal = True
                break
        if legal:
            nv = visits[x]
            q = reward0[x] / nv if nv > 0 else 0.5
            if p == 1:
                q = 1.0 - q
            value = q + c_explore * math.sqrt(log_n / max(nv, 1))
            if value > best_value:
                best_value = value
                best = x
        x = next_sibling[x]
    return best


@njit(cache=True)
def _answered(
    t: TreeArrays, node: int, s: np.ndarray, settings: np.ndarray, cards: np.ndarray,
    run: np.ndarray, observing: bool, room: bool,
) -> int:  # fmt: skip
    """Automa's turns after the person's move at ``node``: the node to go on from, which
    with ``observing`` is the child for what the person saw of those turns (added if new and
    there is ``room``; -1 if not), else ``node`` itself."""
    before = run[solo.CURSOR]
    solo.automa_turns(s, settings, cards, run)
    if not observing or run[solo.CURSOR] == before:
        return node  # Automa did not move: the same in every world
    seen = SEEN + solo.seen(settings, cards, before, run)
    first_child, next_sibling, code = t[2], t[3], t[6]
    x = first_child[node]
    while x >= 0 and code[x] != seen:
        x = next_sibling[x]
    if x >= 0 or not room:
        return x
    return _add_child(t, node, seen)


@njit(cache=True)
def _step_answered(
    t: TreeArrays, path: np.ndarray, depth: int, s: np.ndarray, settings: np.ndarray,
    cards: np.ndarray, run: np.ndarray, observing: bool, room: bool,
) -> int:  # fmt: skip
    """Automa's turns after the person's move at ``path[depth]`` (:func:`_answered`), the
    descent stepping into the node for what they showed: the depth it goes on from (one
    deeper if it stepped), or -1 if there was no ``room`` for that node."""
    node = path[depth]
    after = _answered(t, node, s, settings, cards, run, observing, room)
    if after < 0:
        return -1
    if after != node:
        depth += 1
        path[depth] = after
    return depth


@njit(cache=True)
def iterate(
    root_state: np.ndarray,
    iterations: int,
    params: np.ndarray,
    t: TreeArrays,
    settings: np.ndarray,
    worlds: np.ndarray,
    net: tuple[np.ndarray, ...],
    solo_net: tuple[np.ndarray, ...],
) -> int:
    """``iterations`` descents, playouts and updates. In a solo game (``settings`` not empty)
    Automa replies after each of the person's moves by the cards of one of ``worlds`` (a row
    of cards each), a different one each iteration in turn: one tree over what the person
    knows (information-set MCTS), in which a node's moves are those legal in the world the
    descent is in."""
    meta, parent, first_child, next_sibling, n_children, total, code = t[:7]
    visits, reward0, win0, margin0, exact = t[7:]
    c_uct = params[0]
    widen_c = params[1]
    widen_alpha = params[2]
    noise = params[3]
    tries = int(params[4])
    margin_weight = params[5]
    margin_scale = params[6]
    solve_spaces = int(params[7])
    solve_budget = int(params[8])
    rollout_tau = params[9]
    c_place = params[10]
    if len(settings) > 0:  # a solo game
        solve_spaces = int(params[11])
    value_mix = params[12]
    observe = params[13] != 0.0
    rollout_weights = params[16 : 16 + rollout.N_FEATURES].copy()
    solo_weights = params[16 + rollout.N_FEATURES :].copy()
    is_solo = len(settings) > 0
    if is_solo:  # a solo leaf's network is the solo one, at its own share
        value_mix = params[14]
        net = solo_net
    net_in = np.empty(solo_value.N_INPUTS if is_solo else valuenet.N_INPUTS)
    net_h1 = np.empty(len(net[1]))
    net_h2 = np.empty(len(net[3]))
    line = np.empty(endgame.MAX_PLIES, dtype=np.int64)
    # The solver's megabyte of stack only when leaves are solved (one ply of it otherwise).
    work = endgame.workspace(len(root_state), endgame.MAX_PLIES if solve_spaces > 0 else 1)
    runs = np.empty((endgame.MAX_PLIES if solve_spaces > 0 else 1, 3), dtype=np.int64)
    capacity = len(parent)
    root = meta[1]
    s = np.empty_like(root_state)
    path = np.empty(MAX_DEPTH, dtype=np.int64)
    cand = np.empty(K.MAX_MOVES, dtype=np.int64)
    scores = np.empty(K.MAX_MOVES, dtype=np.float64)
    # After a move of the person's, what is on offer and who moves next depend on Automa's
    # cards: with several worlds such a node's children are checked against each descent's.
    fresh = is_solo and params[15] != 0.0 and settings[solo.UNSEEN_COUNT] >= 0
    shared = is_solo and (len(worlds) > 1 or fresh)
    observing = shared and observe
    cards = worlds[0]
    drawn = np.empty(worlds.shape[1], dtype=np.int64)
    run = np.zeros(3, dtype=np.int64)
    for _ in range(iterations):
        s[:] = root_state
        if is_solo:
            if fresh:
                solo.draw_world(settings, drawn)
                cards = drawn
            else:
                cards = worlds[visits[root] % len(worlds)]
            solo.start_run(settings, run)
        node = root
        depth = 0
        path[0] = node
        while not K.is_terminal(s) and depth < MAX_DEPTH - 3 and exact[node] == UNSOLVED:
            c = code[node]
            widening = c < 0 or s[L.PENDING] > 0
            if shared and c >= 0:
                # (A patch's placements, below, depend on the person's quilt alone.)
                n = _candidates(s, c, cand, scores)
                tried = min(n, _widened(visits[node], widen_c, widen_alpha)) if widening else n
                room = meta[0] + 3 <= capacity  # a move, and what Automa's answer showed
                chosen = _select_legal(
                    t, node, cand, n, tried, s, room, c_place if widening else c_uct
                )
                if chosen < 0:
                    break
                node = chosen
                depth += 1
                path[depth] = node
                if code[node] < 0:
                    continue  # a patch chosen: on to its placements
                K.apply_move(s, code[node])
                depth = _step_answered(t, path, depth, s, settings, cards, run, observing, True)
                node = path[depth]
                if visits[node] == 0:
                    break  # a new leaf
                continue
            limit = _widened(visits[node], widen_c, widen_alpha) if widening else 1 << 30
            grow = n_children[node] < limit and total[node] != n_children[node]
            if grow and meta[0] + 2 <= capacity:
                n = _candidates(s, c, cand, scores)
                total[node] = n
                if n_children[node] < n:
                    node = _add_child(t, node, cand[n_children[node]])
                    depth += 1
                    path[depth] = node
                    if code[node] < 0:
                        continue  # a patch choice is no move yet: give it a placement too
                    K.apply_move(s, code[node])
                    if is_solo:
                        solo.automa_turns(s, settings, cards, run)
                    break
            if n_children[node] == 0:
                break
            # Select by UCT, from the point of view of the player choosing here.
            p = K.current_player(s)
            c_explore = c_place if widening else c_uct
            log_n = math.log(max(visits[node], 1))
            best = -1
            best_value = -1e300
            x = first_child[node]
            while x >= 0:
                nv = visits[x]
                if nv == 0:
                    value = 1e100
                else:
                    q = reward0[x] / nv
                    if p == 1:
                        q = 1.0 - q
                    value = q + c_explore * math.sqrt(log_n / nv)
                if value > best_value:
                    best_value = value
                    best = x
                x = next_sibling[x]
            node = best
            depth += 1
            path[depth] = node
            if code[node] >= 0:
                K.apply_move(s, code[node])
                if is_solo:
                    room = meta[0] + 1 <= capacity
                    step = _step_answered(t, path, depth, s, settings, cards, run, observing, room)
                    if step < 0:
                        break  # no room for what Automa showed: this node is the leaf
                    if step != depth:
                        depth = step
                        node = path[depth]
                        if visits[node] == 0:
                            break  # a new leaf
        solved = UNSOLVED
        if (
            exact[node] == UNSOLVED
            and solve_spaces > 0
            and code[node] >= 0
            and node != root
            and not K.is_terminal(s)
            and endgame.spaces_left(s) <= solve_spaces
        ):
            if is_solo:
                value, _n, nodes = solo.solve_in(s, settings, cards, run, solve_budget, *work, runs)
            else:
                value, _n, nodes = endgame.solve_in(s, solve_budget, line, *work)
            if nodes >= 0:
                solved = value
                if not shared:  # with several worlds, the value is this descent's world's only
                    exact[node] = value
        if exact[node] != UNSOLVED:
            won, margin = endgame.outcome(exact[node])
        elif solved != UNSOLVED:
            won, margin = endgame.outcome(solved)
        else:
            learned = value_mix > 0.0 and not K.is_terminal(s)
            if learned:
                if is_solo:
                    v_won, v_margin = solo_value.evaluate(
                        s, settings, cards, run, net, net_in, net_h1, net_h2
                    )
                else:
                    v_won, v_margin = valuenet.evaluate(s, net, net_in, net_h1, net_h2)
            if is_solo:
                if not learned or value_mix < 1.0:
                    solo.playout(s, settings, cards, run, noise, tries, rollout_tau, solo_weights)
                won, margin = solo.result(s, settings, run)
            else:
                if not learned or value_mix < 1.0:
                    if rollout_tau > 0:
                        rollout.playout(s, rollout_weights, rollout_tau, tries)
                    else:
                        policy.playout(s, noise, tries)
                margin = float(K.score(s, 0) - K.score(s, 1))
                won = 1.0 if K.winner(s) == 0 else 0.0
            if learned:
                won = (1.0 - value_mix) * won + value_mix * v_won
                margin = (1.0 - value_mix) * margin + value_mix * v_margin
        r0 = (1.0 - margin_weight) * won + margin_weight * (
            0.5 + 0.5 * math.tanh(margin / margin_scale)
        )
        for i in range(depth + 1):
            v = path[i]
            visits[v] += 1
            reward0[v] += r0
            win0[v] += won
            margin0[v] += margin
    return meta[0]
