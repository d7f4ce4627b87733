"""Solo games for the searcher: Automa's unseen deck as sampled worlds, its turns compiled.

The searcher plays the person's side and never peeks at the deck (D6): a *world* is one
order of the cards drawn from those consistent with what the person knows
(``automa.sample_hidden`` over ``State.automa``, or the same draw compiled, ``draw_world``),
followed by the reshuffles it implies. Inside one world Automa's turns are fixed by the rules
(``automa_kernels``). The searcher grows one tree over the person's moves with each iteration
in another world, so a move is judged by what it does across the deck orders the person
cannot tell apart (information-set MCTS: a separate tree a world would plan on knowing the
order, and play worse).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
from numba import njit

from ..engine import automa as A
from ..engine import automa_kernels as AK
from ..engine import kernels as K
from ..engine import layout as L
from ..engine.state import State
from ..engine.tables import PATCH_INCOME
from . import endgame, policy, rollout

# Automa turns a world lists: more than a game can use (a pass moves it at least one space).
WORLD_CARDS = 2 * 53 + 12
# The card table as arrays the kernels index by card number.
_N = max(A.CARDS) + 1
CARD_BUDGET = np.zeros(_N, dtype=np.int64)
CARD_INCOME = np.zeros(_N, dtype=np.int64)
CARD_FILTERS = np.full((_N, 3), AK.NO_FILTER, dtype=np.int64)
for _n, _card in A.CARDS.items():
    CARD_BUDGET[_n] = _card.budget
    CARD_INCOME[_n] = _card.income
    CARD_FILTERS[_n] = A.filter_codes(_card)
# A world's settings, one int64 array: where each lives (SHOWS_NEXT: whether the top card's
# back, its budget, is seen: the tactical deck's; COLUMNS: the level's four of rule 17).
MARKER, TAKES_SPECIALS, WITH_BUTTONS, PRINTED, SHOWS_NEXT, COLUMNS = 0, 1, 2, 3, 4, 5
# What worlds are drawn from, so a search may draw a fresh one (``draw_world``): the cards
# in the deck, the budget on the top card's back (-1: not shown), how many cards are unseen
# (-1: none may be drawn, the world is known), those cards, and the deck's twelve.
IN_DECK, NEXT_BUDGET, UNSEEN_COUNT = COLUMNS + 4, COLUMNS + 5, COLUMNS + 6
UNSEEN = COLUMNS + 7
EVERY = UNSEEN + 12
SETTINGS_SIZE = EVERY + 12
# The running part of a world during one descent and playout.
CURSOR, RUN_WITH, RUN_PRINTED = 0, 1, 2


@dataclass(frozen=True)
class Worlds:
    """Guesses at Automa's future cards (``cards``: a row each, next card first) with the
    game's settings."""

    settings: np.ndarray
    cards: np.ndarray

    @property
    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return self.settings, self.cards

    def __len__(self) -> int:
        return len(self.cards)

    def part(self, i: int, parts: int) -> Worlds:
        """Every ``parts``-th world from the ``i``-th: one process's share."""
        return Worlds(self.settings, self.cards[i::parts])


NO_WORLDS = Worlds(np.zeros(0, dtype=np.int64), np.zeros((1, 0), dtype=np.int64))


def sample_worlds(state: State, rng: random.Random, n: int) -> Worlds:
    """``n`` worlds consistent with what the person of ``state`` knows (never its real deck),
    with what they are drawn from (for ``draw_world``)."""
    view = state.automa
    assert view is not None, "a world is for a solo game"
    worlds = _worlds(state, [A.sample_hidden(view, rng) for _ in range(n)])
    unseen = view.unseen
    settings = worlds.settings
    settings[IN_DECK] = view.cards_in_deck
    settings[NEXT_BUDGET] = -1 if view.next_budget is None else view.next_budget
    settings[UNSEEN_COUNT] = len(unseen)
    settings[UNSEEN : UNSEEN + len(unseen)] = unseen
    return worlds


def world_of(state: State, hidden: A.Solo) -> Worlds:
    """The one world in which Automa's private part is ``hidden`` (its deck, then reshuffles):
    no other may be drawn."""
    return _worlds(state, [hidden])


