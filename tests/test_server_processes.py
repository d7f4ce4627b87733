"""No server leaves a process behind: however it ends (stopped, or killed mid-search), its AI
workers, their searchers' own pools, the forkserver and the resource trackers end with it."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.register_assert_rewrite("server_fixtures")

import processes  # noqa: E402
from server_fixtures import ServerProcess, eventually, legal_moves  # noqa: E402

pytest_plugins = ["server_fixtures"]


@pytest.fixture
def server_tmp() -> Iterator[Path]:
    """A temporary folder for a server (its AI workers' forkserver makes a socket there)."""
    with processes.socket_folder("pwsrv-") as folder:
        yield folder


@pytest.fixture
def ai_server(tmp_path: Path, server_tmp: Path) -> Iterator[ServerProcess]:
    """A server (not started) whose one AI worker starts with it, as before --ai-on-demand
    (what these tests check), with ``server_tmp`` as its temporary folder: nothing may stay
    there. Stopped afterwards, whatever the test did to it."""
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'games.db'}", tmp_path, "--ai-workers", "1", ai_on_demand=False
    )
    server.env["TMPDIR"] = str(server_tmp)
    try:
        yield server
    finally:
        server.stop()


def _tree(server: ServerProcess) -> dict[int, str]:
    assert server.proc is not None
    return {p.pid: p.cmdline for p in processes.descendants(server.proc.pid)}


def _with_search_pool(server: ServerProcess) -> dict[int, str]:
    """The server's processes, once they include a searcher's pool (the top level has one). A
    new AI worker loads the compiled engine first: on a loaded two-core machine (the suite runs
    on two processes) that took over 20 s once, and a CI run once waited more than 60 s with
    the forkserver up and no worker yet, so the wait is very generous and a failure says what
    the server logged."""
    deadline = time.monotonic() + 150
    while True:
        tree = _tree(server)
        if any("spawn_main" in cmd for cmd in tree.values()) or time.monotonic() > deadline:
            assert any("spawn_main" in cmd for cmd in tree.values()), f"{tree}\n{server.log()}"
            return tree
        time.sleep(0.1)  # processes starting: there is no event to await from here


def _assert_all_end(tree: dict[int, str]) -> None:
    left = processes.wait_gone(set(tree), timeout=15)
    assert not left, "\n".join(f"{pid}: {tree[pid][:160]}" for pid in sorted(left))


def _top_level_game(server: ServerProcess) -> tuple[str, str, dict[str, object]]:
    created = server.create(mode="ai", level=13)  # the top level searches with a pool of its own
    return created["game_id"], created["token"], created["game"]


def test_the_ai_processes_start_with_the_server_or_when_first_needed(tmp_path: Path) -> None:
    # By default they start with the server, so that the first AI move does not wait for them.
    eager = ServerProcess(f"sqlite:///{tmp_path / 'eager.db'}", tmp_path, ai_on_demand=False)
    eager.start()
    try:
        eventually(lambda: any("forkserver" in cmd for cmd in _tree(eager).values()), 60)
    finally:
        eager.stop()
    # With --ai-on-demand (as the suite's servers run), only when a request needs them.
    server = ServerProcess(f"sqlite:///{tmp_path / 'on-demand.db'}", tmp_path)
    server.start()
    try:
        local = server.create(mode="local")
        with server.client(local["game_id"], local["token"]) as c:
            assert c.move(legal_moves(local["game"])[0])["type"] == "ack"
        time.sleep(1)  # (with the server, they would be starting by now)
        assert _tree(server) == {}
        ai = server.create(mode="ai", level=1)
        with server.client(ai["game_id"], ai["token"]) as c:
            assert c.move(legal_moves(ai["game"])[0])["type"] == "ack"
            c.wait_game(lambda g: g["to_move"] == 0 or g["status"] == "finished", timeout=60)
        assert any("forkserver" in cmd for cmd in _tree(server).values())
    finally:
        server.stop()


def test_a_stopped_or_killed_server_leaves_no_process(
    ai_server: ServerProcess, server_tmp: Path
) -> None:
    server = ai_server.start()
    gid, token, game = _top_level_game(server)
    with server.client(gid, token) as c:
        assert c.move(legal_moves(game)[0])["type"] == "ack"
        c.wait_game(lambda g: g["to_move"] == 0 or g["status"] == "finished", timeout=30)
    tree = _with_search_pool(server)
    assert any("forkserver" in cmd for cmd in tree.values()), tree
    server.stop()  # SIGTERM: the server shuts its AI pool down
    _assert_all_end(tree)
    # ...releases what the pool shared with it (else the resource tracker warns of
    # "leaked semaphore objects" on the way out), removes the pool's folder of the
    # temporary folder, and ends as a stop asked for.
    assert "leaked" not in server.log(), server.log()
    assert not list(server_tmp.iterdir())
    assert server.proc is not None and server.proc.returncode == 0, server.log()

    server.start()
    gid, token, game = _top_level_game(server)
    with server.client(gid, token) as c:
        assert c.move(legal_moves(game)[0])["type"] == "ack"
        tree = _with_search_pool(server)  # the AI thinks for five seconds
        # An AI worker terminated (as a broken pool terminates the others) takes its
        # searcher's pool with it; the server starts a new pool and the AI still moves.
        procs = processes.snapshot()
        searchers = [p for p in procs.values() if p.pid in tree and "spawn_main" in p.cmdline]
        worker = procs[searchers[0].ppid]
        os.kill(worker.pid, signal.SIGTERM)
        _assert_all_end({p.pid: p.cmdline for p in [worker, *searchers]})
        c.wait_game(lambda g: g["to_move"] == 0 or g["status"] == "finished", timeout=60)
        assert c.move(legal_moves(c.game or {})[0])["type"] == "ack"
        tree = _with_search_pool(server)
        server.kill()  # SIGKILL in the middle of the search: no shutdown code runs
    _assert_all_end(tree)


def test_ctrl_c_stops_the_server_quietly(ai_server: ServerProcess, server_tmp: Path) -> None:
    server = ai_server.start()
    assert server.proc is not None
    # Ctrl-C once the AI worker is up (forked by the forkserver, whose socket is in a
    # folder of the temporary folder).
    tree = eventually(
        lambda: (t := _tree(server)) and sum("forkserver" in c for c in t.values()) >= 2 and t,
        150,
    )
    server.proc.send_signal(signal.SIGINT)
    assert server.proc.wait(15) == 0, server.log()
    _assert_all_end(tree)
    assert "Traceback" not in server.log() and "leaked" not in server.log(), server.log()
    assert not list(server_tmp.iterdir())
