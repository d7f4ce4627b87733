"""Solo games for the searcher: Automa's unseen deck as sampled worlds, its turns compiled.

The searcher plays the person's side and never peeks at the deck (D6): a *world* is one
order of the cards drawn from those consistent with what the person knows
(``automa.sample_hidden`` over ``State.automa``), followed by the reshuffles it implies. Inside
one world Automa's turns are fixed by the rules (``automa_kernels``), so the search over it is
an ordinary tree over the person's moves; the searcher adds up its root figures over several
worlds (determinized search, as card-game programs do with hidden hands).
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
from . import policy

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
# A world's settings, one int64 array: where each lives.
MARKER, TAKES_SPECIALS, WITH_BUTTONS, PRINTED, COLUMNS = 0, 1, 2, 3, 4
SETTINGS_SIZE = COLUMNS + 4
# The running part of a world during one descent and playout.
CURSOR, RUN_WITH, RUN_PRINTED = 0, 1, 2


@dataclass(frozen=True)
class World:
    """One guess at Automa's future cards (``cards``, next first) with the game's settings."""

    settings: np.ndarray
    cards: np.ndarray

    @property
    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return self.settings, self.cards


NO_WORLD = World(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))


def sample_world(state: State, rng: random.Random) -> World:
    """A world consistent with what the person of ``state`` knows (never its real deck)."""
    view = state.automa
    assert view is not None, "a world is for a solo game"
    return world_of(state, A.sample_hidden(view, rng))


def world_of(state: State, hidden: A.Solo) -> World:
    """The world in which Automa's private part is ``hidden`` (its deck, then reshuffles)."""
    automa = state.rules.solo
    assert automa is not None, "a world is for a solo game"
    every = A.deck_cards(automa.deck)
    cards = list(hidden.deck)
    shuffle = hidden.shuffles
    while len(cards) < WORLD_CARDS:  # rule 15: each reshuffle takes all twelve cards
        shuffle += 1
        cards.extend(A.shuffled(every, hidden.seed, shuffle))
    settings = np.zeros(SETTINGS_SIZE, dtype=np.int64)
    settings[MARKER] = automa.marker
    settings[TAKES_SPECIALS] = automa.takes_specials
    settings[WITH_BUTTONS], settings[PRINTED] = A.pile_counts(hidden)
    settings[COLUMNS:] = A.level_columns(automa)
    return World(settings, np.array(cards[:WORLD_CARDS], dtype=np.int64))


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


@njit(cache=True)
def playout(
    s: np.ndarray,
    settings: np.ndarray,
    cards: np.ndarray,
    run: np.ndarray,
    noise: float,
    tries: int,
) -> None:
    """The playout policy for the person, the rules for Automa, to the end of the game."""
    automa_turns(s, settings, cards, run)
    while not K.is_terminal(s):
        K.apply_move(s, policy.policy_move(s, noise, tries))
        automa_turns(s, settings, cards, run)


@njit(cache=True)
def result(s: np.ndarray, settings: np.ndarray, run: np.ndarray) -> tuple[float, float]:
    """(won, margin) of a finished solo game, for the person (player 0)."""
    person = K.score(s, 0)
    automa = AK.score(s, run[RUN_WITH], run[RUN_PRINTED], settings[COLUMNS:])
    won = 1.0 if AK.person_wins(person, automa, s[L.FIRST]) else 0.0
    return won, float(person - automa)
