"""The import graph (issue 29 item 4): no circle between modules, no climb without a reason.

Every ``import`` / ``from`` anywhere in a module counts -- at the top, inside a function (a lazy
import is still a dependency), under ``if TYPE_CHECKING:`` (a type is a dependency too) -- and
so does a literal module name given to ``importlib.import_module`` or
:class:`exactodds.lazy.LazyModule` (the facade's lazy public names are seen by its
``TYPE_CHECKING`` imports). A module name merely held as data (a game's ``cli`` module, which
the command line imports) is not an import of the module holding it. Relative imports
are resolved; ``from package import module`` is an edge to the module. Importing a module runs
its parent packages' ``__init__`` too, but that is not counted (else the facade's lazy public
names would tie it to every module). Computed names (f-strings) cannot be seen.

Two graphs are checked:

* **modules**: no cycle, of any length (the failure message names one);
* **floors**: each folder of ``exactodds/`` (``game``, ``engine``, ...), each top-level module
  (``version``, ``errors``, ``lazy``, ``parallel``, ...) and the facade ``exactodds`` (its
  ``__init__``) stands on one floor of :data:`FLOORS`; an import from a higher floor to a
  lower one is the rule, an import the other way (a *climb*) is allowed only where
  :data:`CLIMBS` names that exact module edge with its reason, and no two folders import each
  other (a two-way tie) but those :data:`KNOWN_TIES` lists for the lead to move. Both lists may
  only shrink: an entry no longer found fails, so that it is struck off.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "exactodds"

FLOORS: tuple[tuple[str, ...], ...] = (
    ("version", "errors"),
    ("exact", "inputs", "extras", "lazy", "parallel", "io"),
    ("game",),
    ("recount",),
    ("engine",),
    ("catalogue",),
    ("blackjack", "paigow"),
    ("figures",),
    ("spanish21", "games"),
    ("simulation",),
    ("study",),
    ("report",),
    ("cli",),
    ("__main__", "exactodds"),
)
"""Lowest first. A node imports from its own floor or lower ones; ``io`` is the bottom floor of
every write and progress, ``version`` holds ``__version__``, the study stands above the
simulator whose shoes it deals, and the facade ``exactodds`` above everything it names."""

CLIMBS: dict[tuple[str, str], str] = {
    ("paigow.views", "report.views"): (
        "a game's own views live in its package (issue 26: adding a game is one package and one "
        "registry line); Pai Gow's command view and tables/ files are built from report.views' "
        "generic blocks (View, Table, render_view), the one format dispatch"),
    ("paigow.views", "report.spreadsheet"): (
        "Pai Gow's tables/ workbook is written with the one XLSX writer of the views, for the same "
        "reason: the game's files stay in its package"),
}
"""Exact module edges ``(importer, imported)`` (names without ``exactodds.``) allowed to climb
a floor, each with its reason; may only shrink."""

KNOWN_TIES: dict[frozenset[str], str] = {
}
"""Two-way folder ties that remain, each with its reason and its fix; may only shrink."""


# -- building the graph ------------------------------------------------------------------------
DYNAMIC = frozenset({"import_module", "LazyModule", "__import__"})
"""Calls whose first argument, a literal module name, is an import."""


def module_name(path: Path, root: Path = PACKAGE) -> str:
    """``exactodds.figures.analysis`` for ``exactodds/figures/analysis.py``; a package is its
    ``__init__``."""
    return ".".join(path.relative_to(root.parent).with_suffix("").parts).removesuffix(".__init__")


def imported_by(path: Path, modules: Iterable[str], root: Path = PACKAGE) -> set[str]:
    """The modules of ``modules`` that the module at ``path`` imports, anywhere in it."""
    known = set(modules)
    me = module_name(path, root)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]

    def nearest(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    found: set[str | None] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(nearest(a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")
            base = ".".join(parts[:len(parts) - node.level + 1]) if node.level else ""
            name = ".".join(x for x in (base, node.module or "") if x)
            for a in node.names:
                found.add(f"{name}.{a.name}" if f"{name}.{a.name}" in known else nearest(name))
        elif isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1] in DYNAMIC and node.args \
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            found.add(nearest(node.args[0].value))
    return {m for m in found if m is not None and m != me}


def module_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Every module of the package under ``root`` and the package's modules it imports."""
    paths = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    return {m: imported_by(p, paths, root) for m, p in paths.items()}


