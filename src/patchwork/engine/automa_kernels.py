"""Automa's turn as compiled kernels over the state vector: its rules, once.

``automa.play_turn`` (the game) and the AI's solo search (thousands of Automa turns a second)
both call these, so the card's budget and filters are judged in one place. A card enters as
plain numbers (budget, filter codes, income per mark): the deck itself is ``automa``'s.
Rule numbers and decisions (D1..) are those of docs/solo.md.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import data
from .kernels import BONUS_POINTS, _take_from_circle, income_due
from .layout import BONUS, BUTTONS, CIRCLE, CIRCLE_LEN, EDITION, FIRST, POSITION, SPECIALS, TOP
from .tables import PATCH_BUTTONS, PATCH_INCOME, PATCH_TIME, SPECIAL_SPACES

# The filters of rule 9, as the codes a card's filters are given in.
NO_OVERTAKE, MOST_BUTTONS, LARGEST, FURTHEST = 0, 1, 2, 3
NO_FILTER = -1
AUTOMA = 1  # Automa's index in the state vector; the person is 0
FINAL = data.FINAL_SPACE
PATCH_SIZE = np.array([len(p.cells) for p in data.PATCHES], dtype=np.int64)
# Automa's points by level (rule 17): which of SCORE_VALUES' columns each level counts.
BONUS_COLUMN, BUTTONS_COLUMN, WITH_BUTTONS_COLUMN, PRINTED_COLUMN = 0, 1, 2, 3


@njit(cache=True)
def keep(
    code: int,
    left: np.ndarray,
    n: int,
    offered: np.ndarray,
    n_offered: int,
    automa_pos: int,
    person_pos: int,
    out: np.ndarray,
) -> int:
    """One filter over the ``n`` patches ``left``: the patches it keeps, into ``out``."""
    kept = 0
    if code == NO_OVERTAKE:  # D2: landing on the person's space is not overtaking
        for i in range(n):
            if min(automa_pos + PATCH_TIME[left[i]], FINAL) <= person_pos:
                out[kept] = left[i]
                kept += 1
    elif code in (MOST_BUTTONS, LARGEST):
        values = PATCH_INCOME if code == MOST_BUTTONS else PATCH_SIZE
        most = -1
        for i in range(n):
            most = max(most, values[left[i]])
        for i in range(n):
            if values[left[i]] == most:
                out[kept] = left[i]
                kept += 1
    else:  # FURTHEST: the last clockwise of the offer, always exactly one
        best = -1
        for i in range(n):
            for j in range(n_offered):
                if offered[j] == left[i]:
                    best = max(best, j)
        out[0] = offered[best]
        kept = 1
    return kept


@njit(cache=True)
def choose(
    s: np.ndarray, budget: int, filters: np.ndarray, affordable: np.ndarray
) -> tuple[int, int, int]:
    """Rules 6-9 for a card of ``budget`` and ``filters`` (codes, NO_FILTER padded): fills
    ``affordable`` (in the offer's order) and returns (how many, the patch taken or -1, the
    filter code that decided or NO_FILTER)."""
    n_offered = min(data.OFFERED_PATCHES, s[CIRCLE_LEN])  # D4: fewer than three when fewer left
    offered = s[CIRCLE : CIRCLE + n_offered]
    n = 0
    for j in range(n_offered):
        if PATCH_BUTTONS[offered[j]] <= budget:
            affordable[n] = offered[j]
            n += 1
    if n == 0:
        return 0, -1, NO_FILTER  # case A: a pass
    if n == 1:
        return 1, affordable[0], NO_FILTER  # case B
    left = affordable[:n].copy()
    m = n
    kept = np.empty(data.OFFERED_PATCHES, dtype=np.int64)
    automa_pos = s[POSITION + AUTOMA]
    person_pos = s[POSITION]
    for f in filters:
        if f == NO_FILTER:
            continue
        k = keep(f, left, m, offered, n_offered, automa_pos, person_pos, kept)
        if k == 0:
            continue  # rule 9: a filter that would leave no patch is skipped
        if k == 1:
            return n, kept[0], f
        left[:k] = kept[:k]
        m = k
    # Every card with filters ends on FURTHEST, which leaves one; card 12 (budget 0) can
    # afford only patch 7, so this only guards a deck that would break that (D7).
    keep(FURTHEST, left, m, offered, n_offered, automa_pos, person_pos, kept)
    return n, kept[0], FURTHEST


@njit(cache=True)
def move(
    s: np.ndarray, patch: int, income: int, marker: int, takes_specials: bool
) -> tuple[int, bool, int]:
    """Rules 7, 10, 12 and 14 (and D1): Automa takes ``patch`` (-1: it passes), its token moves,
    the marks pay ``income`` each. Returns (buttons gained, whether it took the 7x7 tile,
    the bit mask of the special patches it took)."""
    start = s[POSITION + AUTOMA]
    person = s[POSITION]
    if patch < 0:  # rule 7: to just in front of the person, no buttons for the spaces
        target = min(person + 1, FINAL)
    else:  # rule 10: the neutral token moves to the patch's place
        for slot in range(s[CIRCLE_LEN]):
            if s[CIRCLE + slot] == patch:
                _take_from_circle(s, slot)
                break
        target = min(start + PATCH_TIME[patch], FINAL)
    gained = income_due(start, target, income)  # D3: per mark crossed
    s[BUTTONS + AUTOMA] += gained
    taken = 0
    if takes_specials:  # D1
        spaces = SPECIAL_SPACES[s[EDITION]]
        for i in range(len(spaces)):
            if (s[SPECIALS] >> i) & 1 and start < spaces[i] <= target:
                s[SPECIALS] &= ~(1 << i)
                taken |= 1 << i
    bonus = start < marker <= target and s[BONUS] < 0  # rule 14
    if bonus:
        s[BONUS] = AUTOMA
    s[POSITION + AUTOMA] = target
    if target == person:
        s[TOP] = AUTOMA
    if target == FINAL and s[FIRST] < 0:
        s[FIRST] = AUTOMA
    return gained, bonus, taken


@njit(cache=True)
def score_values(s: np.ndarray, with_buttons: int, printed: int) -> np.ndarray:
    """Rule 17's columns for Automa: the tile, its buttons, its patches with buttons, the
    buttons printed on its patches (a level counts some of them: ``score``)."""
    out = np.zeros(4, dtype=np.int64)
    out[BONUS_COLUMN] = BONUS_POINTS if s[BONUS] == AUTOMA else 0
    out[BUTTONS_COLUMN] = s[BUTTONS + AUTOMA]
    out[WITH_BUTTONS_COLUMN] = with_buttons
    out[PRINTED_COLUMN] = printed
    return out


@njit(cache=True)
def score(s: np.ndarray, with_buttons: int, printed: int, columns: np.ndarray) -> int:
    """Automa's points: the level's ``columns`` (0/1 per column of ``score_values``)."""
    return int(np.sum(score_values(s, with_buttons, printed) * columns))


@njit(cache=True)
def person_wins(person: int, automa: int, first: int) -> bool:
    """Rule 18: the person wins with strictly more points; a tie goes to the first to 53."""
    return person > automa or (person == automa and first == 0)
