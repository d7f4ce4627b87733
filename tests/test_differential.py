"""The engine against ``reference_model.py``, a second plain implementation of RULES.md: after
every move of many games the two must agree on the whole state and on the set of legal moves."""

from __future__ import annotations

import random

import pytest

import patchwork as pw
from helpers import ALL_RULES, rules_id
from reference_model import Key, Model, key_of, mask_of

_KEYS: dict[pw.Move, Key] = {}


def key(move: pw.Move) -> Key:
    k = _KEYS.get(move)
    if k is None:
        k = _KEYS[move] = key_of(move)
    return k


def model_from_state(s: pw.State) -> Model:
    return Model(
        edition=s.rules.edition,
        rotation=s.rules.rotation,
        flip=s.rules.flip,
        circle=list(s.circle),
        position=[p.position for p in s.players],
        buttons=[p.buttons for p in s.players],
        income=[p.income for p in s.players],
        quilt=[mask_of(p.quilt.squares) for p in s.players],
        top=s.on_top,
        bonus=s.bonus_owner,
        first=s.first_to_finish,
        pending=s.pending_specials,
        pending_player=s.current_player if s.pending_specials else 0,
        specials_left=list(s.special_spaces_left),
    )


def assert_same(s: pw.State, m: Model, where: str) -> None:
    p0, p1 = s.players
    engine = {
        "to_move": s.current_player,
        "buttons": [p0.buttons, p1.buttons],
        "positions": [p0.position, p1.position],
        "income": [p0.income, p1.income],
        "quilts": [mask_of(p0.quilt.squares), mask_of(p1.quilt.squares)],
        "on_top": s.on_top,
        "bonus": s.bonus_owner,
        "first": s.first_to_finish,
        "pending": s.pending_specials,
        "circle": list(s.circle),
        "specials_left": list(s.special_spaces_left),
        "terminal": s.is_terminal(),
        "scores": list(s.scores()),
        "winner": s.winner(),
    }
    model = {
        "to_move": m.to_move(),
        "buttons": m.buttons,
        "positions": m.position,
        "income": m.income,
        "quilts": m.quilt,
        "on_top": m.top,
        "bonus": m.bonus,
        "first": m.first,
        "pending": m.pending,
        "circle": m.circle,
        "specials_left": m.specials_left,
        "terminal": m.terminal(),
        "scores": [m.score(0), m.score(1)],
        "winner": m.winner(),
    }
    assert engine == model, where
    moves = s.legal_moves()
    keys = [key(x) for x in moves]
    assert len(set(keys)) == len(keys), f"{where}: a footprint is listed twice"
    assert set(keys) == set(m.legal()), where


def packer(moves: list[pw.Move], rng: random.Random) -> pw.Move:
    """Mostly buys, packed into a corner: fills quilts, so the bonus and full boards happen."""
    if isinstance(moves[0], pw.PlaceSpecial) or rng.random() < 0.3:
        return rng.choice(moves)
    buys = [x for x in moves if isinstance(x, pw.Buy)]
    if not buys:
        return moves[0]
    patch = rng.choice(sorted({b.patch_id for b in buys}))
    return min(
        (b for b in buys if b.patch_id == patch),
        key=lambda b: sum(max(r, c) for r, c in b.squares),
    )


def play_both(s: pw.State, rng: random.Random, policy: str, where: str) -> pw.State:
    m = model_from_state(s)
    ply = 0
    while True:
        assert_same(s, m, f"{where} ply {ply}")
        if s.is_terminal():
            return s
        moves = s.legal_moves()
        move = rng.choice(moves) if policy == "uniform" else packer(moves, rng)
        s = s.apply(move)
        m.play(key(move))
        ply += 1


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
@pytest.mark.parametrize("policy", ["uniform", "packer"])
def test_random_games_agree_with_the_reference_model(rules: pw.Rules, policy: str) -> None:
    for seed in range(3):
        first = seed % 2
        rng = random.Random(f"{rules_id(rules)} {policy} {seed}")
        s = pw.new_game(seed=seed, rules=rules, first_player=first)
        end = play_both(s, rng, policy, f"seed {seed}")
        assert end.is_terminal()


def random_quilt(rng: random.Random, density: float) -> str:
    rows = []
    for _ in range(9):
        row, run = "", 0
        for _ in range(9):
            if rng.random() < density:
                row += (str(run) if run else "") + "x"
                run = 0
            else:
                run += 1
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows)


def random_position(rng: random.Random) -> pw.State:
    """A varied, rule-abiding-enough position: crowded quilts, rich players, late tokens."""
    rules = rng.choice(ALL_RULES)
    circle = rng.sample(range(33), rng.randint(0, 33))
    positions = [rng.randint(0, 53), rng.randint(0, 53)]
    if positions == [53, 53]:
        positions[rng.randrange(2)] = rng.randint(30, 52)
    first = next((str(p) for p in (0, 1) if positions[p] == 53), "-")
    players = [
        f"{positions[p]},{rng.randint(0, 40)},{rng.randint(0, 20)},"
        f"{random_quilt(rng, rng.choice([0.0, 0.5, 0.8, 0.95, 1.0]))}"
        for p in (0, 1)
    ]
    orient = ("r" if rules.rotation else "") + ("f" if rules.flip else "") or "-"
    text = " ".join(
        [
            f"{rules.edition}:{orient}",
            ",".join(map(str, circle)) or "-",
            *players,
            str(rng.randrange(2)),
            "-",
            first,
            "-",
            ",".join(str(x) for x in rules.special_spaces if rng.random() < 0.5) or "-",
        ]
    )
    return pw.State.from_text(text)


@pytest.mark.parametrize("batch", range(4))
def test_games_from_crowded_positions_agree_with_the_reference_model(batch: int) -> None:
    rng = random.Random(batch)
    for n in range(15):
        s = random_position(rng)
        play_both(s, rng, rng.choice(["uniform", "packer"]), f"batch {batch} game {n}: {s!r}")
