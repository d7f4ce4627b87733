"""The text engine protocol: ``patchwork engine`` line by line (in this process), then over
real pipes (a full game against itself, garbage it shrugs off), and ``Engine.popen`` against
programs that die, fall silent or answer nonsense: a clear EngineError, never a hang."""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

import pytest

import patchwork as pw
from engine_session import Session
from patchwork.ai import Limit
from patchwork.ai.warmup import warm_up_search
from patchwork.protocol import Engine, EngineError, Info, OptionSpec
from patchwork.protocol.engine_protocol import GoParams, allot_time, parse_go
from patchwork.protocol.process import Child

BOTS = Path(__file__).parent / "bots"
EMPTY = "9/9/9/9/9/9/9/9/9"
SPECIALS = "0 - - - 26,32,38,44,50"
ENGINE = [sys.executable, "-m", "patchwork.protocol.engine_server"]
FAKE = f"{shlex.quote(sys.executable)} {shlex.quote(str(BOTS / 'fake_engine.py'))}"


@pytest.fixture(scope="module", autouse=True)
def compiled_code_cached() -> None:
    """Load (or compile, once, into Numba's cache) what the engine processes will load."""
    warm_up_search(pw.Rules())


# -- the engine, line by line ------------------------------------------------------------------


def test_handshake_names_the_engine_and_declares_every_option() -> None:
    lines = Session().send("patchwork")
    assert lines[0] == "id name patchwork-game"
    assert lines[1] == f"id version {pw.__version__}"
    assert lines[2] == "id protocol 1"
    assert lines[-1] == "patchworkok"
    options = {OptionSpec.parse(line).name: OptionSpec.parse(line) for line in lines[3:-1]}
    assert set(options) == {
        "Level", "Threads", "Hash", "Edition", "Rotation", "Flip", "Seed", "MoveOverhead"
    }  # fmt: skip
    assert options["Level"].choices == tuple(f"level{n}" for n in range(1, 14))
    assert options["Edition"].choices == ("revised", "original")
    assert options["Hash"].type == "spin" and options["Hash"].min == 1


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("frobnicate", "unknown command 'frobnicate'"),
        ("setoption name Colour value red", "no option 'Colour'"),
        ("setoption name Level value level14", "one of level1"),
        ("setoption name Threads value many", "whole number"),
        ("setoption value 3", "setoption name NAME"),
        ("position", "give 'seed N'"),
        ("position seed x", "not a whole number"),
        ("position circle 1,2,3", "all 33 patches"),
        ("position seed 7 first 2", "first must be 0 or 1"),
        ("position seed 7 moves 17r90@c4", "move 1 (17r90@c4)"),
        ("position seed 7 moves A A A hello", "move 4 (hello): cannot read move"),
        ("position text revised:rf 1,2", "9 fields"),
        ("position text a b c d e f g h i", "rules field"),
        ("position fen 1", "unknown setup 'fen'"),
        ("go", "no position"),
        ("go movetime soon", "whole number"),
        ("go movetime 0", "at least 1"),
        ("go time0 1000", "both time0 and time1"),
        ("go depth 3", "unknown parameter 'depth'"),
        ("show", "no position"),
        ("legal", "no position"),
        ("position moves", "the setup is missing before 'moves': give 'seed N'"),
        ("position moves A 3r0@a1", "the setup is missing before 'moves'"),
        ("position seed -1", "'-1' is not a whole number from 0 to 4611686018427387904"),
        ("position seed +1", "not a whole number"),
        ("position seed 1_000", "not a whole number"),
        ("position seed \u0663", "not a whole number"),
        (f"position seed {2**62 + 1}", "not a whole number from 0"),
        ("position circle 1,+2", "not a comma-separated list of ids"),
        ("position circle \u0661,2", "not a comma-separated list of ids"),
        (
            f"position text revised:rf 1,2,3 5,{2**63},0,{EMPTY} 6,5,0,{EMPTY} {SPECIALS}",
            "position: player 0's buttons 9223372036854775808 is out of range",
        ),
        (
            f"position text revised:rf 1,2,3 5,5,{2**64},{EMPTY} 6,5,0,{EMPTY} {SPECIALS}",
            "player 0's income 18446744073709551616 is out of range",
        ),
    ],
)
def test_a_bad_line_gets_an_error_that_says_why_and_the_engine_carries_on(
    line: str, why: str
) -> None:
    session = Session()
    answer = session.send(line)
    assert len(answer) == 1 and answer[0].startswith("error ")
    assert why in answer[0]
    assert session.send("position seed 1", "show")[1].startswith("status tomove 0")


