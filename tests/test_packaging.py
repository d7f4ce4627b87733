"""``make dist``'s wheel and sdist install cleanly into a fresh virtual environment and run.

No index is reached: the wheel is built from the sdist with the backend installed here, and
the fresh environment sees this one's packages only through a path file added after the wheel
went in (so the wheel is installed, not this checkout), where pip finds every dependency met.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SITE_PACKAGES = sysconfig.get_paths()["purelib"]  # this environment's packages


def run(*args: str | Path, stdin: str | None = None, **env: str) -> str:
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | env
    done = subprocess.run(
        [str(a) for a in args],
        input=stdin,
        capture_output=True,
        text=True,
        env=environ,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="the venv layout is POSIX's")
def test_the_wheel_and_sdist_install_cleanly_in_a_fresh_venv(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    run(sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, ROOT)
    (wheel,) = dist.glob("patchwork_game-*-py3-none-any.whl")
    (sdist,) = dist.glob("patchwork_game-*.tar.gz")
    assert sdist.stat().st_size > 0
    files = set(zipfile.ZipFile(wheel).namelist())
    for data in (
        "engine/data/patches.json",
        "i18n/locale/de/LC_MESSAGES/patchwork.mo",
        "ai/rollout_weights.json",
        "ai/value_weights.npz",
        "ai/solo_value_weights.npz",
    ):
        assert f"patchwork/{data}" in files  # not only the modules
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    pip = (sys.executable, "-m", "pip", "--python", python, "install", "--no-index", "-q")
    run(*pip, "--no-deps", wheel)
    (site,) = (venv / "lib").glob("python*/site-packages")
    (site / "dependencies.pth").write_text(SITE_PACKAGES + "\n")
    run(*pip, f"{wheel}[rl]")  # fails if any dependency is missing: there is no index

    assert run(venv / "bin" / "patchwork", "--version").startswith("patchwork-game ")
    plain = {"NUMBA_DISABLE_JIT": "1"}  # the rules as plain Python: no compiling into a new cache
    where = run(python, "-c", "import patchwork; print(patchwork.__file__)", **plain)
    assert where.startswith(str(site))
    session = "patchwork\nposition seed 7\nlegal\nshow\nquit\n"
    answer = run(venv / "bin" / "patchwork", "engine", stdin=session, **plain).splitlines()
    assert "patchworkok" in answer
    legal = next(line for line in answer if line.startswith("legal "))
    assert "A" in legal.split()[1:]
    assert any(line.startswith("status tomove 0") for line in answer)
