"""Fuzzing (hypothesis) of everything that reads text from outside: move notation, position
text, game records (JSON and text) and the engine protocol's line handler. Only the package's
documented errors may come out, and whatever is accepted must round-trip exactly.

Inputs are near misses of valid text (valid text with characters replaced, inserted, deleted
or fields swapped) as well as arbitrary text, so that the parsers' every branch is reached.
Each test is bounded (``max_examples``) to stay within a few seconds."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import patchwork as pw
from helpers import random_game, random_plies
from patchwork.protocol import codingame
from patchwork.protocol.engine_protocol import COMMANDS
from patchwork.protocol.engine_server import EngineServer

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))

# A few real games' states (every seventh, all rules combinations) and records to start from.
GAMES = [random_game(seed, rules) for seed, rules in ((3, pw.Rules()), (11, pw.Rules("original")))]
STATES = [
    ply.before
    for seed, rules in ((3, pw.Rules()), (5, pw.Rules("original", False, True)), (8, pw.Rules()))
    for i, ply in enumerate(random_plies(seed, rules, seed % 2, rng=random.Random(seed)))
    if i % 7 == 0
]
TEXTS = [s.to_text() for s in STATES]
RECORDS = [g.to_record(players=("Ann", "Bob"), date="2026-01-01") for g in GAMES]
RECORDS.append(pw.Game(STATES[4]).to_record(players=("Cy", "Di")))  # from a position

NOTATION = "Aa Ss@rRfF0123456789abcdefghijxyz\t\n\u0663\u06f1_+-,/:;."
near_miss_chars = st.text(alphabet=NOTATION, max_size=12)


def mutated(text: str, data: st.DataObject, alphabet: str) -> str:
    """``text`` with a few characters replaced, inserted or deleted, or fields swapped."""
    chars = list(text)
    for _ in range(data.draw(st.integers(1, 4))):
        kind = data.draw(st.sampled_from(["replace", "insert", "delete", "swap"]))
        at = data.draw(st.integers(0, max(len(chars) - 1, 0)))
        if kind == "swap":
            fields = "".join(chars).split(" ")
            i = data.draw(st.integers(0, len(fields) - 1))
            j = data.draw(st.integers(0, len(fields) - 1))
            fields[i], fields[j] = fields[j], fields[i]
            chars = list(" ".join(fields))
        elif kind == "delete" and chars:
            del chars[at]
        else:
            ch = data.draw(st.sampled_from(alphabet))
            if kind == "insert" or not chars:
                chars.insert(at, ch)
            else:
                chars[at] = ch
    return "".join(chars)


# -- moves ------------------------------------------------------------------------------------


def check_move_text(text: str) -> None:
    try:
        move = pw.parse_move(text)
    except pw.InvalidMoveError:
        return
    written = str(move)
    assert pw.parse_move(written) == move
    assert str(pw.parse_move(written)) == written  # the written form is canonical
    for state in STATES[:3]:
        with contextlib.suppress(pw.IllegalMoveError):
            assert pw.Move.parse(text, state) == move


@FUZZ
@given(st.one_of(near_miss_chars, st.text(max_size=20)))
def test_move_text_gives_a_move_or_invalid_move_error(text: str) -> None:
    check_move_text(text)


@FUZZ
@given(st.data())
def test_near_misses_of_real_moves(data: st.DataObject) -> None:
    state = data.draw(st.sampled_from(STATES))
    move = data.draw(st.sampled_from(state.legal_moves()))
    check_move_text(mutated(str(move), data, NOTATION))


# -- position text ------------------------------------------------------------------------------

POSITION_CHARS = "0123456789x-,/:@ rf\t" + "9" * 5 + "\u0663"


@FUZZ
@given(st.data())
def test_position_text_reads_exactly_or_raises_invalid_position_error(
    data: st.DataObject,
) -> None:
    text = mutated(data.draw(st.sampled_from(TEXTS)), data, POSITION_CHARS)
    try:
        state = pw.State.from_text(text)
    except pw.InvalidPositionError:
        return
    assert state.to_text() == text  # only the canonical spelling reads
    assert pw.State.from_text(state.to_text()) == state


@FUZZ
@given(st.text(max_size=40))
def test_arbitrary_text_is_not_a_position(text: str) -> None:
    try:
        state = pw.State.from_text(text)
    except pw.InvalidPositionError:
        return
    assert state.to_text() == text


# -- records ------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=6,
)
KEY_PATHS = [
    (), ("format",), ("version",), ("event",), ("date",), ("players",), ("players", 0),
    ("rules",), ("rules", "edition"), ("rules", "flip"), ("setup",), ("setup", "circle"),
    ("setup", "first_player"), ("moves",), ("moves", 0), ("moves", -1), ("result",),
    ("result", "termination"), ("result", "winner"), ("result", "scores"),
    ("result", "scores", 0), ("result", "reason"), ("surprise",),
]  # fmt: skip


def check_record(read: Any, text: str, error: type[Exception] = pw.InvalidRecordError) -> None:
    try:
        record = read(text)
    except error:
        return
    again_text = record.to_text()
    assert pw.Record.from_text(again_text) == record
    assert pw.Record.from_json(record.to_json()) == record
    assert pw.Record.from_text(again_text).to_text() == again_text


@FUZZ
@given(st.data())
def test_json_records_load_exactly_or_raise_invalid_record_error(data: st.DataObject) -> None:
    d: Any = copy.deepcopy(data.draw(st.sampled_from(RECORDS)).to_dict())
    for _ in range(data.draw(st.integers(1, 2))):
        path = data.draw(st.sampled_from(KEY_PATHS))
        value = data.draw(json_values)
        if not path:
            d = value
            continue
        target = d
        try:
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            pass
    check_record(pw.Record.from_json, json.dumps(d))


@FUZZ
@given(st.data())
def test_text_records_load_exactly_or_raise_invalid_record_error(data: st.DataObject) -> None:
    text = data.draw(st.sampled_from(RECORDS)).to_text()
    lines = text.splitlines()
    i = data.draw(st.integers(0, len(lines) - 1))
    lines[i] = mutated(lines[i], data, NOTATION + '"[]\\PQ')
    check_record(pw.Record.from_text, "\n".join(lines))


@FUZZ
@given(st.text(max_size=30), st.text(max_size=30))
def test_any_names_and_event_survive_both_forms(name: str, event: str) -> None:
    record = copy.deepcopy(RECORDS[0])
    record.players = (name, "Bob")
    record.event = event
    for back in (pw.Record.from_text(record.to_text()), pw.Record.from_json(record.to_json())):
        assert back == record


# -- the engine protocol --------------------------------------------------------------------

PROTOCOL_WORDS = [
    "position", "seed", "circle", "text", "first", "moves", "show", "legal", "setoption",
    "name", "value", "Level", "Seed", "Edition", "newgame", "stop", "patchwork", "0", "1",
    "-1", "7", "A", "S@a1", "3r0@a1", "1,2,3", "level1", str(2**63), "\u0663",
    *TEXTS[0].split(" "),
]  # fmt: skip
ANSWERS = ("id", "option", "patchworkok", "readyok", "info", "bestmove", "position", "status")
ANSWERS += ("legal", "error")


words = st.lists(st.sampled_from(PROTOCOL_WORDS) | st.text(max_size=6), max_size=12)
protocol_lines = st.builds(
    lambda command, rest: " ".join([command, *rest]),
    st.sampled_from(["position", "position", "setoption", "show", "legal", "newgame", "stop"]),
    words,
)


@FUZZ
@given(
    st.lists(protocol_lines | words.map(" ".join) | st.text(max_size=30), min_size=1, max_size=5)
)
def test_the_engine_answers_every_line_in_the_protocol_and_never_fails_inside(
    lines: list[str],
) -> None:
    out = io.StringIO()
    server = EngineServer(out)
    try:
        for line in lines:
            if line.split()[:1] in (["go"], ["isready"], ["quit"]):
                continue  # searching and warming up are tested in test_protocol_engine.py
            assert server.handle(line)
    finally:
        server.shutdown()
    for answer in out.getvalue().splitlines():
        assert answer.split(" ")[0] in ANSWERS, answer
        assert "internal error" not in answer, answer
    assert set(COMMANDS) >= {"position", "show", "legal"}


# -- CodinGame commands -----------------------------------------------------------------------


@FUZZ
@given(st.text(alphabet="PLAYSKIP 0123456789-+x\u0663", max_size=24) | st.text(max_size=24))
def test_any_bot_line_is_a_command_or_unrecognised(line: str) -> None:
    command = codingame.parse_command(line)
    if isinstance(command, codingame.Play):
        assert -3 <= command.rotations <= 3
        assert codingame.parse_command(str(command)) == command
        for state in STATES[:3]:
            codingame.referee_move(command, state)  # never more than a note