@pytest.mark.parametrize("space", ["\u2028", "\u00a0", "\u3000", "\x0b", "\x1c"])
def test_only_spaces_and_tabs_separate_words(space: str) -> None:
    """docs/protocol.md: words are separated by spaces or tabs; another kind of space is part of
    a word (issue 35: "quit\u2028x" quit the engine)."""
    session = Session()
    answer = session.send(f"quit{space}x")  # one unknown word, not quit: the engine goes on
    assert len(answer) == 1 and answer[0].startswith("error "), answer
    assert session.send("position \t seed  1\t", "show")[1].startswith("status tomove 0")


def test_a_refused_position_leaves_the_last_one() -> None:
    session = Session()
    session.send("position seed 7 moves A")
    before = session.send("show")
    assert session.send("position seed 7 moves A 17r90@c4")[0].startswith("error")
    assert session.send("show") == before


def test_position_forms_agree() -> None:
    session = Session()
    state = pw.new_game(seed=7).apply(pw.Advance())
    expected = f"position {state.to_text()}"
    assert session.send("position seed 7 moves A", "show")[0] == expected
    circle = ",".join(str(i) for i in pw.new_game(seed=7).circle)
    assert session.send(f"position circle {circle} moves A", "show")[0] == expected
    text = pw.new_game(seed=7).to_text()
    assert session.send(f"position text {text} moves A", "show")[0] == expected
    session.send("setoption name Edition value original", "setoption name Flip value false")
    shown = session.send("position seed 7 first 1", "show")
    assert shown[0].startswith("position original:r ")
    assert shown[1].startswith("status tomove 1")


def test_show_and_legal_report_what_the_rules_engine_says() -> None:
    session = Session()
    state = pw.new_game(seed=3)
    session.send(f"position text {state.to_text()}")
    (legal,) = session.send("legal")
    assert legal.split()[1:] == [str(m) for m in state.legal_moves()]
    end = "revised:rf 5,8,0 53,10,3,9/9/9/9/9/9/9/9/9 53,2,2,9/9/9/9/9/9/9/9/9 0 - 1 - -"
    shown = session.send(f"position text {end}", "show")
    assert shown[1] == "status over winner 0 scores -152 -160"
    assert session.send("go")[0] == "error go: the game is over, there is no move to search"


def test_go_reports_info_and_a_legal_bestmove() -> None:
    session = Session()
    session.send("setoption name Level value level8", "setoption name Seed value 5")
    assert session.send("isready") == ["readyok"]
    session.send("position seed 4 moves A", "go iterations 300")
    lines = session.wait_for("bestmove")
    info = Info.parse([line for line in lines if line.startswith("info")][-1])
    assert info.iterations == 300
    assert info.win_probability is not None and 0 <= info.win_probability <= 1
    assert info.margin is not None and info.pv
    best = lines[-1].split()[1]
    state = pw.new_game(seed=4).apply(pw.Advance())
    assert pw.Move.parse(best, state) == pw.Move.parse(info.pv[0], state)
    # Iteration-limited searches with a fixed seed are reproducible.
    session.send("newgame", "position seed 4 moves A", "go iterations 300")
    assert session.wait_for("bestmove")[-1] == lines[-1]


