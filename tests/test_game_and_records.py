"""Game history (push, pop, undo) and game records, including golden games replayed move by
move against the position texts stored beside them (tests/data/golden/)."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest

import patchwork as pw
from helpers import DATA, EMPTY_QUILT, random_game

GOLDEN = DATA / "golden"
GOLDEN_NAMES = sorted(p.stem for p in GOLDEN.glob("*.json"))


# -- Game: push, pop, undo ------------------------------------------------------------------------


def test_game_starts_from_a_new_game_or_a_given_state() -> None:
    g = pw.Game()
    assert len(g) == 0 and g.moves == []
    assert g.state == g.start
    assert len(g.state.circle) == 33 and g.state.circle[-1] == 0
    start = pw.new_game(seed=5)
    assert pw.Game(start).state is start


def test_push_and_pop() -> None:
    start = pw.new_game(seed=11)
    g = pw.Game(start)
    first = g.state.legal_moves()[1]
    after = g.push(first)
    assert after == start.apply(first) == g.state
    g.push("A")
    assert len(g) == 2
    assert g.moves == [first, pw.Advance()]
    assert g.pop() == pw.Advance()
    assert g.state == after
    assert g.pop() == first
    assert g.state == start and len(g) == 0


def test_moves_is_a_copy() -> None:
    g = pw.Game(pw.new_game(seed=1))
    g.push("A")
    g.moves.append(pw.Advance())
    g.moves.clear()
    assert g.moves == [pw.Advance()]


def test_states_and_movers_follow_the_moves() -> None:
    # Turns do not alternate: who moved is the player to move in the state each move met.
    g = random_game(3)
    states = g.states
    assert states[0] == g.start and states[-1] == g.state and len(states) == len(g) + 1
    for before, move, after in zip(states, g.moves, states[1:], strict=False):
        assert before.apply(move) == after
    assert g.movers() == [s.current_player for s in states[:-1]]
    movers = g.movers()
    assert set(movers) == {0, 1} and any(a == b for a, b in pairwise(movers))
    states.clear()  # a copy
    assert len(g.states) == len(g) + 1


def test_push_move_text() -> None:
    g = pw.Game(pw.new_game(circle=[*range(1, 33), 0]))
    g.push("1r90@b2")
    assert g.moves == [pw.Buy(1, 1, 1, 1)]
    assert g.state.players[0].quilt.squares == {(1, 1), (2, 1), (2, 2)}
    g.push(" advance ")
    assert g.moves[-1] == pw.Advance()


def test_pop_on_an_empty_game_raises() -> None:
    g = pw.Game(pw.new_game(seed=3))
    with pytest.raises(pw.PatchworkError, match="no move to take back"):
        g.pop()
    g.push("A")
    g.pop()
    with pytest.raises(pw.PatchworkError):
        g.pop()
    assert g.state == g.start


@pytest.mark.parametrize(
    ("move", "error"),
    [
        ("S@a1", pw.IllegalMoveError),  # no special patch to place
        ("4r0@a1", pw.IllegalMoveError),  # patch 4 is not offered
        ("13r0@a1", pw.IllegalMoveError),  # offered, but costs 7
        ("17q0@a1", pw.InvalidMoveError),  # not a move
        ("", pw.InvalidMoveError),
        (pw.PlaceSpecial(0, 0), pw.IllegalMoveError),
        (pw.Buy(4, 0, 0, 0), pw.IllegalMoveError),
        (42, pw.IllegalMoveError),  # not a Move at all
    ],
)
def test_illegal_push_raises_and_changes_nothing(move: object, error: type) -> None:
    g = pw.Game(pw.new_game(circle=[1, 2, 13, *range(3, 13), *range(14, 33), 0]))
    g.push("A")
    state, moves = g.state, g.moves
    with pytest.raises(error):
        g.push(move)  # type: ignore[arg-type]
    assert g.state is state
    assert g.moves == moves and len(g) == 1


def test_undo_then_a_different_move() -> None:
    g = pw.Game(pw.new_game(seed=8))
    g.push("A")
    g.pop()
    buy = g.state.legal_moves()[-1]
    g.push(buy)
    assert g.moves == [buy]
    assert g.state == g.start.apply(buy)


# -- records --------------------------------------------------------------------------------------


def test_record_of_a_finished_game_has_the_result() -> None:
    game = random_game(5)
    assert game.state.is_terminal()
    record = game.to_record(players=("Ann", "Bob"), event="test", date="2026-02-03")
    assert record.result == {
        "termination": "finished",
        "winner": game.state.winner(),
        "scores": list(game.state.scores()),
    }
    d = json.loads(record.to_json())
    assert d["format"] == "patchwork-record" and d["version"] == 1
    assert d["players"] == ["Ann", "Bob"] and d["event"] == "test" and d["date"] == "2026-02-03"
    assert d["setup"] == {"circle": list(game.start.circle), "first_player": 0}
    assert d["moves"] == [str(m) for m in game.moves]
    text = record.to_text()
    assert '[Player0 "Ann"]' in text and '[Winner "' in text
    assert f"{len(game)}. P" in text


def test_record_of_an_unfinished_game() -> None:
    game = random_game(6, max_plies=10)
    record = game.to_record(date="2026-01-01")
    assert record.result is None
    back = pw.Record.from_json(record.to_json())
    assert back.replay().state == game.state
    assert "Termination" not in record.to_text()


def test_record_with_a_termination_other_than_finished() -> None:
    game = random_game(7, max_plies=12)
    record = pw.Record.from_game(game, termination="resigned", winner=1, date="2026-01-01")
    assert record.result == {
        "termination": "resigned",
        "winner": 1,
        "scores": list(game.state.scores()),
    }
    for form in (record.to_json(), record.to_text()):
        back = pw.Record.parse(form)
        assert back.result == record.result
        assert back.replay().state == game.state


def test_record_from_a_position() -> None:
    start = pw.State.from_text(
        f"original:r 9,4,20,0 20,9,2,{EMPTY_QUILT} 21,3,1,{EMPTY_QUILT} 1 - - - 26,32,44,50"
    )
    game = pw.Game(start)
    game.push("A")
    game.push("4r90@a1")
    record = game.to_record(date="2026-01-01")
    assert record.setup == {"position": start.to_text()}
    assert f'[Position "{start.to_text()}"]' in record.to_text()
    for form in (record.to_json(), record.to_text()):
        replayed = pw.Game.from_record(form)
        assert replayed.start == start
        assert replayed.state == game.state


def test_record_from_a_non_standard_circle_and_first_player_1() -> None:
    start = pw.new_game(circle=[0, *range(1, 33)], first_player=1)
    game = pw.Game(start)
    game.push("A")
    record = game.to_record()
    assert record.setup == {"circle": [0, *range(1, 33)], "first_player": 1}
    assert pw.Game.from_record(record.to_dict()).state == game.state
    assert pw.Game.from_record(record).state == game.state


def test_record_save_and_load(tmp_path: Path) -> None:
    game = random_game(9, rules=pw.Rules("original", rotation=False, flip=True))
    record = game.to_record(date="2026-01-01")
    record.save(tmp_path / "g.json")
    record.save(tmp_path / "g.txt")
    assert (tmp_path / "g.json").read_text().lstrip().startswith("{")
    assert (tmp_path / "g.txt").read_text().startswith("[Event")
    for name in ("g.json", "g.txt"):
        back = pw.Record.load(tmp_path / name)
        assert back.to_dict() == record.to_dict()
        assert back.replay().state == game.state


def test_text_record_comments_and_blank_lines_are_ignored() -> None:
    record = random_game(10, max_plies=6).to_record(date="2026-01-01")
    lines = record.to_text().splitlines()
    noisy = "\n".join(["# a comment", *lines[:3], "", "# another", *lines[3:], "", ""])
    assert pw.Record.from_text(noisy).to_dict() == record.to_dict()


def test_text_record_names_the_player_of_each_move() -> None:
    game = random_game(12)
    lines = [ln for ln in game.to_record().to_text().splitlines() if ln[:1].isdigit()]
    state = game.start
    for i, (line, move) in enumerate(zip(lines, game.moves, strict=True), 1):
        assert line == f"{i}. P{state.current_player} {move}"
        state = state.apply(move)


# -- golden games ---------------------------------------------------------------------------------


def test_golden_games_are_present() -> None:
    assert len(GOLDEN_NAMES) >= 4
    editions = set()
    modes = set()
    for name in GOLDEN_NAMES:
        rules = json.loads((GOLDEN / f"{name}.json").read_text())["rules"]
        editions.add(rules["edition"])
        modes.add((rules["rotation"], rules["flip"]))
    assert editions == {"revised", "original"}
    assert len(modes) == 4


@pytest.mark.parametrize("name", GOLDEN_NAMES)
@pytest.mark.parametrize("form", ["json", "txt"])
def test_golden_game_replays_move_by_move(name: str, form: str) -> None:
    expected = (GOLDEN / f"{name}.positions").read_text("utf-8").splitlines()
    record = pw.Record.load(GOLDEN / f"{name}.{form}")
    assert len(expected) == len(record.moves) + 1
    game = pw.Game(record.start_state())
    assert game.state.to_text() == expected[0]
    for i, move in enumerate(record.moves, 1):
        game.push(move)
        assert game.state.to_text() == expected[i], f"{name}: after move {i} ({move})"
    end = game.state
    assert end.to_text() == expected[-1]
    assert end.is_terminal()
    assert record.result is not None
    assert record.result["winner"] == end.winner()
    assert record.result["scores"] == list(end.scores())


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden_record_forms_are_stable(name: str) -> None:
    """Reading a golden record and writing it again gives the stored files byte for byte."""
    json_text = (GOLDEN / f"{name}.json").read_text("utf-8")
    text = (GOLDEN / f"{name}.txt").read_text("utf-8")
    from_json = pw.Record.parse(json_text)
    from_text = pw.Record.parse(text)
    assert from_json.to_dict() == from_text.to_dict()
    assert from_json.to_json() == json_text
    assert from_text.to_text() == text
    regenerated = pw.Game.from_record(from_json).to_record(
        players=from_json.players, event=from_json.event, date=from_json.date
    )
    assert regenerated.to_json() == json_text


def test_seats_and_language_are_optional_record_keys_from_version_2(tmp_path: Path) -> None:
    game = pw.Game(pw.new_game(seed=4))
    game.push(game.state.legal_moves()[0])
    plain = game.to_record(players=("Ann", "Bob"))
    assert plain.to_dict()["version"] == 1 and "seats" not in plain.to_dict()
    record = pw.Record.from_game(game, seats=("human", "level3"), language="fi")
    d = record.to_dict()
    assert d["version"] == 3 and d["seats"] == ["human", "level3"] and d["language"] == "fi"
    for name in ("r.json", "r.txt"):
        record.save(tmp_path / name)
        back = pw.Record.load(tmp_path / name)
        assert back.seats == ("human", "level3") and back.language == "fi"
        assert back == record
    assert '[Seat0 "human"]' in record.to_text() and '[Language "fi"]' in record.to_text()
    old = pw.Record.from_json(plain.to_json())
    assert old.seats is None and old.language is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": 1, "seats": ["human", "level3"]}, "need record version 2"),
        ({"version": 2, "seats": ["human"]}, "seats must be a list of two kinds"),
        ({"version": 2, "seats": ["human", ""]}, "seats must be a list of two kinds"),
        ({"version": 2, "language": 7}, "language must be a language code"),
        ({"version": 4}, "record version 4 is not supported"),
    ],
)
def test_bad_seats_or_language_are_refused(change: dict[str, object], message: str) -> None:
    d = pw.Game(pw.new_game(seed=4)).to_record().to_dict()
    d.update(change)
    with pytest.raises(pw.InvalidRecordError, match=message):
        pw.Record.from_dict(d)
