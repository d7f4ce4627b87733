"""The official solo mode: Automa's turn, its deck and its score (shared/reference/automa.md).

Automa is player 1 of the kernels' state vector: its time token, its collected buttons and
the bonus tile live there like a player's (its income and quilt stay 0 and empty). What the
vector cannot hold is the deck and Automa's piles: they are a ``Solo`` value beside it.
Automa decides a handful of times a game, so its turn is plain Python over the vector; the
two-player kernels are untouched (and as fast as before). ``State`` calls ``automa_turn``
after each move of the person while Automa is to move.

Decisions where the rulebook is silent are named D1.. as in the reference; the numbered rules
are cited as "rule N".
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

from . import automa_kernels as AK
from . import data
from . import layout as L
from .errors import InvalidSetupError

NO_OVERTAKE = "no_overtake"
MOST_BUTTONS = "most_buttons"
LARGEST = "largest"
FURTHEST = "furthest"
FILTERS = (NO_OVERTAKE, MOST_BUTTONS, LARGEST, FURTHEST)
DECKS = ("normal", "tactical")
AUTOMA = 1  # Automa's index in the state vector; the person is 0


@dataclass(frozen=True, slots=True)
class Card:
    """One Automa card: ``budget`` virtual buttons, ``filters`` top to bottom, ``income``
    paid per income space crossed (rule 12)."""

    number: int
    deck: str
    budget: int
    filters: tuple[str, ...]
    income: int


@dataclass(frozen=True, slots=True)
class Level:
    level: int
    name: str
    marker_distance: int  # the 7x7 marker lies this many spaces before the final space
    scores: tuple[str, ...]  # the columns of rule 17 this level counts

    @property
    def marker(self) -> int:
        return data.FINAL_SPACE - self.marker_distance


def _load() -> dict[str, Any]:
    text = resources.files("patchwork.engine").joinpath("data", "automa.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


_DATA = _load()
CARDS: dict[int, Card] = {
    c["number"]: Card(c["number"], c["deck"], c["budget"], tuple(c["filters"]), c["income"])
    for c in _DATA["cards"]
}
LEVELS: dict[int, Level] = {
    lv["level"]: Level(lv["level"], lv["name"], lv["marker_distance"], tuple(lv["scores"]))
    for lv in _DATA["levels"]
}
SETUP_DISCARDS: int = _DATA["setup_discards"]


def deck_cards(deck: str) -> tuple[int, ...]:
    return tuple(n for n, c in CARDS.items() if c.deck == deck)


@dataclass(frozen=True, slots=True)
class Automa:
    """The solo rules option: Automa's ``level`` (1-5), its ``deck`` ("normal" or
    "tactical") and D1 ``takes_specials`` (whether it takes the special patches it passes)."""

    level: int = 1
    deck: str = "normal"
    takes_specials: bool = False

    def __post_init__(self) -> None:
        # (A list or an object from a record is no level either: checked before the look-up.)
        if not isinstance(self.level, int) or isinstance(self.level, bool):
            raise InvalidSetupError(f"Automa's level must be 1-5, not {self.level!r}")
        if self.level not in LEVELS:
            raise InvalidSetupError(f"Automa's level must be 1-5, not {self.level!r}")
        if not isinstance(self.deck, str) or self.deck not in DECKS:
            raise InvalidSetupError(f"Automa's deck must be normal or tactical, not {self.deck!r}")
        if not isinstance(self.takes_specials, bool):
            raise InvalidSetupError("takes_specials must be True or False")

    @property
    def marker(self) -> int:
        """The space of the 7x7 marker (rule 3)."""
        return LEVELS[self.level].marker

    def to_dict(self) -> dict[str, object]:
        return {"level": self.level, "deck": self.deck, "takes_specials": self.takes_specials}

    @classmethod
    def from_dict(cls, d: object) -> Automa:
        if not isinstance(d, dict) or not set(d) <= {"level", "deck", "takes_specials"}:
            raise InvalidSetupError("solo must be an object with level, deck and takes_specials")
        return cls(**d)


SPECIAL = -1  # a special patch in Automa's pile without buttons (D1 with takes_specials)


@dataclass(frozen=True, slots=True)
class Solo:
    """What a solo game holds beside the state vector.

    Public: Automa's two piles (``with_buttons``, ``without_buttons``: patch ids in the order
    taken, SPECIAL for a special patch) and ``played``, the card just played (None before
    Automa's first turn). Hidden (D6): ``deck`` (top first), ``discard`` (bottom first, the two
    unseen setup cards first until the first reshuffle), ``seed`` and ``shuffles`` (how many
    reshuffles so far), which decide every later reshuffle. Front ends read ``AutomaView``.
    """

    with_buttons: tuple[int, ...]
    without_buttons: tuple[int, ...]
    played: int | None
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    seed: int
    shuffles: int


def shuffled(cards: tuple[int, ...], seed: int, shuffle: int) -> tuple[int, ...]:
    """Shuffle number ``shuffle`` (0 at setup) of a game whose deck seed is ``seed``."""
    order = sorted(cards)
    random.Random(f"automa:{seed}:{shuffle}").shuffle(order)
    return tuple(order)


def new_solo(automa: Automa, seed: int) -> Solo:
    """Rule 2: shuffle the chosen deck and discard the top two unseen."""
    order = shuffled(deck_cards(automa.deck), seed, 0)
    return Solo((), (), None, order[SETUP_DISCARDS:], order[:SETUP_DISCARDS], seed, 0)


def deck_seed(seed: object) -> int:
    """The deck seed a game seed gives (a fresh random one for None)."""
    if seed is None:
        return random.SystemRandom().randrange(2**32)
    return random.Random(f"automa-deck:{seed!r}").randrange(2**32)


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of Automa, as the person sees it: the card, the patches it could afford,
    the patch taken (None: it passed), the filter that decided (None: case B, or a pass),
    where its token went, the income and whether it took the 7x7 tile at the marker."""

    card: int
    affordable: tuple[int, ...]
    patch: int | None
    decided_by: str | None
    start: int
    end: int
    income: int
    bonus: bool
    reshuffled: bool
    specials: int  # special patches it took on the way (D1 with takes_specials)

    @property
    def budget(self) -> int:
        return CARDS[self.card].budget

    @property
    def filters_used(self) -> tuple[str, ...]:
        """The card's filters the choice went through (rule 9), the deciding one last; empty
        when none decided. A filter before the deciding one may have left a patch out, so
        what is said of the choice names them all, not the last alone."""
        if self.decided_by is None:
            return ()
        filters = CARDS[self.card].filters
        if self.decided_by not in filters:  # (D7: FURTHEST as the last resort)
            return (*filters, self.decided_by)
        return filters[: filters.index(self.decided_by) + 1]


