"""The engine protocol keeps its word (issue 40, items 1-4 and 11): ``go infinite`` grows one
tree until ``stop``, an iteration count is the total over the processes, a malformed
``setoption`` is refused as malformed, ``quit`` answers nothing, and the Python client lists
legal moves, shows positions and streams an analysis."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

import patchwork as pw
from engine_session import Session
from patchwork.ai import Limit, MCTSAgent, SearchResult
from patchwork.ai.warmup import warm_up_search
from patchwork.protocol import Engine, EngineError, Info

ENGINE = [sys.executable, "-m", "patchwork.protocol.engine_server"]


@pytest.fixture(scope="module", autouse=True)
def compiled_code_cached() -> None:
    warm_up_search(pw.Rules())


def test_go_infinite_grows_one_tree_until_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 1: the search ran in 1 s slices, and a slice could start a fresh tree, so the
    answer after stop reflected only the last slice. Now it is one search, stopped by stop."""
    session = Session()
    session.send("setoption name Level value level8", "position seed 11")
    agent = session.server._get_agent()
    assert isinstance(agent, MCTSAgent)
    searches: list[SearchResult] = []

    def counted(*args: Any, search: Any = agent.search, **kwargs: Any) -> SearchResult:
        searches.append(search(*args, **kwargs))
        return searches[-1]

    monkeypatch.setattr(agent, "search", counted)
    session.send("go infinite")
    time.sleep(1.6)
    session.send("stop")
    lines = session.wait_for("bestmove")
    infos = [Info.parse(line) for line in lines if line.startswith("info")]
    assert len(searches) == 1
    nodes = [i.nodes for i in infos if i.nodes is not None]
    assert nodes == sorted(nodes) and nodes[-1] > 100  # the tree never shrank
    assert infos[-1].pv[0] == lines[-1].split()[1]
    session.close()


@pytest.mark.parametrize("line", ["setoption Level level8", "setoption name Level level8"])
def test_a_malformed_setoption_is_refused_as_malformed(line: str) -> None:
    """Item 3: 'setoption name Level level8' was taken for an option named 'Level level8'."""
    session = Session()
    (answer,) = session.send(line)
    assert answer.startswith("error setoption: write 'setoption name NAME value VALUE', not ")
    assert session.server.values["level"] == "level11"


def test_quit_during_a_search_answers_nothing() -> None:
    """Item 4: quit stops the search and exits without its bestmove."""
    session = Session()
    session.send("setoption name Level value level8", "position seed 2", "go infinite")
    time.sleep(0.3)
    session.new_lines()
    assert session.server.handle("quit") is False
    session.server.shutdown()
    assert session.new_lines() == []


@pytest.fixture(scope="module")
def level13() -> Iterator[Engine]:
    """Our engine at the top level: two processes search together."""
    with Engine.popen(ENGINE, options={"Level": "level13", "Seed": 3}) as engine:
        yield engine


def test_an_iteration_count_is_the_total_over_processes(level13: Engine) -> None:
    """Item 2: the top level searched the count on each of its two processes (twice as many)."""
    report = level13.analyse(pw.new_game(seed=5), Limit(iterations=301))
    assert report.iterations == 301


def test_streaming_analysis_until_stop(level13: Engine) -> None:
    """Item 11 (and item 1 with helper processes): info lines as the search goes, and leaving
    the block stops it at once, helpers too; the engine is then free again."""
    state = pw.new_game(seed=6)
    seen: list[Info] = []
    with level13.analysis(state) as search:
        for info in search:
            seen.append(info)
            with pytest.raises(EngineError, match="still searching"):
                level13.legal(state)  # refused, and the engine is not harmed
            if len(seen) == 2:
                stopped = time.monotonic()
                break
    assert time.monotonic() - stopped < 3  # the helper process stopped too
    assert search.result is not None and state.is_legal(search.result.best_move)
    assert search.infos[:2] == seen and search.result.infos == search.infos
    nodes = [i.nodes for i in search.infos if i.nodes is not None]
    assert nodes == sorted(nodes)
    bounded = level13.analysis(state, Limit(iterations=200))
    assert list(bounded)[-1].iterations == 200 and bounded.wait().iterations == 200


def test_legal_and_show_report_what_the_engine_read(level13: Engine) -> None:
    """Item 11: ``legal`` and ``show`` from Python, checked against the rules."""
    state = pw.new_game(seed=7).apply(pw.Advance())
    assert level13.legal(state) == state.legal_moves()
    shown = level13.show(state)
    assert shown.text == state.to_text() and shown.to_move == state.current_player
    assert shown.winner is None and shown.scores == tuple(state.scores())
    end = pw.State.from_text(
        "revised:rf 5,8,0 53,10,3,9/9/9/9/9/9/9/9/9 53,2,2,9/9/9/9/9/9/9/9/9 0 - 1 - -"
    )
    assert level13.show(end) == type(shown)(end.to_text(), None, 0, (-152, -160))
    assert level13.legal(end) == []
