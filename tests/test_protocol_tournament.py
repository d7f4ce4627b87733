"""Tournaments seat programs that speak the engine protocol: ``cmd:COMMAND`` players."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

import patchwork as pw
from patchwork.ai import Limit
from patchwork.ai.warmup import warm_up_search
from patchwork.protocol.agent import EngineAgent
from patchwork.tournament import build_agent, main, run_tournament

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