FILTER_CODES = {
    NO_OVERTAKE: AK.NO_OVERTAKE,
    MOST_BUTTONS: AK.MOST_BUTTONS,
    LARGEST: AK.LARGEST,
    FURTHEST: AK.FURTHEST,
}
FILTER_NAMES = {code: name for name, code in FILTER_CODES.items()}
SCORE_COLUMNS = ("bonus", "buttons", "patches_with_buttons", "printed_buttons")  # rule 17


def filter_codes(card: Card) -> np.ndarray:
    """A card's filters as the kernels' codes, padded to three."""
    codes = [FILTER_CODES[f] for f in card.filters]
    return np.array(codes + [AK.NO_FILTER] * (3 - len(codes)), dtype=np.int64)


def choose(
    offered: tuple[int, ...], card: Card, automa_pos: int, person_pos: int
) -> tuple[tuple[int, ...], int | None, str | None]:
    """Rules 6-9: (affordable patches, the patch taken or None, the filter that decided)."""
    v = np.full(L.STATE_SIZE, -1, dtype=np.int64)
    v[L.CIRCLE : L.CIRCLE + len(offered)] = offered
    v[L.CIRCLE_LEN] = len(offered)
    v[L.POSITION], v[L.POSITION + AUTOMA] = person_pos, automa_pos
    return _chosen(v, card)


def _chosen(v: np.ndarray, card: Card) -> tuple[tuple[int, ...], int | None, str | None]:
    out = np.empty(data.OFFERED_PATCHES, dtype=np.int64)
    n, patch, code = AK.choose(v, card.budget, filter_codes(card), out)
    return (
        tuple(int(p) for p in out[:n]),
        None if patch < 0 else int(patch),
        FILTER_NAMES.get(int(code)),
    )


def _filter(
    name: str, left: list[int], offered: tuple[int, ...], automa_pos: int, person_pos: int
) -> list[int]:
    """One filter of rule 9 on the patches ``left`` of the offer (what ``choose`` applies)."""
    out = np.empty(data.OFFERED_PATCHES, dtype=np.int64)
    k = AK.keep(
        FILTER_CODES[name],
        np.array(left, dtype=np.int64),
        len(left),
        np.array(offered, dtype=np.int64),
        len(offered),
        automa_pos,
        person_pos,
        out,
    )
    return [int(p) for p in out[:k]]


def play_turn(
    v: np.ndarray, solo: Solo, automa: Automa, specials: tuple[int, ...]
) -> tuple[Solo, Turn]:
    """Rules 5-12, 14 and 15: Automa's turn, played on the vector ``v`` in place; the new
    ``Solo`` and what happened. (``specials`` is the edition's special-patch spaces.)"""
    card_number, deck = solo.deck[0], solo.deck[1:]
    card = CARDS[card_number]
    start = int(v[L.POSITION + AUTOMA])
    affordable, patch, decided_by = _chosen(v, card)
    income, bonus, taken = AK.move(
        v, -1 if patch is None else patch, card.income, automa.marker, automa.takes_specials
    )
    with_buttons, without_buttons = solo.with_buttons, solo.without_buttons
    if patch is not None:
        if data.PATCHES[patch].income >= 1:  # D5
            with_buttons += (patch,)
        else:
            without_buttons += (patch,)
    n_taken = bin(int(taken)).count("1")
    without_buttons += (SPECIAL,) * n_taken
    discard = (*solo.discard, card_number)  # rule 11
    shuffles = solo.shuffles
    reshuffled = not deck
    if reshuffled:  # rule 15: the whole discard pile, the two setup cards too
        shuffles += 1
        deck, discard = shuffled(discard, solo.seed, shuffles), ()
    new = Solo(with_buttons, without_buttons, card_number, deck, discard, solo.seed, shuffles)
    end = int(v[L.POSITION + AUTOMA])
    turn = Turn(
        card_number,
        affordable,
        patch,
        decided_by,
        start,
        end,
        int(income),
        bool(bonus),
        reshuffled,
        n_taken,
    )
    return new, turn


