"""Shared helpers for the engine tests: data paths, rules combinations, random legal games."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import patchwork as pw

DATA = Path(__file__).parent / "data"
EDITIONS = ("revised", "original")
ALL_RULES = tuple(
    pw.Rules(edition, rotation, flip)
    for edition in EDITIONS
    for rotation in (True, False)
    for flip in (True, False)
)
DEFAULT_RULES = pw.Rules()
EMPTY_QUILT = "9/9/9/9/9/9/9/9/9"
FULL_QUILT = "/".join(["xxxxxxxxx"] * 9)


def rules_id(rules: pw.Rules) -> str:
    orient = ("r" if rules.rotation else "") + ("f" if rules.flip else "")
    return f"{rules.edition}:{orient or '-'}"


def circle_starting(*first: int) -> list[int]:
    """A standard-shaped circle whose first patches offered are ``first`` (patch 0 last
    unless it is named)."""
    rest = [i for i in range(1, 33) if i not in first]
    tail = [] if 0 in first else [0]
    return [*first, *rest, *tail]


def position(
    p0: str,
    p1: str,
    *,
    rules: str = "revised:rf",
    circle: str | None = None,
    top: int = 0,
    bonus: str = "-",
    first: str = "-",
    pending: str = "-",
    specials: str | None = None,
) -> pw.State:
    """A state from position-text fields (each player as ``position,buttons,income,quilt``).

    ``specials`` defaults to the special patches no token has reached yet.
    """
    circle = circle if circle is not None else ",".join(str(i) for i in circle_starting())
    if specials is None:
        ahead = max(int(p0.split(",")[0]), int(p1.split(",")[0]))
        edition = pw.Rules(edition=rules.split(":")[0]).special_spaces
        specials = ",".join(str(s) for s in edition if s > ahead) or "-"
    return pw.State.from_text(
        f"{rules} {circle} {p0} {p1} {top} {bonus} {first} {pending} {specials}"
    )


def find_buy(state: pw.State, patch: int, squares: object) -> pw.Buy:
    """The legal buy of ``patch`` covering exactly ``squares`` (as (row, col) pairs)."""
    want = frozenset((int(r), int(c)) for r, c in squares)  # type: ignore[attr-defined]
    for move in state.legal_moves():
        if isinstance(move, pw.Buy) and move.patch_id == patch and move.squares == want:
            return move
    raise AssertionError(f"no legal buy of patch {patch} covering {sorted(want)}")


def buys_of(state: pw.State, patch: int) -> list[pw.Buy]:
    return [m for m in state.legal_moves() if isinstance(m, pw.Buy) and m.patch_id == patch]


@dataclass(frozen=True)
class Ply:
    before: pw.State
    move: pw.Move
    after: pw.State


def random_plies(
    seed: int,
    rules: pw.Rules = DEFAULT_RULES,
    first_player: int = 0,
    rng: random.Random | None = None,
    max_plies: int | None = None,
) -> Iterator[Ply]:
    """The plies of a uniformly random legal game from the standard setup of ``seed``."""
    rng = rng if rng is not None else random.Random(seed)
    state = pw.new_game(seed=seed, rules=rules, first_player=first_player)
    n = 0
    while not state.is_terminal() and (max_plies is None or n < max_plies):
        move = rng.choice(state.legal_moves())
        after = state.apply(move)
        yield Ply(state, move, after)
        state = after
        n += 1


def random_game(
    seed: int, rules: pw.Rules = DEFAULT_RULES, first_player: int = 0, **kw: Any
) -> pw.Game:
    plies = list(random_plies(seed, rules, first_player, **kw))
    game = pw.Game(pw.new_game(seed=seed, rules=rules, first_player=first_player))
    for ply in plies:
        game.push(ply.move)
    return game


def load_jsonl(name: str) -> list[dict[str, Any]]:
    lines = (DATA / name).read_text("utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]
