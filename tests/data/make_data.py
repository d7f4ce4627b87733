"""Regenerate the test data that this suite owns (run by hand, never by the tests).

    python tests/data/make_data.py perft-extra   # tests/data/perft_extra.jsonl
    python tests/data/make_data.py golden        # tests/data/golden/*

``perft-extra`` lines are computed by ``tests/reference_model.py`` alone (not by the engine),
for rules combinations that ``perft.jsonl`` (the independent reference) does not cover.

``golden`` games are played by the engine with fixed seeds; each one is also replayed through
the reference model, and the files are written only if both agree after every move. Once
committed, golden files are the expectation: regenerate them only for a deliberate, reviewed
change of the rules or the formats, never to make a failing test pass.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

import patchwork as pw  # noqa: E402
from helpers import rules_id  # noqa: E402
from reference_model import Key, Model, key_of, squares_of_mask  # noqa: E402

# (rules, first player, standard-setup seed, plies to play, note)
EXTRA = [
    (pw.Rules("revised", rotation=False, flip=True), 0, 101, 0, "flip only: opening"),
    (pw.Rules("revised", rotation=False, flip=True), 0, 102, 12, "flip only"),
    (pw.Rules("original", rotation=False, flip=True), 1, 103, 25, "flip only, original"),
    (pw.Rules("original", rotation=False, flip=True), 0, 104, None, "flip only, to the end"),
    (pw.Rules("revised", rotation=True, flip=False), 1, 105, 9, "rotation only, revised"),
    (pw.Rules("original", rotation=False, flip=False), 0, 106, 20, "no turns, original"),
    (pw.Rules("original", rotation=True, flip=True), 0, 107, 33, "original, late game"),
    (pw.Rules("revised", rotation=True, flip=True), 1, 108, 14, "revised, player 1 starts"),
]


def model_state(m: Model) -> dict[str, object]:
    return {
        "to_move": m.to_move(),
        "buttons": list(m.buttons),
        "positions": list(m.position),
        "income": list(m.income),
        "empty_squares": [m.empty(0), m.empty(1)],
        "bonus_owner": m.bonus,
        "offered": m.offered(),
        "pending_specials": m.pending,
        "terminal": m.terminal(),
        "scores": [m.score(0), m.score(1)],
        "winner": m.winner(),
        "circle": list(m.circle),
        "quilts": [sorted(map(list, squares_of_mask(q))) for q in m.quilt],
    }


def move_json(move: Key) -> list[object]:
    if move[0] == "A":
        return ["advance"]
    if move[0] == "S":
        return ["special", [move[1], move[2]]]
    return ["buy", move[1], sorted(map(list, squares_of_mask(move[2])))]  # type: ignore[arg-type]


def perft_extra() -> None:
    lines = []
    for rules, first, seed, plies, note in EXTRA:
        circle = pw.standard_circle(seed)
        m = Model.new(circle, rules.edition, rules.rotation, rules.flip, first)
        rng = random.Random(seed)
        moves = []
        while not m.terminal() and (plies is None or len(moves) < plies):
            move = rng.choice(m.legal())
            moves.append(move_json(move))
            m.play(move)
        legal = m.legal()
        perft2 = 0
        for move in legal:
            child = m.copy()
            child.play(move)
            perft2 += len(child.legal())
        lines.append(
            {
                "rules": rules.to_dict(),
                "circle": circle,
                "first_player": first,
                "moves": moves,
                "legal_moves": len(legal),
                "perft2": perft2,
                "note": f"{note} (tests/reference_model.py, {rules_id(rules)})",
                "state": model_state(m),
            }
        )
    text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
    (HERE / "perft_extra.jsonl").write_text(text, "utf-8")


# (name, rules, first player, seed, policy)
GOLDEN = [
    ("revised_rf", pw.Rules("revised", True, True), 0, 2024, "random"),
    ("original_rf", pw.Rules("original", True, True), 1, 17, "packer"),
    ("revised_no_turns", pw.Rules("revised", False, False), 0, 7, "packer"),
    ("original_rotation_only", pw.Rules("original", True, False), 1, 42, "random"),
    ("revised_flip_only", pw.Rules("revised", False, True), 0, 24, "packer"),
]


def packer(moves: list[pw.Move], rng: random.Random) -> pw.Move:
    """Buy the biggest affordable patch and pack it into the top-left corner."""
    if isinstance(moves[0], pw.PlaceSpecial):
        return min(moves, key=lambda m: (m.row + m.col, str(m)))  # type: ignore[attr-defined]
    buys = [m for m in moves if isinstance(m, pw.Buy)]
    if not buys or rng.random() < 0.1:
        return moves[0]
    biggest = max(len(m.squares) for m in buys)
    return min(
        (m for m in buys if len(m.squares) == biggest),
        key=lambda m: (max(max(r, c) for r, c in m.squares), sum(r + c for r, c in m.squares)),
    )


def golden() -> None:
    out = HERE / "golden"
    out.mkdir(exist_ok=True)
    for name, rules, first, seed, policy in GOLDEN:
        rng = random.Random(seed)
        game = pw.Game(pw.new_game(seed=seed, rules=rules, first_player=first))
        s = game.state
        model = Model.new(list(s.circle), rules.edition, rules.rotation, rules.flip, first)
        positions = [s.to_text()]
        while not game.state.is_terminal():
            moves = game.state.legal_moves()
            assert sorted(map(key_of, moves), key=repr) == sorted(model.legal(), key=repr)
            move = rng.choice(moves) if policy == "random" else packer(moves, rng)
            game.push(move)
            model.play(key_of(move))
            positions.append(game.state.to_text())
        end = game.state
        assert end.scores() == (model.score(0), model.score(1))
        assert end.winner() == model.winner()
        record = game.to_record(
            players=(f"{policy} A", f"{policy} B"), event=f"golden {name}", date="2026-01-01"
        )
        record.save(out / f"{name}.json")
        record.save(out / f"{name}.txt")
        (out / f"{name}.positions").write_text("\n".join(positions) + "\n", "utf-8")
        print(name, len(game), end.scores(), "winner", end.winner(), "bonus", end.bonus_owner)


if __name__ == "__main__":
    {"perft-extra": perft_extra, "golden": golden}[sys.argv[1]]()
