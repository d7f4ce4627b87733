"""``patchwork analyse``: one position searched, from a position text, a record (at any ply)
or stdin; the candidates as a table or JSON; every bad input refused with its reason."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import patchwork as pw
from patchwork import i18n
from patchwork.ai import GreedyAgent
from patchwork.cli import main as patchwork
from patchwork.report.analyse import main

SMALL = ["--iterations", "2000"]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = pw.Game(pw.new_game(seed=3))
    agent = GreedyAgent(seed=1)
    while not game.state.is_terminal():
        game.push(agent.choose(game.state))
    path = tmp_path_factory.mktemp("analyse") / "game.json"
    pw.Record.from_game(game).save(path)
    return path


def test_a_position_text_gets_its_candidates_and_lines(capsys: pytest.CaptureFixture[str]) -> None:
    state = pw.new_game(seed=1)
    assert patchwork(["analyse", state.to_text(), *SMALL]) == 0
    out = capsys.readouterr().out
    assert "Player 1 to move in the position given" in out
    assert "Best: " in out and "2,000 iterations in" in out
    legal = {str(m) for m in state.legal_moves()}
    rows = [line.split("│") for line in out.splitlines() if line.count("│") >= 5]
    assert rows and all(row[1].strip() in legal for row in rows)


def test_json_of_a_record_at_a_ply(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(record_file), "--ply", "10", "--json", *SMALL]) == 0
    data = json.loads(capsys.readouterr().out)
    state = pw.Record.load(record_file).replay().states[10]
    assert data["position"] == state.to_text(public=True)
    assert data["player"] == state.current_player and data["iterations"] >= 2000
    legal = {str(m) for m in state.legal_moves()}
    assert data["best_move"] in legal and data["principal_line"][0] == data["best_move"]
    assert data["candidates"] and all(c["move"] in legal for c in data["candidates"])
    assert all(0 <= c["win_probability"] <= 1 for c in data["candidates"])


def test_a_record_on_stdin_is_analysed_at_its_last_move_by_default(
    record_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = pw.Record.load(record_file)
    moves = len(record.moves)
    cut = pw.Record.from_game(_first(record, moves - 3))
    monkeypatch.setattr("sys.stdin", io.StringIO(cut.to_text()))
    assert main(["-", *SMALL]) == 0
    assert f"the position after move {moves - 3} of {moves - 3}" in capsys.readouterr().out


def _first(record: pw.Record, n: int) -> pw.Game:
    game = record.replay()
    cut = pw.Game(game.start)
    for move in game.moves[:n]:
        cut.push(move)
    return cut


def test_the_output_speaks_the_readers_language(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(record_file), "--ply", "4", "--lang", "de", *SMALL]) == 0
    out = capsys.readouterr().out
    assert "Spieler" in out and "2.000" in out  # German words and digit grouping


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["nonsense"], "'nonsense' is no file and no position text: position text has 1 fields"),
        (["missing.json"], "no such file: missing.json"),
        (["{pos}", "--ply", "2"], "--ply needs a game record, not a position"),
        (["{rec}", "--ply", "999"], "the game has"),
        (["{rec}"], "the game is over at that point: nothing to analyse"),
        (["{rec}", "--ply", "-1"], "must be at least 0, not -1"),
        (["{pos}", "--time", "0"], "must be a positive number of seconds"),
    ],
)
def test_bad_input_is_refused_with_its_reason(
    args: list[str], says: str, record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pos = pw.new_game(seed=2).to_text()
    given = [a.format(pos=pos, rec=record_file) for a in args]
    assert main(given) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err