def find_cycle(graph: Mapping[str, Iterable[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path ``[a, b, ..., a]``, or None: a depth-first walk with
    an explicit stack (no recursion limit)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in sorted(graph):
        if start in state:
            continue
        path = [start]
        todo = [iter(sorted(graph[start]))]
        state[start] = 1
        while todo:
            nxt = next(todo[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                todo.pop()
            elif state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            elif nxt not in state and nxt in graph:
                state[nxt] = 1
                path.append(nxt)
                todo.append(iter(sorted(graph[nxt])))
    return None


def node_of(module: str) -> str:
    """The floor-plan node of a module: its folder under ``exactodds/``, its own name for a
    top-level module, ``exactodds`` for the facade."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "exactodds"


def folder_edges(graph: Mapping[str, Iterable[str]]) -> dict[tuple[str, str], set[tuple[str, str]]]:
    """Edges between floor-plan nodes, each with the module edges behind it (names without
    the ``exactodds.`` prefix)."""
    out: dict[tuple[str, str], set[tuple[str, str]]] = {}
    short = lambda m: m.removeprefix("exactodds.")  # noqa: E731
    for a, bs in graph.items():
        for b in bs:
            if node_of(a) != node_of(b):
                out.setdefault((node_of(a), node_of(b)), set()).add((short(a), short(b)))
    return out


FLOOR = {node: i for i, floor in enumerate(FLOORS) for node in floor}
GRAPH = module_graph()


# -- the builder itself, on a package made for the purpose -------------------------------------
def test_the_graph_sees_every_kind_of_import(tmp_path: Path) -> None:
    """A type-only import, a lazy one, a relative one, ``from package import module`` and a
    module given to ``import_module`` are all edges (a name held as data is not); the cycle
    they close is found and named."""
    pkg = tmp_path / "pk"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text('import importlib\nNAME = "pk.a"\nLAZY = lambda: importlib.import_module("pk.sub.c")\n')
    (pkg / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pk.b import B\n")
    (pkg / "b.py").write_text("def f():\n    from .sub import c\n    return c\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "c.py").write_text("import os\nfrom .. import a\n")
    graph = module_graph(pkg)
    assert graph == {"pk": {"pk.sub.c"}, "pk.a": {"pk.b"}, "pk.b": {"pk.sub.c"}, "pk.sub": set(),
                     "pk.sub.c": {"pk.a"}}
    assert find_cycle(graph) == ["pk.sub.c", "pk.a", "pk.b", "pk.sub.c"]
    del graph["pk.sub.c"]
    assert find_cycle(graph) is None


# -- the package ---------------------------------------------------------------------------------
def test_no_circle_between_modules() -> None:
    """0 cycles in the module graph, type-only and function-level imports included."""
    cycle = find_cycle(GRAPH)
    assert cycle is None, " -> ".join(cycle or [])


def test_every_node_stands_on_one_floor() -> None:
    """A new folder or top-level module must be given its floor (the facade, lazy and parallel
    included), and the plan names nothing that is gone."""
    nodes = {node_of(m) for m in GRAPH}
    assert sum(len(f) for f in FLOORS) == len(FLOOR)
    assert nodes == set(FLOOR), (nodes - set(FLOOR), set(FLOOR) - nodes)


def test_no_climb_without_a_reason() -> None:
    """Every import from a lower floor to a higher one is a listed exact module edge with its
    reason (not a prefix); each listed climb is still there."""
    climbs = {edge for (a, b), edges in folder_edges(GRAPH).items() if FLOOR[b] > FLOOR[a] for edge in edges}
    assert climbs - set(CLIMBS) == set()
    assert set(CLIMBS) <= climbs, set(CLIMBS) - climbs
    assert all(reason.strip() for reason in CLIMBS.values())


def test_no_two_folders_import_each_other() -> None:
    """No two-way tie between folders (or top-level modules) but the known ones, each of which
    is still a tie (a fixed one is struck off)."""
    edges = folder_edges(GRAPH)
    ties = {frozenset(pair): sorted(edges[pair] | edges[pair[::-1]]) for pair in edges if pair[::-1] in edges}
    assert set(ties) - set(KNOWN_TIES) == set(), {tuple(sorted(k)): v for k, v in ties.items() if k not in KNOWN_TIES}
    assert set(KNOWN_TIES) <= set(ties), set(KNOWN_TIES) - set(ties)


@pytest.mark.parametrize("low", ["version", "errors", "io", "lazy", "parallel"])
def test_the_bottom_floors_import_only_lower_ones(low: str) -> None:
    """The writing floor, the version, lazy and parallel import nothing above their floor (not
    even through a listed climb): any module of any folder may import them."""
    above = {b for (a, b) in folder_edges(GRAPH) if a == low and FLOOR[b] >= FLOOR[low]}
    assert above == set()


def test_nothing_reads_the_facade() -> None:
    """The facade ``exactodds`` (lazy public names for notebooks) is imported by no module:
    ``__version__`` is read from :mod:`exactodds.version`."""
    assert {m for m, bs in GRAPH.items() if "exactodds" in bs} == set()


def test_one_version_source() -> None:
    """``__version__`` is written once, in exactodds/version.py: pyproject reads it from there
    and the installed metadata, the facade and ``--version`` agree with it."""
    import importlib.metadata
    import tomllib

    import exactodds
    from exactodds.version import __version__

    project = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())
    assert "version" in project["project"]["dynamic"] and "version" not in project["project"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "exactodds.version.__version__"}
    assert exactodds.__version__ == __version__ == importlib.metadata.version("exactodds")
