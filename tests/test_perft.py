"""Perft-style checks from data files: replay each line's moves, then compare the state reached,
the number of legal moves and the number of positions two plies deep.

``perft.jsonl`` is the independent reference (a copy of ``reference/perft.jsonl``);
``perft_extra.jsonl`` adds rules combinations it lacks, computed by ``reference_model.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

import patchwork as pw
from helpers import find_buy, load_jsonl

LINES = [("perft.jsonl", i, d) for i, d in enumerate(load_jsonl("perft.jsonl"))] + [
    ("perft_extra.jsonl", i, d) for i, d in enumerate(load_jsonl("perft_extra.jsonl"))
]


def line_id(name: str, i: int, d: dict[str, Any]) -> str:
    r = d["rules"]
    orient = ("r" if r["rotation"] else "") + ("f" if r["flip"] else "") or "-"
    return f"{name.split('.')[0]}-{i}-{r['edition']}:{orient}-{len(d['moves'])}moves"


def replay(d: dict[str, Any]) -> pw.State:
    s = pw.new_game(
        circle=d["circle"], rules=pw.Rules(**d["rules"]), first_player=d["first_player"]
    )
    for n, (kind, *args) in enumerate(d["moves"], 1):
        if kind == "advance":
            move: pw.Move = pw.Advance()
        elif kind == "special":
            move = pw.PlaceSpecial(*args[0])
        else:
            assert kind == "buy", kind
            move = find_buy(s, args[0], args[1])
        assert s.is_legal(move), f"move {n} {move} is not legal"
        assert move in s.legal_moves(), f"move {n} {move} is not listed"
        s = s.apply(move)
    return s


def observed(s: pw.State) -> dict[str, Any]:
    p0, p1 = s.players
    return {
        "to_move": s.current_player,
        "buttons": [p0.buttons, p1.buttons],
        "positions": [p0.position, p1.position],
        "income": [p0.income, p1.income],
        "empty_squares": [p0.quilt.empty_squares, p1.quilt.empty_squares],
        "bonus_owner": s.bonus_owner,
        "offered": list(s.offered),
        "pending_specials": s.pending_specials,
        "terminal": s.is_terminal(),
        "scores": list(s.scores()),
        "winner": s.winner(),
        "circle": list(s.circle),
        "quilts": [sorted(map(list, p.quilt.squares)) for p in (p0, p1)],
    }


def perft2(s: pw.State) -> int:
    return sum(len(s.apply_code(int(c)).legal_move_codes()) for c in s.legal_move_codes())


@pytest.mark.parametrize(("name", "i", "d"), LINES, ids=[line_id(*line) for line in LINES])
def test_perft_line(name: str, i: int, d: dict[str, Any]) -> None:
    s = replay(d)
    got = observed(s)
    expected = d["state"]
    assert {k: got[k] for k in expected} == expected
    assert len(s.legal_moves()) == d["legal_moves"]
    if "perft2" in d:
        assert perft2(s) == d["perft2"]


def test_perft_data_covers_every_rules_combination_and_both_first_players() -> None:
    combos = {
        (d["rules"]["edition"], d["rules"]["rotation"], d["rules"]["flip"]) for *_, d in LINES
    }
    assert len(combos) >= 7
    assert {(r, f) for _, r, f in combos} == {
        (True, True),
        (True, False),
        (False, True),
        (False, False),
    }
    assert {e for e, *_ in combos} == {"revised", "original"}
    assert {d["first_player"] for *_, d in LINES} == {0, 1}
    assert len(load_jsonl("perft.jsonl")) == 24


def test_perft2_counts_terminal_children_as_zero() -> None:
    s = pw.State.from_text(
        "revised:rf 3,4 52,2,0,9/9/9/9/9/9/9/9/9 53,0,0,9/9/9/9/9/9/9/9/9 0 - 1 - -"
    )
    assert s.current_player == 0
    # Advance ends the game; each buy of patch 3 (time 2) also ends on 53 (0 legal moves).
    assert len(s.legal_moves()) == 1 + 126
    assert perft2(s) == 0