def test_go_infinite_runs_until_stop_and_nothing_else_may_change_meanwhile() -> None:
    session = Session()
    session.send("setoption name Level value level8", "position seed 2", "go infinite")
    time.sleep(0.3)
    busy = session.send("go", "position seed 3", "setoption name Seed value 1", "newgame")
    assert all("not while searching" in x or "already searching" in x for x in busy)
    assert session.send("isready")[-1] == "readyok"
    assert not [x for x in session.new_lines() if x.startswith("bestmove")]
    session.send("stop")
    lines = session.wait_for("bestmove")
    assert pw.Move.parse(lines[-1].split()[1], pw.new_game(seed=2))
    session.server.shutdown()


def test_a_plain_go_uses_the_level_and_levels_without_search_answer_at_once() -> None:
    session = Session()
    session.send("setoption name Level value level4", "position seed 9", "go")
    lines = session.wait_for("bestmove", timeout=120)  # a bound: cold caches are slow
    assert lines[-1].split()[1] in {str(m) for m in pw.new_game(seed=9).legal_moves()}


def test_clock_budgeting() -> None:
    assert parse_go(["time0", "60000", "time1", "30000", "inc0", "1000", "inc1", "0"]) == GoParams(
        clock=(60.0, 30.0), increment=(1.0, 0.0)
    )
    # ~21 moves to go from space 0: an even share plus most of the increment.
    assert allot_time(60.0, 1.0, 0, None, 0.03) == pytest.approx(60 / 22 + 0.9 - 0.03)
    assert allot_time(10.0, 0.0, 50, None, 0.0) == pytest.approx(10 / 3)
    assert allot_time(1.0, 0.0, 0, 1, 0.0) == pytest.approx(0.4)  # never over 40%
    assert allot_time(0.001, 0.0, 10, None, 0.03) == 0.005
    line = GoParams(movetime=0.25, iterations=9, clock=(1.0, 2.0), movestogo=3).line()
    assert line == "go movetime 250 iterations 9 time0 1000 time1 2000 movestogo 3"
    assert parse_go(line.split()[1:]) == GoParams(
        movetime=0.25, iterations=9, clock=(1.0, 2.0), movestogo=3
    )


def test_info_lines_round_trip() -> None:
    info = Info(
        iterations=120, seconds=0.5, speed=240, nodes=300, win_probability=0.625,
        margin=-3.5, exact=True, pv=("A", "17r90@c4"),
    )  # fmt: skip
    line = info.line()
    assert line == (
        "info iterations 120 time 500 speed 240 nodes 300 winprob 0.625 margin -3.5 exact yes "
        "pv A 17r90@c4"
    )
    assert Info.parse(line) == info
    assert Info.parse("info string hello  world").string == "hello  world"


# -- over real pipes ------------------------------------------------------------------------------


def test_our_engine_plays_a_full_game_against_itself_through_the_protocol() -> None:
    with Engine.popen(ENGINE, options={"Level": "level8", "Seed": 11}) as engine:
        assert engine.name == "patchwork-game" and engine.version == pw.__version__
        assert "level" in engine.options and engine.protocol == "1"
        game = pw.Game(pw.new_game(seed=12))
        while not game.state.is_terminal():
            game.push(engine.play(game.state, Limit(iterations=60)))
        assert len(game) > 20
        record = game.to_record(players=("engine", "engine"))
        assert pw.Record.parse(record.to_json()).replay().state == game.state
        infos: list[Info] = []
        report = engine.analyse(pw.new_game(seed=13), Limit(time=0.6), on_info=infos.append)
        assert report.principal_line[0] == report.best_move
        assert report.win_probability is not None and 0 < report.win_probability < 1
        assert report.iterations is not None and report.iterations > 100
        assert 0.5 < report.seconds < 1.5
        assert len(infos) >= 2 and infos == report.infos  # progress, then the final line
        with pytest.raises(EngineError, match="game is over"):
            engine.play(game.state)
        engine.set_option("Level", "level4")
        engine.new_game()
        engine.is_ready()
        assert engine.play(pw.new_game(seed=14)) in pw.new_game(seed=14).legal_moves()
        with pytest.raises(EngineError, match="no option 'Colour'"):
            engine.set_option("Colour", "red")


