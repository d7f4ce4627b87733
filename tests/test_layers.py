"""What the import contracts in ``.importlinter`` cannot say by themselves.

``make lint`` runs import-linter over those contracts (the layers, no import cycles, the
engine's core never importing its satellites). These tests add: the engine uses nothing
beyond numpy, numba and the standard library (an allow-list, which import-linter's forbidden
contracts cannot express); every engine module is placed on one side of the core/satellite
line; and the satellites' lending (engine/lending.py) works once any engine module is loaded.
"""

from __future__ import annotations

import configparser
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ENGINE = "patchwork.engine"
CONTRACTS = Path(__file__).resolve().parents[1] / ".importlinter"


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("patchwork", include_external_packages=True, cache_dir=None)


def engine_modules(graph: grimp.ImportGraph) -> set[str]:
    return {m for m in graph.modules if m.startswith(ENGINE + ".")}


def core_contract() -> tuple[set[str], set[str]]:
    """The core and satellite modules as the engine-core contract lists them."""
    config = configparser.ConfigParser()
    config.read(CONTRACTS)
    section = config["importlinter:contract:engine-core"]
    return set(section["source_modules"].split()), set(section["forbidden_modules"].split())


def test_the_engine_uses_only_numpy_and_numba(graph: grimp.ImportGraph) -> None:
    external = {m for m in graph.modules if graph.is_module_squashed(m)}
    allowed = {"numpy", "numba", *sys.stdlib_module_names}
    for module in sorted(engine_modules(graph)):
        used = set(graph.find_modules_directly_imported_by(module)) & external
        assert used <= allowed, f"{module} imports {sorted(used - allowed)}"


def test_every_engine_module_is_a_core_module_or_a_satellite(graph: grimp.ImportGraph) -> None:
    # A new engine module must be placed on one side of the line in .importlinter.
    core, satellites = core_contract()
    assert not core & satellites
    assert engine_modules(graph) == core | satellites


def test_a_satellite_lends_its_service_to_the_core_when_it_loads() -> None:
    from patchwork.engine.lending import Lent

    slot: Lent[int] = Lent("patchwork.engine.example")
    with pytest.raises(RuntimeError, match="is not loaded: import it first"):
        slot()
    slot.lend(3)
    assert slot() == 3
    # Importing any engine module loads the package, and with it every lender.
    code = (
        "from patchwork.engine.game import Game\n"
        "from patchwork.engine.state import State, new_game\n"
        "s = new_game(seed=1)\n"
        "assert State.from_text(s.to_text()) == s\n"
        "assert Game.from_record(Game(s).to_record()).state == s\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


# -- the server's domains ---------------------------------------------------------------------

SERVER = Path(__file__).resolve().parents[1] / "src" / "patchwork" / "server"
ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"


def server_packages() -> set[str]:
    return {p.parent.name for p in SERVER.glob("*/__init__.py")}


def test_the_server_is_cut_into_domains() -> None:
    assert {"games", "accounts", "lobby", "ratings", "reviews", "storage", "http"} <= (
        server_packages()
    )
    loose = sorted(p.name for p in SERVER.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "run.py"]  # every other module has a home


def test_the_architecture_page_names_every_server_package() -> None:
    text = ARCHITECTURE.read_text()
    missing = [p for p in sorted(server_packages()) if f"`{p}/`" not in text]
    assert missing == [], f"docs/architecture.md does not name the server packages {missing}"


def test_every_server_package_has_its_place_in_the_layers() -> None:
    config = configparser.ConfigParser()
    config.read(CONTRACTS)
    section = config["importlinter:contract:server"]
    assert section["containers"].strip() == "patchwork.server"
    placed = {
        name.strip(" ()")
        for row in section["layers"].split("\n")
        for name in row.split("|")
        if name.strip()
    }
    assert server_packages() | {"run"} == placed


def test_no_server_module_grows_far_beyond_500_lines() -> None:
    long = {
        str(f.relative_to(SERVER)): n
        for f in SERVER.rglob("*.py")
        if (n := len(f.read_text().splitlines())) > 550
    }
    assert long == {}
