"""The engine's public API: ``__all__`` complete and importable, the package free of I/O."""

from __future__ import annotations

import ast
import doctest
import importlib
import inspect
import pkgutil
from pathlib import Path
from types import ModuleType

import pytest

import stalactites.engine as engine

MODULES = [
    importlib.import_module(f"stalactites.engine.{info.name}")
    for info in pkgutil.iter_modules(engine.__path__)
]
NO_IO = {"asyncio", "redis", "pydantic", "random", "secrets", "time", "datetime", "socket"}
NO_IO |= {"os", "sys", "io", "subprocess", "threading", "logging", "pathlib", "stalactites"}


def test_all_names_every_public_member_of_the_engine() -> None:
    public = {
        name
        for name, value in vars(engine).items()
        if not name.startswith("_") and not inspect.ismodule(value)
    }
    assert set(engine.__all__) == public
    assert len(engine.__all__) == len(set(engine.__all__))


def test_star_import_gives_every_exported_name() -> None:
    namespace: dict[str, object] = {}
    exec("from stalactites.engine import *", namespace)
    assert {name for name in namespace if name != "__builtins__"} == set(engine.__all__)


@pytest.mark.parametrize("module", MODULES, ids=lambda module: module.__name__)
def test_each_engine_module_exports_what_it_defines(module: ModuleType) -> None:
    exported = module.__all__
    assert len(exported) == len(set(exported))
    for name in exported:
        value = getattr(module, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert value.__module__ == module.__name__


@pytest.mark.parametrize("module", MODULES, ids=lambda module: module.__name__)
def test_engine_modules_do_no_io(module: ModuleType) -> None:
    assert module.__file__ is not None
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    assert not roots & NO_IO


@pytest.mark.parametrize("module", [engine, *MODULES], ids=lambda module: module.__name__)
def test_engine_docstring_examples_hold(module: ModuleType) -> None:
    failed, _ = doctest.testmod(module, verbose=False, report=False)
    assert failed == 0


def test_engine_has_docstring_examples() -> None:
    finder = doctest.DocTestFinder()
    examples = sum(len(test.examples) for m in [engine, *MODULES] for test in finder.find(m))
    assert examples >= 4
