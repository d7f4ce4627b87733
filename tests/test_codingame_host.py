"""``cg-host`` refereeing real bot programs over pipes: a small CodinGame bot written for the
tests (tests/bots/cg_simple_bot.py, which checks every input against its own bookkeeping),
our ``cg-bot``, and bots that misbehave. Every game ends, every read has a deadline."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

import patchwork as pw
from patchwork.ai import MCTSAgent, PolicyAgent, get_agent
from patchwork.ai.warmup import warm_up_search
from patchwork.protocol import cg_bot, cg_host, codingame
from patchwork.protocol.cg_host import AgentSeat, BotSeat, EngineSeat, HostResult, host_game
from patchwork.protocol.codingame import RULES
from patchwork.protocol.process import Child

BOTS = Path(__file__).parent / "bots"
PYTHON = shlex.quote(sys.executable)
SIMPLE = f"{PYTHON} {shlex.quote(str(BOTS / 'cg_simple_bot.py'))}"
CG_BOT = f"{PYTHON} -m patchwork.protocol.cg_bot"
FAKE_ENGINE = f"{PYTHON} {shlex.quote(str(BOTS / 'fake_engine.py'))}"


@pytest.fixture(scope="module", autouse=True)
def compiled_code_cached() -> None:
    """Load (or compile, once, into Numba's cache) what the bot processes will load."""
    warm_up_search(RULES)
    cg_bot.rehearse(PolicyAgent(seed=0))  # what the bot answers with while its search loads


# Tests that are not about time give the test bot five times the arena's limits, so that a
# busy machine cannot turn a game into a loss on time; the timing tests hold it to them.
ROOMY = 5.0


def simple(*options: str, stats: Path | None = None) -> str:
    extra = [*options, *(["--stats", shlex.quote(str(stats))] if stats else [])]
    return " ".join([SIMPLE, *extra])


def play(bot: BotSeat, seat: int = 0, seed: int = 1, opponent: str = "greedy") -> HostResult:
    other = AgentSeat(get_agent(opponent, seed=seed))
    seats = [bot, other] if seat == 0 else [other, bot]
    try:
        return host_game(seats, seed=seed)
    finally:
        bot.close()


def replayed(result: HostResult) -> pw.Game:
    record = pw.Record.parse(result.record().to_json())
    return record.replay()


# -- the test bot plays full games ----------------------------------------------------------------


@pytest.mark.parametrize(("seat", "seed"), [(0, 1), (1, 2), (0, 3)])
def test_the_test_bot_plays_full_games_with_invalid_plays(
    tmp_path: Path, seat: int, seed: int
) -> None:
    stats_file = tmp_path / "stats.json"
    bot = BotSeat(
        simple(f"--seed {seed}", "--invalid-every 4", stats=stats_file), time_factor=ROOMY
    )
    result = play(bot, seat=seat, seed=seed)
    assert result.termination == "finished", result.reason
    assert result.game.state.is_terminal()
    game = replayed(result)
    assert game.state == result.game.state
    assert game.start.rules == RULES
    stats = json.loads(stats_file.read_text())
    invalid = [n for _, p, n in result.notes if p == seat and "invalid PLAY" in n]
    assert stats["invalid"] >= 3
    assert len(invalid) == stats["invalid"]
    assert stats["plays"] >= 5 and stats["orientations"] >= 3
    assert len(bot.times) == stats["turns"]


def test_specials_placed_by_the_bot_and_by_the_skip_convention(tmp_path: Path) -> None:
    placed = skipped = 0
    for seed in (4, 5, 6):
        stats_file = tmp_path / f"stats{seed}.json"
        skip = seed != 4
        options = ["--skip-specials"] if skip else []
        bot = BotSeat(simple(f"--seed {seed}", *options, stats=stats_file), time_factor=ROOMY)
        result = play(bot, seed=seed)
        assert result.termination == "finished", result.reason
        stats = json.loads(stats_file.read_text())
        notes = [n for _, p, n in result.notes if p == 0 and "special" in n]
        assert len(notes) == stats["special_skips"]
        placed += stats["specials_placed"]
        skipped += stats["special_skips"]
        specials = [m for m in result.game.moves if isinstance(m, pw.PlaceSpecial)]
        assert len(specials) >= stats["specials_placed"] + stats["special_skips"]
    assert placed >= 1 and skipped >= 1


def test_two_bots_check_each_others_logged_moves(tmp_path: Path) -> None:
    a_bot = simple("--seed 7", "--invalid-every 6", stats=tmp_path / "a.json")
    b_bot = simple("--seed 8", "--skip-specials", stats=tmp_path / "b.json")
    a = BotSeat(a_bot, name="a", time_factor=ROOMY)
    b = BotSeat(b_bot, name="b", time_factor=ROOMY)
    try:
        result = host_game([a, b], seed=9)
    finally:
        a.close()
        b.close()
    # Each bot verifies that the opponent quilt in its input is its last one plus the logged
    # moves, placed by its own reading of flips and turns: a wrong translation would end the
    # game with a bot exiting.
    assert result.termination == "finished", result.reason
    assert result.names == ("a", "b")
    assert replayed(result).state == result.game.state


def test_the_opponent_s_log_repeats_the_mover_s_own_flip_and_rotations(tmp_path: Path) -> None:
    # The arena logs a PLAY as the bot wrote it (flip as 0 or 1, rotations modulo 4 with
    # their sign), not as a normalised pair; the other bot checks each line against its quilt.
    odd = BotSeat(simple("--seed 7", "--odd-spelling"), name="odd", time_factor=ROOMY)
    plain = BotSeat(simple("--seed 8"), name="plain", time_factor=ROOMY)
    logged: list[tuple[int, str, str]] = []

    def note(ply: int, player: int, turn: cg_host.Turn) -> None:
        if turn.said is not None and turn.logged is not None:
            logged.append((player, turn.said, turn.logged))

    try:
        result = host_game([odd, plain], seed=9, on_turn=note)
    finally:
        odd.close()
        plain.close()
    assert result.termination == "finished", result.reason
    odd_plays = [(said, log) for player, said, log in logged if player == 0 and "PLAY" in log]
    assert any(log.endswith((" 1 -1", " 1 -2", " 1 -3")) for _said, log in odd_plays)
    for said, log in odd_plays:
        tokens = said.split(" ")
        if int(tokens[1]) >= 0:  # a bought patch: the log repeats the bot's own numbers
            flip, rotations = int(tokens[4] == "1"), int(tokens[5])
            kept = -(-rotations % 4) if rotations < 0 else rotations % 4  # Kotlin's %
            assert log == f"PLAY {' '.join(tokens[1:4])} {flip} {kept}", said


def test_a_bot_that_writes_two_lines_in_one_turn_loses_saying_so() -> None:
    result = play(BotSeat(simple("--two-lines-at 3"), time_factor=ROOMY), seat=1, seed=3)
    assert result.termination == "abandoned" and result.winner == 0
    # Which line is caught depends on timing: the extra SKIP itself when it comes before the
    # next input is sent, else the next turn's answer, which then finds SKIP taken for it.
    assert result.reason is not None
    assert re.search(r"wrote two lines in one turn \('(SKIP|PLAY [-\d ]+)'\)", result.reason)
    assert all(t >= 0 for t in result.times[1])


def test_the_test_bot_catches_a_host_that_turns_patches_wrongly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A control for the check above: with orientation = 4 * flip + turns (wrong for most of
    # the arena's drawings) the bot's quilt stops matching its own bookkeeping.
    monkeypatch.setattr(codingame, "to_orientation", lambda cid, flip, turns: 4 * flip + turns)
    result = play(BotSeat(simple("--seed 1"), time_factor=ROOMY), seed=1)
    assert result.termination == "abandoned"
    assert result.reason is not None and "exited with code 4" in result.reason
    assert "expected" in result.reason


# -- misbehaving bots lose, and nothing hangs -----------------------------------------------------


@pytest.mark.parametrize(
    ("options", "termination", "reason"),
    [
        (["--garbage-at 3"], "abandoned", "unrecognised command 'HELLO referee"),
        (["--binary-at 2"], "abandoned", "unrecognised command"),
        (["--exit-at 2"], "abandoned", "exited with code 0"),
        (["--sleep-at 3 400"], "time", "the limit is 100 ms"),
    ],
)
def test_a_misbehaving_bot_loses_with_a_clear_reason(
    options: list[str], termination: str, reason: str
) -> None:
    start = time.monotonic()
    strict = "--sleep-at" in options[0]  # the time limit itself is under test
    result = play(BotSeat(simple(*options), time_factor=1 if strict else ROOMY), seat=1, seed=3)
    assert time.monotonic() - start < 20
    assert result.termination == termination
    assert result.winner == 0
    assert result.reason is not None and reason in result.reason
    assert result.reason.startswith("player 1 (")
    record = result.record()
    assert record.result is not None and record.result["termination"] == termination
    assert reason in record.result["reason"]
    assert replayed(result).state == result.game.state


def test_relaxed_limits_forgive_a_slow_answer_but_the_hard_timeout_does_not() -> None:
    relaxed = play(BotSeat(simple("--sleep-at 2 250"), time_factor=5), seed=4)
    assert relaxed.termination == "finished", relaxed.reason
    assert max(relaxed.times[0][1:]) > 0.2
    start = time.monotonic()
    lifted = BotSeat(simple("--sleep-at 2 5000"), time_factor=float("inf"), hard_timeout=0.5)
    result = play(lifted, seed=4)
    assert time.monotonic() - start < 4
    assert result.termination == "time"
    assert result.reason is not None and "no limit" in result.reason


def test_an_engine_opponent_is_held_to_the_bot_s_limits(tmp_path: Path) -> None:
    """``--vs engine:`` gets the bot's limits as ``go movetime`` (less the margin for the
    pipes) and loses on time as a bot does: here its second answer takes 300 ms of 100."""
    log = tmp_path / "engine.log"
    command = f"{FAKE_ENGINE} --mode slow --delay 0.3 --log {shlex.quote(str(log))}"
    seats = [EngineSeat(command, seed=1, name="engine"), BotSeat(simple(), time_factor=ROOMY)]
    try:
        result = host_game(seats, seed=1)
    finally:
        for seat in seats:
            seat.close()
    assert result.termination == "time" and result.winner == 1
    assert result.reason is not None and result.reason.startswith("player 0 (engine) lost")
    assert "answered after 0.3" in result.reason
    goes = [line.split() for line in log.read_text().splitlines() if line.startswith("go")]
    assert goes == [["go", "movetime", "970"], ["go", "movetime", "70"]]


def test_a_bot_that_cannot_start_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="cannot start"):
        BotSeat("/nonexistent/bot --fast")


def test_the_turn_limit_ends_the_game_like_the_arena() -> None:
    bot = BotSeat(simple(), time_factor=ROOMY)
    try:
        result = host_game([bot, AgentSeat(get_agent("random", seed=1))], seed=1, max_turns=6)
    finally:
        bot.close()
    assert result.termination == "abandoned" and result.winner is None
    assert len(result.game) == 6
    assert "turn limit" in (result.reason or "")


# -- our AI as a CodinGame bot ----------------------------------------------------------------


def test_cg_bot_completes_a_game_against_cg_host(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    command = [
        sys.executable, "-m", "patchwork.protocol.cg_host",
        f"{CG_BOT} --time-ms 20 --seed 1", "--vs", "greedy", "--seed", "5",
        "--relax-time", "5", "--record", str(record),
    ]  # fmt: skip
    run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "result: finished" in run.stdout
    saved = pw.Record.load(record)
    assert saved.result is not None and saved.result["termination"] == "finished"
    assert saved.replay().state.is_terminal()
    assert saved.rules == RULES


def test_cg_bot_plays_second_against_the_test_bot(tmp_path: Path) -> None:
    ours = BotSeat(f"{CG_BOT} --time-ms 20 --seed 2", name="cg-bot", time_factor=ROOMY)
    theirs = BotSeat(simple("--seed 2", "--invalid-every 5"), name="simple", time_factor=ROOMY)
    try:
        result = host_game([theirs, ours], seed=6)
    finally:
        ours.close()
        theirs.close()
    assert result.termination == "finished", result.reason
    assert not [n for _, p, n in result.notes if p == 1]  # ours never needs correcting
    assert len(ours.times) >= 10


def test_cg_bot_times_its_first_turn_from_the_input_s_arrival() -> None:
    # The arena's first-turn clock starts when it writes the input, while a bot may still be
    # loading its compiled code: the bot must count from then, not from its first read.
    read_fd, write_fd = os.pipe()
    with os.fdopen(read_fd, "r") as stream, os.fdopen(write_fd, "w") as writer:
        writer.write("9\n")
        writer.flush()
        waiting = cg_bot.FirstInput()
        waiting.watch(stream, started=123.0)  # input already there: from the process start
        assert waiting.time(read_at=500.0) == 123.0
    read_fd, write_fd = os.pipe()
    with os.fdopen(read_fd, "r") as stream, os.fdopen(write_fd, "w") as writer:
        later = cg_bot.FirstInput()
        later.watch(stream, started=0.0)
        time.sleep(0.05)
        wrote = time.perf_counter()
        writer.write("9\n")
        writer.flush()
        time.sleep(0.3)  # the bot is busy warming up; it reads the line only now
        read_at = time.perf_counter()
        assert wrote <= later.time(read_at) < wrote + 0.2 < read_at
    start = cg_bot.process_start()
    assert start is None or 0 < time.perf_counter() - start < 3600


def test_cg_bot_answers_its_first_turn_within_the_limit_when_its_input_comes_late() -> None:
    state = pw.new_game(seed=1, rules=RULES)
    text = "\n".join(codingame.init_lines(RULES) + codingame.turn_lines(state, [])) + "\n"
    bot = Child(f"{CG_BOT} --first-time-ms 2000 --debug")
    try:
        time.sleep(0.2)  # the input arrives while the bot is still starting up
        bot.send(text)
        sent = time.monotonic()
        assert bot.read(60) is not None
        answered = bot.stdout.arrived - sent
    finally:
        bot.stop(1.0)
    # From the moment it was written (not from the bot's first read), the answer came within
    # the limit less the margin, or, when start-up alone took longer, with no search at all.
    report = bot.stderr.text()
    assert "search budget" in report
    budget_ms = float(report.split("search budget ")[1].split(" ms")[0])
    assert answered < 0.98 or budget_ms <= 1.0, (answered, report)


def _host_with_no_start_up_grace(*bot_options: str, relax: int = 2) -> tuple[str, list[str]]:
    """A game of ``cg-bot --debug`` under ``cg-host --startup-grace 0`` (the arena's start: the
    bot spawned and its first input written at once): the host's output and the bot's report.
    Turns have ``relax`` times the arena's time, so that a busy machine cannot lose them."""
    command = [
        sys.executable, "-m", "patchwork.protocol.cg_host",
        " ".join([CG_BOT, "--debug", "--seed", "3", *bot_options]), "--vs", "greedy",
        "--seed", "4", "--startup-grace", "0", "--relax-time", str(relax), "--show-stderr",
    ]  # fmt: skip
    run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "result: finished" in run.stdout, run.stdout + run.stderr
    report = [line for line in run.stderr.splitlines() if line.startswith("[bot] cg-bot:")]
    return run.stdout, report


def _ready_ms(report: list[str]) -> float:
    """When the bot could first answer, in milliseconds after its start (its own report)."""
    found = re.search(r"ready to answer (\d+) ms after the start", "\n".join(report))
    assert found is not None, report
    return float(found[1])


def _turns(report: list[str]) -> list[tuple[float, str]]:
    """Each turn's (milliseconds since its input came, who answered) from the bot's report."""
    found = [
        re.search(r"turn \d+: ([\d.]+) ms since the input came.*, by (.*)", line) for line in report
    ]
    return [(float(m[1]), m[2]) for m in found if m]


def test_cg_bot_answers_its_first_turn_with_the_policy_while_its_search_loads() -> None:
    # A first-turn deadline that start-up always misses: the bot answers the moment it can
    # read the position (with the playout policy), not after loading the search; the search
    # plays the later turns once it has loaded on its own thread.
    # (The host allows four times the arena's time: on a loaded machine the import alone has
    # taken 1.4 s, and this test is about whom the bot asks, not about the arena's clock.)
    _out, report = _host_with_no_start_up_grace("--first-margin-ms", "1000", relax=4)
    ready = _ready_ms(report)
    who = [by for _, by in _turns(report)]
    first_ms = _turns(report)[0][0]
    assert who[0] == "the policy (the search is loading)", report
    assert first_ms < ready + 200, report  # no waiting once it could answer
    searched = [i for i, by in enumerate(who) if by == "the search"]
    assert searched, report  # it loaded, and took over ...
    assert all(not by.startswith("the policy") for by in who[searched[0] :]), report  # for good


def test_cg_bot_waits_for_its_search_on_the_first_turn_only_until_its_deadline() -> None:
    # The arena's start, default settings: the first answer is due by 700 ms after the spawn
    # (the limit, 1000 ms, less the 300 ms first-turn margin); the bot answers by then, or as
    # soon as it can read the position when start-up alone takes longer (a busy machine).
    # (Three times the arena's time: under a full test run the bot's imports alone have taken
    # 1.3 s, and a forfeit there says nothing about when it answers.)
    relax = 3
    out, report = _host_with_no_start_up_grace(relax=relax)
    ready = _ready_ms(report)
    first_ms, first_by = _turns(report)[0]
    assert first_ms < max(700.0, ready) + 100, report
    assert first_by.startswith(("the search", "the policy")), report
    times = re.search(r"player 0 .*: \d+ answers, first (\d+) ms", out)
    limit_ms = 1000 * codingame.FIRST_TURN_SECONDS * relax  # the host's (relaxed) limit
    assert times is not None and int(times[1]) < limit_ms, out


def test_cg_bot_plays_the_policy_until_its_search_is_loaded() -> None:
    # In-process: a loader that has not loaded yet leaves the turn to the policy, at once when
    # the deadline has passed; once the search is marked loaded the search answers.
    agent = MCTSAgent(seed=1, exact_endgame=False)
    loader = cg_bot.SearchLoader(agent)  # never started: the search never loads by itself
    bot = cg_bot.CodinGameBot(agent, 20.0, 20.0, 30.0, fallback=PolicyAgent(seed=1), loader=loader)
    state = pw.new_game(seed=2, rules=RULES)
    lines = iter(codingame.init_lines(RULES) + codingame.turn_lines(state, []))
    codingame.read_init(lambda: next(lines))
    view = codingame.read_turn(lambda: next(lines))
    started = time.perf_counter() - 2.0  # the first turn's deadline has passed
    line = bot.answer(view, started)
    assert time.perf_counter() - started < 2.5
    assert bot.fallback_turns == 1 and "%" not in line  # the policy sends no win estimate
    command = codingame.parse_command(line)
    assert command is not None
    move, note = codingame.referee_move(command, state)
    assert note is None  # played as written
    assert move in state.legal_moves()
    bot.answered()
    assert bot.expected == state.apply(move)
    assert loader.first_answer.is_set()  # the endgame search may load now
    loader.search.set()
    bot2 = cg_bot.CodinGameBot(agent, 20.0, 20.0, 30.0, fallback=PolicyAgent(seed=1), loader=loader)
    line = bot2.answer(view, time.perf_counter())
    assert bot2.fallback_turns == 0 and line.endswith("%")  # the search's win estimate
    agent.close()


def test_cg_bot_start_up_skips_numba_s_probe_for_scipy_s_linear_algebra() -> None:
    # Numba's set-up imports SciPy's BLAS where SciPy is installed (a quarter second of a first
    # turn); the bot's start-up tells the probe there is none, and only for that while.
    script = (
        "import sys\n"
        "from patchwork.ai.warmup import numba_without_blas_probe\n"
        "from patchwork.protocol import cg_bot\n"
        "from patchwork.ai import PolicyAgent\n"
        "with numba_without_blas_probe():\n"
        "    cg_bot.rehearse(PolicyAgent(seed=0))\n"
        "print('numba.np.arraymath' in sys.modules, 'scipy.linalg' in sys.modules)\n"
        "print('scipy.linalg.cython_blas' in sys.modules)\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["True", "False", "False"]  # set up, no SciPy, nothing left


GARBAGE = [
    (b"9\n5 11 17\n", "incomeTime"),
    (b"9\n5 11 17 23 29 35 41 47 53\n5\n20 26 32 44 50\n5 0 0\nO.O.O\n", "quilt row"),
    (b"\xff\xfe\x00garbage\n", "incomeEvents"),
    (b"9\n5 11 17 23 29 35 41 47 53\n5\n20 26 32 44 50\n5 0 0\n", "middle of turn 1"),
]


def test_cg_bot_refuses_garbage_input_with_a_message() -> None:
    command = [sys.executable, "-m", "patchwork.protocol.cg_bot", "--no-warmup"]
    bots = [
        subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for _ in GARBAGE
    ]  # all at once: each spends most of its time importing
    for bot, (stdin, message) in zip(bots, GARBAGE, strict=True):
        out, err = bot.communicate(stdin, timeout=60)
        assert bot.returncode == 1
        assert message in err.decode()
        assert out == b""


def test_cg_host_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.txt"
    code = cg_host.main(
        [simple("--seed 3"), "--vs", "level1", "--seat", "1", "--seed", "8",
         "--relax-time", "5", "--record", str(record)]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "result: finished" in out and "answers, first" in out
    assert "  1. P0 level1:" in out
    game = pw.Record.load(record).replay()
    assert game.state.is_terminal()
    assert cg_host.main(["--relax-time", "0.5", "x"]) == 2
    assert cg_host.main(["/nonexistent/bot"]) == 1
