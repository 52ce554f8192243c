"""The server's modules import one another in layers, never in a circle.

Every import counts: at the top of a module, under ``if TYPE_CHECKING:`` and inside a
function.  The layers are those of docs/architecture.md ("Layers"); a module imports from its
own package, or from a package of a lower layer, and from a higher one only by one of the
few arrows of :data:`UPWARD`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from source_kit import imported_from, modules

# Lowest first.  A unit is a package or a module directly under stalactites/ (and
# protocol/doc/, the document's writer, which reads the models of every layer).
LAYERS: list[tuple[str, ...]] = [
    ("engine", "clock", "logs", "config", "repeating"),
    ("solver", "workers"),
    ("protocol",),
    ("room_events",),
    ("store",),
    ("players", "analysis"),
    ("rooms",),
    ("results", "ghosts", "tournaments", "daily", "fairplay"),
    ("matchmaking",),
    ("arenas", "friends"),
    ("live",),
    ("web", "protocol.doc"),
    ("cli",),
]

# The arrows against the layers, each to a module of pure rules or values.
UPWARD: set[tuple[str, str]] = {
    ("config", "web.origin"),  # a bad STALACTITES_ALLOWED_ORIGINS fails as settings are read
    ("protocol.arenas", "arenas.state"),  # an arena's lines and status, from its document
    ("protocol.arenas", "players.names"),  # which characters a chosen name may hold
    ("protocol.codes", "players.errors"),  # the players' error codes, with their meanings
}


def imported(name: str, path: Path, is_package: bool, known: set[str]) -> Iterator[str]:
    """The modules of the package that ``name`` imports, wherever the import is."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("stalactites."):
                    yield alias.name.removeprefix("stalactites.")
        elif isinstance(node, ast.ImportFrom):
            module = imported_from(name, is_package, node)
            if module is None:
                continue
            for alias in node.names:
                sub = f"{module}.{alias.name}" if module else alias.name
                target = sub if sub in known else module
                if target in known and target != name:
                    yield target


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {
        name: set(imported(name, path, is_package, known))
        for name, (path, is_package) in found.items()
    }


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected group of more than one module, one circle through it named."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                group.append(other)
                if other == node:
                    break
            if len(group) > 1:
                groups.append(circle(edges, set(group)))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def circle(edges: dict[str, set[str]], group: set[str]) -> list[str]:
    """One circle within a strongly connected group: start anywhere, follow until repeated."""
    path = [min(group)]
    while True:
        step = min(other for other in edges[path[-1]] if other in group)
        if step in path:
            return [*path[path.index(step) :], step]
        path.append(step)


def unit(name: str) -> str:
    return "protocol.doc" if name.startswith("protocol.doc") else name.split(".")[0]


def layer(name: str) -> int:
    return next(i for i, units in enumerate(LAYERS) if unit(name) in units)


def test_every_module_is_in_a_layer() -> None:
    missing = sorted({unit(name) for name in modules() if name} - set(sum(LAYERS, ())))
    assert missing == [], f"add these to LAYERS (and docs/architecture.md): {missing}"


@pytest.mark.slow
def test_imports_draw_no_circle() -> None:
    found = [" -> ".join(group) for group in cycles(graph())]
    assert found == [], "import circles:\n" + "\n".join(found)


@pytest.mark.slow
def test_each_layer_imports_only_downward() -> None:
    upward = sorted(
        f"{name} -> {other}"
        for name, others in graph().items()
        if name
        for other in others
        if other and unit(other) != unit(name) and layer(other) >= layer(name)
        if (name, other) not in UPWARD
    )
    assert upward == [], "imports against the layers:\n" + "\n".join(upward)


def test_the_cycle_finder_names_a_circle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c", "a"]]