def pile_counts(solo: Solo) -> tuple[int, int]:
    """(patches in the with-buttons pile, buttons printed on all its patches): what rule 17
    counts of Automa's piles."""
    printed = sum(data.PATCHES[p].income for p in (*solo.with_buttons, *solo.without_buttons)
                  if p != SPECIAL)  # fmt: skip
    return len(solo.with_buttons), printed


def level_columns(automa: Automa) -> np.ndarray:
    """The level's columns of rule 17 as 0/1 flags in ``SCORE_COLUMNS``' order."""
    counted = LEVELS[automa.level].scores
    return np.array([name in counted for name in SCORE_COLUMNS], dtype=np.int64)


def score_parts(v: np.ndarray, solo: Solo, automa: Automa) -> dict[str, int]:
    """Rule 17: Automa's points by the level's columns (only those the level counts)."""
    values = AK.score_values(v, *pile_counts(solo))
    counted = LEVELS[automa.level].scores
    return {name: int(values[i]) for i, name in enumerate(SCORE_COLUMNS) if name in counted}


@dataclass(frozen=True, slots=True)
class AutomaView:
    """What the person may know of Automa (D6): everything but the deck's order. With the
    tactical deck ``next_budget`` is the budget on the top card's back; else None."""

    level: int
    level_name: str
    deck: str
    marker: int | None  # the 7x7 marker's space while it lies on the time board
    position: int
    buttons: int
    with_buttons: tuple[int, ...]
    without_buttons: tuple[int, ...]
    played: int | None
    next_budget: int | None
    cards_in_deck: int
    cards_seen: tuple[int, ...]  # the played cards face up on the discard pile, bottom first
    score_parts: tuple[tuple[str, int], ...]

    @property
    def card(self) -> Card | None:
        return None if self.played is None else CARDS[self.played]

    @property
    def unseen(self) -> tuple[int, ...]:
        """The deck's cards not seen face up since the last shuffle: the deck and, before the
        first reshuffle, the two setup discards, in an order the person cannot know."""
        seen = set(self.cards_seen)
        return tuple(c for c in deck_cards(self.deck) if c not in seen)


def view(v: np.ndarray, solo: Solo, automa: Automa) -> AutomaView:
    position = int(v[L.POSITION + AUTOMA])
    unseen = SETUP_DISCARDS if solo.shuffles == 0 else 0
    return AutomaView(
        level=automa.level,
        level_name=LEVELS[automa.level].name,
        deck=automa.deck,
        marker=automa.marker if position < automa.marker else None,
        position=position,
        buttons=int(v[L.BUTTONS + AUTOMA]),
        with_buttons=solo.with_buttons,
        without_buttons=solo.without_buttons,
        played=solo.played,
        next_budget=CARDS[solo.deck[0]].budget if automa.deck == "tactical" else None,
        cards_in_deck=len(solo.deck),
        cards_seen=solo.discard[unseen:],
        score_parts=tuple(score_parts(v, solo, automa).items()),
    )


def sample_hidden(view: AutomaView, rng: random.Random) -> Solo:
    """A private part drawn uniformly from those consistent with what the person knows.

    What a searcher (or an engine given a position without the deck) may believe: the cards
    not yet seen face up since the last shuffle, in a random order, split into the deck and,
    before the first reshuffle, the two unseen setup discards; with the tactical deck the top
    card's budget is the one on its back (rule 16). Later reshuffles follow a fresh seed.
    """
    unseen = list(view.unseen)
    rng.shuffle(unseen)
    if view.next_budget is not None:  # the top card must show the budget on its back
        tops = [i for i, c in enumerate(unseen) if CARDS[c].budget == view.next_budget]
        if not tops:
            raise InvalidSetupError(f"no unseen card has the budget {view.next_budget}")
        top = rng.choice(tops)
        unseen[0], unseen[top] = unseen[top], unseen[0]
    n = view.cards_in_deck
    deck, setup = tuple(unseen[:n]), tuple(unseen[n:])  # the rest: the unseen discards
    return Solo(
        view.with_buttons,
        view.without_buttons,
        view.played,
        deck,
        (*setup, *view.cards_seen),
        rng.randrange(2**32),
        0 if setup else 1,
    )


def hidden_part(state: Any) -> Solo | None:
    """The private part of a solo ``State`` (None in a two-player game), for the engine's
    own satellites (position text, records) only: front ends read ``State.automa`` (D6)."""
    solo: Solo | None = state._solo
    return solo