@njit(cache=True)
def draw_world(settings: np.ndarray, row: np.ndarray) -> bool:
    """Fill ``row`` with a fresh world drawn as ``automa.sample_hidden`` draws one (the unseen
    cards in a random order, the top one showing the budget on its back if one is shown, the
    deck's share of them, then whole reshuffles), from numba's random state; False, and
    ``row`` untouched, when the settings name no cards to draw from (a known world)."""
    u = settings[UNSEEN_COUNT]
    if u < 0:
        return False
    unseen = settings[UNSEEN : UNSEEN + u].copy()
    np.random.shuffle(unseen)
    budget = settings[NEXT_BUDGET]
    if budget >= 0:  # rule 16: the top card is one of those with this budget, any of them
        tops = 0
        for i in range(u):
            if CARD_BUDGET[unseen[i]] == budget:
                tops += 1
        pick = np.random.randint(tops)
        for i in range(u):
            if CARD_BUDGET[unseen[i]] == budget:
                if pick == 0:
                    unseen[0], unseen[i] = unseen[i], unseen[0]
                    break
                pick -= 1
    n = min(settings[IN_DECK], len(row))
    row[:n] = unseen[:n]
    every = settings[EVERY : EVERY + 12].copy()
    while n < len(row):  # rule 15: each reshuffle takes all twelve cards
        np.random.shuffle(every)
        take = min(12, len(row) - n)
        row[n : n + take] = every[:take]
        n += take
    return True


def _worlds(state: State, hiddens: list[A.Solo]) -> Worlds:
    automa = state.rules.solo
    assert automa is not None, "a world is for a solo game"
    every = A.deck_cards(automa.deck)
    rows = np.empty((len(hiddens), WORLD_CARDS), dtype=np.int64)
    for row, hidden in zip(rows, hiddens, strict=True):
        cards = list(hidden.deck)
        shuffle = hidden.shuffles
        while len(cards) < WORLD_CARDS:  # rule 15: each reshuffle takes all twelve cards
            shuffle += 1
            cards.extend(A.shuffled(every, hidden.seed, shuffle))
        row[:] = cards[:WORLD_CARDS]
    settings = np.zeros(SETTINGS_SIZE, dtype=np.int64)
    settings[MARKER] = automa.marker
    settings[TAKES_SPECIALS] = automa.takes_specials
    # (The piles are public: the same in every world.)
    settings[WITH_BUTTONS], settings[PRINTED] = A.pile_counts(hiddens[0])
    settings[SHOWS_NEXT] = automa.deck == "tactical"
    settings[COLUMNS : COLUMNS + 4] = A.level_columns(automa)
    settings[UNSEEN_COUNT] = -1  # (sample_worlds says what else may be drawn)
    settings[EVERY : EVERY + 12] = every
    return Worlds(settings, rows)


@njit(cache=True)
def start_run(settings: np.ndarray, run: np.ndarray) -> None:
    run[CURSOR] = 0
    run[RUN_WITH] = settings[WITH_BUTTONS]
    run[RUN_PRINTED] = settings[PRINTED]


@njit(cache=True)
def automa_turns(s: np.ndarray, settings: np.ndarray, cards: np.ndarray, run: np.ndarray) -> None:
    """Play Automa's turns while it is to move (rule 4), drawing the world's next cards."""
    affordable = np.empty(3, dtype=np.int64)
    while not K.is_terminal(s) and K.current_player(s) == AK.AUTOMA:
        card = cards[run[CURSOR]]
        run[CURSOR] += 1
        _n, patch, _by = AK.choose(s, CARD_BUDGET[card], CARD_FILTERS[card], affordable)
        AK.move(s, patch, CARD_INCOME[card], settings[MARKER], settings[TAKES_SPECIALS] != 0)
        if patch >= 0:
            income = PATCH_INCOME[patch]
            run[RUN_PRINTED] += income
            if income >= 1:  # D5
                run[RUN_WITH] += 1


# What the person sees of Automa's turns, as a number: the cards turned up, in order, and
# with the tactical deck the budget on the next one's back (a hash below 2**40).
_SEEN_MASK = (1 << 40) - 1


