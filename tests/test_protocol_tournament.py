"""Tournaments seat programs that speak the engine protocol: ``cmd:COMMAND`` players."""

from __future__ import annotations

import json
import math
import shlex
import sys
from pathlib import Path

import pytest

import patchwork as pw
from patchwork.ai import Limit
from patchwork.ai.warmup import warm_up_search
from patchwork.protocol.agent import EngineAgent
from patchwork.tournament import TournamentError, build_agent, main, run_tournament

BOTS = Path(__file__).parent / "bots"
ENGINE = f"cmd:{shlex.quote(sys.executable)} -m patchwork.protocol.engine_server"
FAKE = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(BOTS / 'fake_engine.py'))}"


@pytest.fixture(scope="module", autouse=True)
def compiled_code_cached() -> None:
    warm_up_search(pw.Rules())


def test_an_engine_program_plays_a_tournament() -> None:
    result = run_tournament(
        [ENGINE, "greedy"], games=2, limit=Limit(iterations=40), seed=3, progress=False
    )
    assert len(result.games) == 2
    assert result.labels == [ENGINE, "greedy"]
    for game in result.games:
        replay = pw.Game(pw.new_game(circle=game.spec.circle))
        for move in game.moves:
            replay.push(move)
        assert replay.state.is_terminal() and replay.state.winner() == game.winner
    seats = {game.spec.seats for game in result.games}
    assert seats == {(0, 1), (1, 0)}


def test_engine_agents_are_built_reseeded_and_closed() -> None:
    agent = build_agent(ENGINE, seed=4)
    assert isinstance(agent, EngineAgent) and agent.name == ENGINE
    state = pw.new_game(seed=5)
    try:
        first = agent.choose(state, Limit(iterations=50))
        agent.reseed(4)
        assert agent.choose(state, Limit(iterations=50)) == first  # a seeded, fresh game
    finally:
        agent.close()
    agent.close()  # closing twice is harmless


def test_an_engine_that_fails_stops_the_tournament_before_any_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(pw.PatchworkError, match="cannot start"):
        run_tournament(["cmd:/nonexistent/engine", "greedy"], games=2, progress=False)
    code = main([f"{FAKE} --mode nonsense", "greedy", "--games", "2"])
    assert code == 2
    assert "answered nonsense: 'HELLO I AM A TOASTER'" in capsys.readouterr().err


def _commands(log: Path) -> list[str]:
    return [line.split()[0] for line in log.read_text().splitlines() if line.split()]


def test_every_game_begins_with_newgame_the_first_one_too(tmp_path: Path) -> None:
    log = tmp_path / "engine.log"
    agent = build_agent(f"{FAKE} --mode slow --delay 0 --log {shlex.quote(str(log))}", seed=4)
    state = pw.new_game(seed=5)
    try:
        for seed in (6, 7):
            assert agent.choose(state) == pw.Advance()
            agent.reseed(seed)
    finally:
        agent.close()
    games = [c for c in _commands(log) if c in ("newgame", "position")]
    assert games == ["newgame", "position", "newgame", "position", "newgame"]


def test_a_late_engine_forfeits_and_the_tournament_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--time is enforced for programs: an answer later than the time and the margin loses
    that game (here the second move of every game: 0.4 s for 0.1 s), the report counts it."""
    log = tmp_path / "engine.log"
    slow = f"{FAKE} --mode slow --delay 0.4 --log {shlex.quote(str(log))}"
    out = tmp_path / "games.json"
    monkeypatch.setenv("COLUMNS", "400")  # a console wide enough for the long command
    assert main([slow, "random", "--games", "2", "--time", "0.1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    header = next(line for line in printed.splitlines() if line.split()[:2] == ["player", "games"])
    assert header.split()[-1] == "forfeits"
    assert f"{slow} forfeited 2 game(s)" in printed
    data = json.loads(out.read_text())
    assert [p["forfeits"] for p in data["summary"]["players"]] == [2, 0]
    for game in data["games"]:
        assert game["winner_name"] == "random" and "answered after 0.4" in game["forfeit"]
        assert game["moves_made"][game["players"].index(slow)] == 1  # its first move counted
    played = _commands(log)[_commands(log).index("quit") + 1 :]  # after the check at the start
    assert [c for c in played if c in ("newgame", "position")][:1] == ["newgame"]
    assert played.count("newgame") == 2


def test_an_engine_that_crashes_forfeits_and_is_started_again(tmp_path: Path) -> None:
    crash = f"{FAKE} --mode crash"
    result = run_tournament([crash, "random"], games=2, seed=1, progress=False)
    assert [g.winner_player for g in result.games] == [1, 1]
    assert all("segmentation fault (pretend)" in (g.forfeit or "") for g in result.games)
    assert [p.forfeits for p in result.summary().players] == [2, 0]
    assert all(math.isnan(p.mean_margin) for p in result.summary().players)  # no game ended


def test_stop_on_fault_ends_the_tournament_at_the_first_failure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    slow = f"{FAKE} --mode slow --delay 0.4"
    assert main([slow, "random", "--games", "2", "--time", "0.1", "--stop-on-fault"]) == 1
    assert "game 1, move" in capsys.readouterr().err
    with pytest.raises(TournamentError, match="segmentation fault"):
        run_tournament([f"{FAKE} --mode crash", "random"], 2, progress=False, stop_on_fault=True)
