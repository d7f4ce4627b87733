"""Regenerate tests/data/automa_golden.json (run by hand, never by the tests).

Each golden solo game is a seed, Automa's level and deck and the person's moves (picked by a
seeded RNG); the file keeps what the engine made of them: every turn of Automa (card, patch
taken or null for a pass, the filter that decided, where its token went, the income) and the
final scores. Once committed it is the expectation: regenerate it only for a deliberate,
reviewed change of the solo rules, never to make a failing test pass.

    python tests/data/make_automa_golden.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import patchwork as pw
from patchwork.engine.automa import Automa

OUT = Path(__file__).parent / "automa_golden.json"
GAMES = [(1, 1, "normal"), (2, 3, "normal"), (3, 5, "tactical"), (4, 4, "tactical")]


def turn_row(turn: object) -> list[object]:
    t = turn  # an engine.automa.Turn
    return [t.card, t.patch, t.decided_by, t.end, t.income, t.bonus, t.reshuffled]  # type: ignore[attr-defined]


def main() -> None:
    games = []
    for seed, level, deck in GAMES:
        rules = pw.Rules(solo=Automa(level=level, deck=deck))
        state = pw.new_game(seed=seed, rules=rules)
        rng = random.Random(seed)
        moves, turns = [], []
        while not state.is_terminal():
            legal = state.legal_moves()
            buys = [m for m in legal if not isinstance(m, pw.Advance)]
            move = rng.choice(buys) if buys and rng.random() < 0.7 else rng.choice(legal)
            turns.append([turn_row(t) for t in state.automa_replies(move)])
            moves.append(str(move))
            state = state.apply(move)
        games.append(
            {
                "seed": seed,
                "level": level,
                "deck": deck,
                "moves": moves,
                "automa_turns": turns,
                "scores": list(state.scores()),
                "winner": state.winner(),
                "end": state.to_text(),
            }
        )
    OUT.write_text(json.dumps(games, indent=1) + "\n", "utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
