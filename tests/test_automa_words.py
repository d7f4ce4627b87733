"""What the front ends say of Automa's choice is true (issue 35: "bought patch N, the largest it
could afford" when an earlier filter of the card had left a larger patch out, about one turn in
twenty). Checked against the engine's own turns in many random solo games."""

from __future__ import annotations

import random

import pytest

import patchwork as pw
from patchwork.engine import data
from patchwork.engine.automa import CARDS, Automa
from patchwork.tui import solo

# What a sentence that names one filter claims of the patch taken, among those it could afford.
CLAIMS = {
    "largest": lambda p: len(data.PATCHES[p].cells),
    "most_buttons": lambda p: data.PATCHES[p].income,
}


def turns(games: int, seed: int) -> list[pw.engine.automa.Turn]:
    rng = random.Random(seed)
    found = []
    for g in range(games):
        rules = pw.Rules(
            solo=Automa(level=rng.randint(1, 5), deck=rng.choice(["normal", "tactical"]))
        )
        state = pw.new_game(seed=seed * 1000 + g, rules=rules, automa_seed=g)
        while not state.is_terminal():
            move = rng.choice(state.legal_moves())
            found += state.automa_replies(move)
            state = state.apply(move)
    return found


@pytest.mark.parametrize("seed", [1, 2])
def test_what_is_said_of_automas_choice_is_true(seed: int) -> None:
    seen = {"one filter": 0, "a chain": 0}
    for turn in turns(12, seed):
        if turn.patch is None or turn.decided_by is None:
            continue
        text = " ".join(solo.turn_lines(turn))
        filters = CARDS[turn.card].filters
        assert turn.filters_used == filters[: filters.index(turn.decided_by) + 1]
        if filters.index(turn.decided_by) == 0:
            seen["one filter"] += 1
            key = CLAIMS.get(turn.decided_by)
            if key is not None:  # "the largest / the most buttons it could afford": true
                assert key(turn.patch) == max(key(p) for p in turn.affordable), (turn, text)
        else:
            seen["a chain"] += 1
            assert "it could afford." not in text, (turn, text)
            assert "the one its card's filters left" in text, text
    assert seen["one filter"] > 20 and seen["a chain"] > 5, seen
