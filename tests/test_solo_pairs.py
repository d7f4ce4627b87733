"""benchmarks/solo_pairs.py: two solo records compared on the setups both played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks.solo_pairs import main


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
