"""A learned value for solo games: the two-player network's inputs from the person's view, and
what Automa's points depend on.

Automa's points are not on its quilt: by its level they count its buttons, its patches with
buttons and the buttons printed on them (rule 17), which a world keeps in its running part
(``solo.RUN_WITH``, ``solo.RUN_PRINTED``). The network sees those, the level's columns, and
with the tactical deck the budget on the next card's back, all things the person knows: never
the deck's order. Fitted by ``benchmarks/value_net.py --solo`` to the searcher's solo games
against Automa (docs/strength.md, "Against the Automa").
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from ..engine import automa_kernels as AK
from ..engine.state import State
from . import solo
from . import value as valuenet

EXTRA = 10
N_INPUTS = valuenet.N_INPUTS + EXTRA


@njit(cache=True)
def features(
    s: np.ndarray, settings: np.ndarray, cards: np.ndarray, run: np.ndarray, out: np.ndarray
) -> None:
    """The network's inputs for the person (player 0) in one world at ``run``: only what the
    person knows of it (the next card's budget only when the deck shows it)."""
    valuenet.features(s, 0, out)
    at = valuenet.N_INPUTS
    columns = settings[solo.COLUMNS : solo.COLUMNS + 4]
    out[at] = AK.score(s, run[solo.RUN_WITH], run[solo.RUN_PRINTED], columns) / 50.0
    out[at + 1] = run[solo.RUN_WITH] / 10.0
    out[at + 2] = run[solo.RUN_PRINTED] / 20.0
    for i in range(4):
        out[at + 3 + i] = float(columns[i])
    out[at + 7] = 1.0 if settings[solo.TAKES_SPECIALS] != 0 else 0.0
    shows = settings[solo.SHOWS_NEXT] != 0
    out[at + 8] = 1.0 if shows else 0.0
    out[at + 9] = solo.CARD_BUDGET[cards[run[solo.CURSOR]]] / 10.0 if shows else 0.0


def inputs(state: State, world: solo.Worlds, out: np.ndarray | None = None) -> np.ndarray:
    """The network's inputs for the person in ``state`` at the start of ``world``'s first
    order (the same in every order the person cannot tell apart); written into ``out`` if
    given."""
    settings, cards = world.arrays
    run = np.zeros(3, dtype=np.int64)
    solo.start_run(settings, run)
    x = np.empty(N_INPUTS) if out is None else out
    features(state.vector, settings, cards[0], run, x)
    return x


@njit(cache=True)
def evaluate(
    s: np.ndarray,
    settings: np.ndarray,
    cards: np.ndarray,
    run: np.ndarray,
    net: tuple[np.ndarray, ...],
    x: np.ndarray,
    h1: np.ndarray,
    h2: np.ndarray,
) -> tuple[float, float]:
    """(chance the person wins, the person's margin) of a live solo position by the network."""
    features(s, settings, cards, run, x)
    return valuenet.forward(x, net, h1, h2)


WEIGHTS_FILE = Path(__file__).with_name("solo_value_weights.npz")


def load(path: Path | str = WEIGHTS_FILE) -> tuple[np.ndarray, ...]:
    """Solo value weights (``value.load``'s checks, for this network's inputs)."""
    return valuenet.load(path, N_INPUTS)


WEIGHTS = load()  # the package's, fitted to the searcher's solo games (docs/strength.md)