def test_garbage_on_the_engine_channel_gets_errors_and_the_engine_keeps_running() -> None:
    child = Child(ENGINE)
    try:
        child.send("\xff\xfe garbage \x00\n")
        child.send("x" * 2_000_000 + "\n")  # over the 1 MiB line limit
        child.send("go movetime abc\n")
        child.send("position seed 1 moves 99r0@a1\n")
        child.send("isready\n")
        answers = []
        while True:
            line = child.read(60)
            assert line is not None
            answers.append(line)
            if line == "readyok":
                break
        assert len(answers) == 5
        assert all(a.startswith("error ") for a in answers[:4])
        assert "unknown command" in answers[0] and "too long" in answers[1]
        assert "no patch 99" in answers[3]
        child.send("quit\n")
        assert child.read(10) is None
        assert child.exit_code(10) == 0
    finally:
        child.stop()


# -- driving programs that misbehave ------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "when", "message"),
    [
        ("silent", "start", "did not answer within 0.5 s while we waited for the handshake"),
        ("nonsense", "start", "answered nonsense: 'HELLO I AM A TOASTER'"),
        ("die", "start", "exited with code 3; its last error output:\nfake engine: giving up"),
        ("illegal", "play", "answered the move '31r0@a1', which is not allowed here"),
        ("chatter", "play", "answered nonsense: 'thinking very hard'"),
        ("crash", "play", "exited with code 139"),
        ("error", "play", "reported an error: go: I do not feel like it"),
        ("binary", "play", "answered nonsense"),
        ("good", "play", "did not answer within 0.8 s while we waited for bestmove"),
    ],
)
def test_a_misbehaving_engine_raises_a_clear_error_in_time(
    mode: str, when: str, message: str
) -> None:
    start = time.monotonic()
    with pytest.raises(EngineError) as caught:
        engine = Engine.popen(f"{FAKE} --mode {mode}", timeout=0.5, ready_timeout=5.0)
        assert when == "play"
        try:
            engine.play(pw.new_game(seed=1), Limit(time=0.3))
        finally:
            engine.quit()
    assert message in str(caught.value)
    assert time.monotonic() - start < 8


def test_a_program_that_cannot_start_is_a_clear_error() -> None:
    with pytest.raises(EngineError, match="cannot start '/nonexistent/engine'"):
        Engine.popen("/nonexistent/engine")
    with pytest.raises(EngineError, match="cannot read command"):
        Engine.popen("'unbalanced")


def test_a_broken_engine_is_not_used_again() -> None:
    engine = Engine.popen(f"{FAKE} --mode illegal", timeout=1.0)
    with pytest.raises(EngineError, match="not allowed"):
        engine.play(pw.new_game(seed=1))
    with pytest.raises(EngineError, match="can no longer be used"):
        engine.play(pw.new_game(seed=1))
    engine.quit()


def test_go_ponder_thinks_until_ponderhit_then_answers_on_the_clock() -> None:
    session = Session()
    session.send(
        "setoption name Level value level11", "position seed 4 moves A", "go movetime 300 ponder"
    )
    time.sleep(0.5)
    assert not [x for x in session.new_lines() if x.startswith("bestmove")]  # pondering
    assert "not while searching" in session.send("position seed 5")[-1]
    session.send("ponderhit")
    lines = session.wait_for("bestmove")
    state = pw.new_game(seed=4).apply(pw.Advance())
    assert state.is_legal(pw.Move.parse(lines[-1].split()[1], state))
    assert "not pondering" in session.send("ponderhit")[-1]  # nothing to hit now
    session.server.shutdown()


def test_stop_while_pondering_answers_the_pondered_move() -> None:
    session = Session()
    session.send("setoption name Level value level11", "position seed 6", "go ponder")
    time.sleep(0.3)
    session.send("stop")
    lines = session.wait_for("bestmove")
    assert pw.new_game(seed=6).is_legal(pw.Move.parse(lines[-1].split()[1], pw.new_game(seed=6)))
    assert parse_go(["movetime", "100", "ponder"]) == GoParams(movetime=0.1, ponder=True)
    assert GoParams(movetime=0.1, ponder=True).line() == "go movetime 100 ponder"
    session.server.shutdown()
