"""Tournaments and reviews on Ray (``--ray``): the same games and the same review as with
``--workers``, a clean Ctrl-C, and clear errors when Ray is missing or the cluster cannot be
reached. One local Ray of two CPUs serves the whole module (started once, its processes gone
at the end); the commands run in this process use it, a command run as its own process
joins it by address."""

from __future__ import annotations

import contextlib
import json
import os
import pty
import re
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import patchwork as pw
import processes
from patchwork import i18n
from patchwork.ai import GreedyAgent, Limit, RandomAgent
from patchwork.ai.review import review
from patchwork.parallel import open_executor
from patchwork.report.cli import main as review_main
from patchwork.tournament import main as tournament_main
from patchwork.tournament import run_tournament

PLAYERS = ["greedy", "mcts@iterations=50"]
MISSING = "install patchwork-game[cluster] for --ray"


def _ray_processes(temp: str) -> list[str]:
    """The command lines of the processes of the Ray whose files are under ``temp``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if temp in cmdline:
            found.append(cmdline)
    return found


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A local Ray of two CPUs for the module; yields its address."""
    import ray  # here, not at collection: the other test modules run without it loaded

    # Ray's socket paths are this folder and 60-odd characters of its own.
    environment = dict(os.environ)  # ray.init sets variables of its own (PYTHONBREAKPOINT)
    with processes.socket_folder("pwray-") as folder, pytest.MonkeyPatch.context() as env:
        temp = str(folder)
        # A Ray of this machine for a test: no token written to the home folder.
        env.setenv("RAY_AUTH_MODE", "disabled")
        env.setenv("RAY_USAGE_STATS_ENABLED", "0")
        ray.init(
            address="local",
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            logging_level="ERROR",
            _temp_dir=temp,
        )
        try:
            yield ray.get_runtime_context().gcs_address
        finally:
            ray.shutdown()
            os.environ.clear()
            os.environ.update(environment)
            deadline = time.monotonic() + 20
            while _ray_processes(temp) and time.monotonic() < deadline:
                time.sleep(0.2)
            left = _ray_processes(temp)
            assert not left, f"Ray processes left behind: {left}"


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def _games(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A results file's games without their timings (the only thing allowed to differ)."""
    return [{k: v for k, v in g.items() if k != "seconds"} for g in data["games"]]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = pw.Game(pw.new_game(seed=4))
    agents = (GreedyAgent(seed=1), RandomAgent(seed=2))
    while not game.state.is_terminal():
        game.push(agents[game.state.current_player].choose(game.state))
    path = tmp_path_factory.mktemp("ray") / "game.json"
    pw.Record.from_game(game, players=("Greedy", "Random")).save(path)
    return path


# -- the same results -------------------------------------------------------------------------


def test_a_tournament_on_ray_plays_the_same_games_as_on_workers(
    cluster: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # (The same on one worker as on several: tests/test_tournament.py.)
    here = run_tournament(PLAYERS, 4, seed=3, workers=1, progress=False)
    path = tmp_path / "ray.json"
    argv = [*PLAYERS, "--games", "4", "--seed", "3", "--ray", "--out", str(path)]
    assert tournament_main(argv) == 0
    err = capsys.readouterr().err
    assert "games" in err and "4/4" in err  # the progress line, as with --workers
    on_ray = json.loads(path.read_text("utf-8"))
    assert _games(on_ray) == _games(here.to_dict())
    assert [p["wins"] for p in on_ray["summary"]["players"]] == here.wins()
    assert on_ray["settings"]["workers"] == 2  # one a CPU of the cluster


def test_a_review_on_ray_is_the_review_on_workers(
    cluster: str, record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # (The same on one worker as on several: tests/test_review.py.)
    expected = review(pw.Record.load(record_file), Limit(iterations=200), seed=7)
    argv = [str(record_file), "--json", "--iterations", "200", "--seed", "7", "--ray"]
    assert review_main(argv) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(expected.to_dict()))
    assert len(expected.plies) > 20


def test_ctrl_c_stops_a_tournament_on_a_cluster_joined_by_address(
    cluster: str, tmp_path: Path
) -> None:
    # The command as its own process in a terminal, joining the module's Ray by its address;
    # Ctrl-C goes to the terminal's whole process group, as a key press would send it.
    path = tmp_path / "stopped.json"
    command = [sys.executable, "-m", "patchwork", "tournament", "greedy", "policy"]
    command += ["--games", "4000", "--ray", cluster, "--out", str(path)]
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        processes.ctrl_c_live()
        os.execv(sys.executable, command)
    seen = b""
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if select.select([fd], [], [], 0.2)[0]:
                seen += os.read(fd, 65536)
            done = [int(n) for n in re.findall(rb"(\d+)/4000", seen)]
            if done and max(done) >= 20:
                break
        else:
            raise AssertionError(f"no games came back: {seen[-2000:]!r}")
        os.killpg(os.getpgid(pid), signal.SIGINT)
        deadline = time.monotonic() + 150  # generous: a busy CI machine stops Ray slowly
        status = None
        while time.monotonic() < deadline:
            if select.select([fd], [], [], 0.2)[0]:
                with contextlib.suppress(OSError):  # the terminal closes with the command
                    seen += os.read(fd, 65536)
            finished, status = os.waitpid(pid, os.WNOHANG)
            if finished:
                break
        else:
            os.kill(pid, signal.SIGKILL)
            shown = seen[-1500:].decode("utf-8", "replace")
            raise AssertionError(f"the command did not stop after Ctrl-C; it wrote: {shown}")
    finally:
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 130
    text = seen.decode("utf-8", "replace")
    assert "interrupted after" in text and "Traceback" not in text
    data = json.loads(path.read_text("utf-8"))
    assert data["settings"]["interrupted"] is True
    assert 20 <= len(data["games"]) < 4000
    # The games kept are the ones these seeds give anywhere (a game depends on its number).
    kept = [g for g in data["games"] if g["index"] < 4]
    small = run_tournament(["greedy", "policy"], 4, progress=False).to_dict()
    assert kept and _games({"games": kept}) == [
        g for g in _games(small) if g["index"] in {k["index"] for k in kept}
    ]


# -- errors -----------------------------------------------------------------------------------


def test_without_ray_installed_ray_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    record_file: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what `import ray` meets without the extra
    out = tmp_path / "r.json"
    assert tournament_main(["greedy", "policy", "--games", "2", "--ray", "--out", str(out)]) == 2
    assert MISSING in capsys.readouterr().err and not out.exists()
    page = tmp_path / "r.html"
    assert review_main([str(record_file), "--ray", "--html", str(page)]) == 2
    assert MISSING in capsys.readouterr().err and not page.exists()


@pytest.mark.parametrize(
    ("address", "says"),
    [
        ("127.0.0.1:{port}", "cannot reach the Ray cluster at 127.0.0.1:"),
        ("ray://127.0.0.1:{port}", "cannot reach the Ray cluster at ray://127.0.0.1:"),
        ("no-such-host.invalid:6379", "cannot reach the Ray cluster at no-such-host.invalid"),
        ("headnode", "headnode is not a Ray address: give auto, HOST:PORT or ray://HOST:PORT"),
    ],
)
def test_a_bad_address_is_a_clear_error_and_nothing_is_written(
    address: str, says: str, tmp_path: Path, record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    address = address.format(port=_closed_port())
    out = tmp_path / "r.json"
    started = time.monotonic()
    argv = ["greedy", "policy", "--games", "2", "--ray", address, "--out", str(out)]
    assert tournament_main(argv) == 2
    assert says in capsys.readouterr().err and not out.exists()
    page = tmp_path / "r.html"
    assert review_main([str(record_file), "--ray", address, "--html", str(page)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("patchwork review: ") and says in err and not page.exists()
    assert time.monotonic() - started < 20  # not Ray's own minutes of retries


def test_the_commands_start_without_importing_ray() -> None:
    code = (
        "import sys\n"
        "import patchwork.cli, patchwork.tournament.cli, patchwork.report.cli\n"
        "import patchwork.ai.review, patchwork.parallel\n"
        "assert 'ray' not in sys.modules, 'ray imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
    helps = [
        subprocess.run(
            [sys.executable, "-m", "patchwork", command, "--help"],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout
        for command in ("tournament", "review")
    ]
    for text in helps:
        assert "--ray [ADDRESS]" in text and "ray://HOST:PORT" in text


def test_an_error_in_the_work_comes_out_as_itself(cluster: str) -> None:
    # What a worker raised, not Ray's wrapper with a remote traceback in its text.
    with pytest.raises(pw.PatchworkError) as here:
        pw.State.from_text("no position")
    with open_executor(None, "local") as executor, pytest.raises(pw.PatchworkError) as there:
        list(executor.map_unordered(pw.State.from_text, ["no position"]))
    assert type(there.value) is type(here.value) and str(there.value) == str(here.value)