@njit(cache=True)
def seen(settings: np.ndarray, cards: np.ndarray, before: int, run: np.ndarray) -> int:
    """What the person learns from Automa's turns that drew ``cards[before:run[CURSOR]]``:
    two worlds that agree on it are the same game to the person up to here."""
    h = 0
    for i in range(before, run[CURSOR]):
        h = (h * 1_000_003 + cards[i] + 1) & _SEEN_MASK
    if settings[SHOWS_NEXT] != 0:
        h = (h * 1_000_003 + CARD_BUDGET[cards[run[CURSOR]]] + 1) & _SEEN_MASK
    return h


@njit(cache=True)
def playout(
    s: np.ndarray,
    settings: np.ndarray,
    cards: np.ndarray,
    run: np.ndarray,
    noise: float,
    tries: int,
    tau: float,
    weights: np.ndarray,
) -> None:
    """A playout policy for the person (the learned one at ``tau`` > 0 from ``weights``, else
    the heuristic one), the rules for Automa, to the end of the game."""
    f = np.empty(rollout.N_FEATURES)
    utility = np.empty(K.OFFERED + 1)
    odds = np.empty(K.OFFERED + 1)
    automa_turns(s, settings, cards, run)
    while not K.is_terminal(s):
        if tau > 0:
            move = rollout.policy_move_in(s, weights, tau, tries, f, utility, odds)
        else:
            move = policy.policy_move(s, noise, tries)
        K.apply_move(s, move)
        automa_turns(s, settings, cards, run)


@njit(cache=True)
def result(s: np.ndarray, settings: np.ndarray, run: np.ndarray) -> tuple[float, float]:
    """(won, margin) of a finished solo game, for the person (player 0)."""
    person = K.score(s, 0)
    automa = AK.score(s, run[RUN_WITH], run[RUN_PRINTED], settings[COLUMNS : COLUMNS + 4])
    won = 1.0 if AK.person_wins(person, automa, s[L.FIRST]) else 0.0
    return won, float(person - automa)


@njit(cache=True)
def _value(s: np.ndarray, settings: np.ndarray, run: np.ndarray) -> int:
    """A finished game's value for the person, as the exact endgame counts it (``endgame``):
    winning first, then the margin."""
    won, margin = result(s, settings, run)
    return (endgame.WIN if won > 0 else -endgame.WIN) + int(margin)


@njit(cache=True)
def solve_in(
    s: np.ndarray,
    settings: np.ndarray,
    cards: np.ndarray,
    run: np.ndarray,
    budget: int,
    states: np.ndarray,
    moves: np.ndarray,
    plies: np.ndarray,
    pv: np.ndarray,
    scores: np.ndarray,
    runs: np.ndarray,
) -> tuple[int, int, int]:
    """The exact value of ``s`` (the person to move, in one world) for the person: in a world
    Automa's turns are fixed, so this is the best of every line of the person's moves, each
    followed by Automa's turns (``automa_turns``). As ``endgame.solve_in`` (its workspace,
    and ``runs``: a world's running part a ply): (value, moves in the line, nodes visited),
    nodes < 0 when out of ``budget``."""
    count = plies[0]
    index = plies[1]
    best = plies[3]
    pv_len = plies[6]
    states[0] = s
    runs[0] = run
    if K.is_terminal(s):
        return _value(s, settings, run), 0, 0
    nodes = 1
    d = 0
    endgame.open_ply(states, moves, plies, 0, scores)
    best[0] = -(1 << 40)
    pv_len[0] = 0
    while True:
        if index[d] < count[d]:
            code = moves[d, index[d]]
            index[d] += 1
            c = d + 1
            if c >= len(states) or nodes >= budget:
                return 0, 0, -1
            states[c] = states[d]
            runs[c] = runs[d]
            K.apply_move(states[c], code)
            automa_turns(states[c], settings, cards, runs[c])
            nodes += 1
            pv_len[c] = 0
            if not K.is_terminal(states[c]):
                d = c
                endgame.open_ply(states, moves, plies, d, scores)
                best[d] = -(1 << 40)
                continue
            v = _value(states[c], settings, runs[c])
        else:
            if d == 0:
                break
            v = best[d]
            d -= 1
            code = moves[d, index[d] - 1]
        if v > best[d]:
            best[d] = v
            endgame.take_line(pv, pv_len, d, code)
    return best[0], pv_len[0], nodes
