"""benchmarks/solo_pairs.py: two solo records compared on the setups both played."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from benchmarks.solo_pairs import main

import patchwork as pw
from patchwork.engine.automa import Automa
from patchwork.engine.data import BONUS_POINTS, EMPTY_PENALTY


def record(path: Path, games: list[tuple[int, str, int, int, int]], **fields: object) -> Path:
    """A record as solo_automa.py writes one: (setup seed, deck, level, person, automa) a game."""
    rows = [
        {"level": level, "deck": deck, "seed": seed, "person": p, "automa": a, "won": p > a,
         "moves": []}
        for seed, deck, level, p, a in games
    ]  # fmt: skip
    kept = {"iterations": 2000, "time": None, "agent": "mcts", "peek": False, "seed": 1}
    path.write_text(json.dumps({**kept, **fields, "games": rows}))
    return path


def test_pairs_the_setups_both_played_and_counts_the_games_only_one_won(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = record(tmp_path / "a.json", [(1, "normal", 5, 30, 20), (2, "normal", 5, 10, 20),
                                     (3, "normal", 5, 25, 20), (9, "normal", 5, 50, 0)],
               agent="mcts@worlds=256")  # fmt: skip
    b = record(tmp_path / "b.json", [(1, "normal", 5, 10, 20), (2, "normal", 5, 30, 20),
                                     (3, "normal", 5, 21, 20), (4, "tactical", 4, 40, 20)],
               time=1.0)  # fmt: skip
    assert main([str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "A: mcts@worlds=256 at 2000 it, seed 1" in out
    assert "B: mcts at 1 s, seed 1" in out
    # Setups 1-3 are shared (9 and 4 are not): A won 1 and 3, B won 2 and 3; margins
    # A - B: +20, -20, +4: a mean of +1.33, a deviation of 20.1, an error of 20.1 / sqrt(3).
    assert "| 5 Legend | normal | 3 | 66.7%, +1.7 | 66.7%, +0.3 | 1 | 1 | +1.33 ± 11.62 |" in out
    assert "tactical" not in out


def test_a_file_that_is_no_record_is_refused_with_what_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = record(tmp_path / "good.json", [(1, "normal", 5, 30, 20)])
    text = tmp_path / "notes.txt"
    text.write_text("not a record")
    wrong_level = record(tmp_path / "level9.json", [(1, "normal", 9, 30, 20)])
    no_games = tmp_path / "list.json"
    no_games.write_text("[1, 2]")
    for bad, said in [
        (tmp_path / "missing.json", "cannot be read"),
        (text, "not JSON"),
        (no_games, "no list of games"),
        (wrong_level, "game 0 lacks a level, deck, seed, person, automa or won of its kind"),
    ]:
        assert main([str(good), str(bad)]) == 2
        assert said in capsys.readouterr().err
    other = record(tmp_path / "other.json", [(2, "normal", 5, 30, 20)])
    assert main([str(good), str(other)]) == 1
    assert "share no setup" in capsys.readouterr().err


def played(seed: int) -> dict[str, Any]:
    """A real solo game against Legend (random legal moves), as solo_automa.py records one."""
    rng = random.Random(seed)
    state = pw.new_game(seed=seed, rules=pw.Rules(solo=Automa(5, "normal")))
    moves = []
    while not state.is_terminal():
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.apply(move)
    person, automa = state.scores()
    return {"level": 5, "deck": "normal", "seed": seed, "person": person, "automa": automa,
            "won": state.winner() == 0, "moves": moves}  # fmt: skip


def test_parts_replay_the_games_into_the_parts_of_both_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = played(11)
    kept = {"iterations": 2000, "time": None, "agent": "mcts", "peek": False, "seed": 1}
    a = tmp_path / "a.json"
    a.write_text(json.dumps({**kept, "games": [game]}))
    assert main([str(a), str(a), "--parts"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if "| A |" in line]
    assert len(rows) == 1
    cells = [float(c) for c in rows[0].strip("| ").split(" | ")[3:]]
    buttons, with_buttons, printed, automa_tile, person_buttons, empty, person_tile = cells
    # Legend counts every column of rule 17; the parts add up to each side's score.
    assert automa_tile + person_tile <= 1
    assert buttons + with_buttons + printed + BONUS_POINTS * automa_tile == game["automa"]
    assert person_buttons - EMPTY_PENALTY * empty + BONUS_POINTS * person_tile == game["person"]


def test_parts_refuse_games_that_do_not_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = played(12)
    kept = {"iterations": 2000, "time": None, "agent": "mcts", "peek": False, "seed": 1}
    for change, said in [
        ({"moves": ["Z9"]}, "its moves do not replay"),
        ({"person": int(game["person"]) + 1}, "its moves do not come to its scores"),
    ]:
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps({**kept, "games": [{**game, **change}]}))
        assert main([str(bad), str(bad)]) == 0  # the plain table does not replay
        capsys.readouterr()
        assert main([str(bad), str(bad), "--parts"]) == 2
        assert said in capsys.readouterr().err
