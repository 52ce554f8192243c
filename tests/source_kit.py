"""The server's source as tests read it: its modules, and the module an import names."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "server" / "stalactites"


def modules() -> dict[str, tuple[Path, bool]]:
    """Every module's dotted name under stalactites (a package by its __init__, "" the top),
    with its file and whether it is a package."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        found[".".join(parts)] = (path, is_package)
    return found


def imported_from(name: str, is_package: bool, node: ast.ImportFrom) -> str | None:
    """The module under stalactites that ``from … import`` in module ``name`` reads from
    ("" for stalactites itself), or None for one outside it."""
    if node.level:
        package = name.split(".") if is_package else name.split(".")[:-1]
        package = [part for part in package if part]
        base = package[: len(package) - node.level + 1]
        return ".".join(base + ([node.module] if node.module else []))
    if node.module and node.module.startswith("stalactites"):
        return node.module.removeprefix("stalactites").lstrip(".")
    return None
