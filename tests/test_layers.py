"""The layers of the package, read from its import graph (grimp, which import-linter uses).

The engine imports no other part of the package and nothing beyond numpy and numba; inside
it, the core never imports its satellites (the position text, the game history, records,
compiled playouts, what a view leaves out), and no modules import each other in a circle.
The terminal app's screen does not import the app that shows it.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterable

import grimp
import pytest

ENGINE = "patchwork.engine"
CORE = {"data", "errors", "lending", "layout", "tables", "kernels", "rules", "moves", "state"}
SATELLITES = {"position", "game", "record", "playout", "hidden", "play"}


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    """Every import, type-only ones (under TYPE_CHECKING) included."""
    return grimp.build_graph("patchwork", include_external_packages=True, cache_dir=None)


@pytest.fixture(scope="module")
def runtime_graph() -> grimp.ImportGraph:
    """The imports that run: type-only ones left out."""
    return grimp.build_graph("patchwork", exclude_type_checking_imports=True, cache_dir=None)


def engine_modules(graph: grimp.ImportGraph) -> set[str]:
    return {m for m in graph.modules if m == ENGINE or m.startswith(ENGINE + ".")}


def imports_of(graph: grimp.ImportGraph, module: str) -> set[str]:
    return set(graph.find_modules_directly_imported_by(module))


def cycles(graph: grimp.ImportGraph, modules: Iterable[str]) -> list[list[str]]:
    """The strongly connected components of more than one module among ``modules``."""
    inside = set(modules)
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        order[v] = low[v] = len(order)
        stack.append(v)
        for w in imports_of(graph, v) & inside:
            if w not in order:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], order[w])
        if low[v] == order[v]:
            component = [stack.pop()]
            while component[-1] != v:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(inside):
        if module not in order:
            visit(module)
    return found


def test_the_engine_imports_no_other_part_of_the_package(graph: grimp.ImportGraph) -> None:
    engine = engine_modules(graph)
    for module in sorted(engine):
        inside_package = {m for m in imports_of(graph, module) if m.split(".")[0] == "patchwork"}
        assert inside_package <= engine, f"{module} imports {sorted(inside_package - engine)}"


def test_the_engine_uses_only_numpy_and_numba(graph: grimp.ImportGraph) -> None:
    external = {m for m in graph.modules if graph.is_module_squashed(m)}
    for module in sorted(engine_modules(graph)):
        used = imports_of(graph, module) & external
        allowed = {"numpy", "numba", *sys.stdlib_module_names}
        assert used <= allowed, f"{module} imports {sorted(used - allowed)}"


def test_the_core_never_imports_a_satellite(graph: grimp.ImportGraph) -> None:
    # Type-only imports count too: the core must not even name a satellite.
    satellites = {f"{ENGINE}.{name}" for name in SATELLITES}
    for name in sorted(CORE):
        module = f"{ENGINE}.{name}"
        assert not imports_of(graph, module) & satellites, module


def test_every_engine_module_is_a_core_module_or_a_satellite(graph: grimp.ImportGraph) -> None:
    # A new module must be placed on one side of the line above.
    names = {m.removeprefix(ENGINE + ".") for m in engine_modules(graph) if m != ENGINE}
    assert names == CORE | SATELLITES


def test_the_engine_has_no_import_cycle(runtime_graph: grimp.ImportGraph) -> None:
    assert cycles(runtime_graph, engine_modules(runtime_graph)) == []


def test_the_only_type_only_import_that_points_up_is_game_naming_record(
    graph: grimp.ImportGraph, runtime_graph: grimp.ImportGraph
) -> None:
    # Game.to_record returns a Record: game names the class for the type checker only, and
    # record lends it at run time (see engine/lending.py).
    assert cycles(graph, engine_modules(graph)) == [[f"{ENGINE}.game", f"{ENGINE}.record"]]
    assert not runtime_graph.direct_import_exists(
        importer=f"{ENGINE}.game", imported=f"{ENGINE}.record"
    )


def test_the_package_has_no_import_cycle_at_run_time(runtime_graph: grimp.ImportGraph) -> None:
    modules = {m for m in runtime_graph.modules if m.split(".")[0] == "patchwork"}
    assert cycles(runtime_graph, modules) == []


def test_the_game_screen_does_not_import_the_app(graph: grimp.ImportGraph) -> None:
    assert not graph.direct_import_exists(
        importer="patchwork.tui.game_screen", imported="patchwork.tui.app"
    )
    assert cycles(graph, {m for m in graph.modules if m.startswith("patchwork.tui.")}) == []


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
